// classic::datatype_layout against what MPI says of each datatype:
// predefined ones (answered from what was asked before, also past the
// first sixteen), derived ones (never kept: a freed handle may come back
// as another datatype), and MPI_DATATYPE_NULL rejected.
#include "classic/base/datatype_layout.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "classic/base/error.h"

namespace {

// MPI's own answers.
void expect_as_mpi_says(MPI_Datatype datatype, bool predefined) {
  MPI_Aint lower_bound = 0;
  MPI_Aint extent = 0;
  MPI_Aint true_lower_bound = 0;
  MPI_Aint true_extent = 0;
  MPI_Count size = 0;
  MPI_Type_get_extent(datatype, &lower_bound, &extent);
  MPI_Type_get_true_extent(datatype, &true_lower_bound, &true_extent);
  MPI_Type_size_x(datatype, &size);
  for (int asked = 0; asked < 2; ++asked) {
    const classic::DatatypeLayout layout =
        classic::datatype_layout(datatype, "test");
    EXPECT_EQ(layout.lower_bound, lower_bound);
    EXPECT_EQ(layout.extent, extent);
    EXPECT_EQ(layout.true_lower_bound, true_lower_bound);
    EXPECT_EQ(layout.true_extent, true_extent);
    EXPECT_EQ(layout.size, size);
    EXPECT_EQ(layout.predefined, predefined);
  }
}

TEST(DatatypeLayout, PredefinedAsMpiSaysPastTheOnesKept) {
  const std::vector<MPI_Datatype> predefined = {
      MPI_CHAR,      MPI_SHORT,      MPI_INT,      MPI_LONG,
      MPI_LONG_LONG, MPI_FLOAT,      MPI_DOUBLE,   MPI_LONG_DOUBLE,
      MPI_BYTE,      MPI_PACKED,     MPI_INT8_T,   MPI_INT16_T,
      MPI_INT32_T,   MPI_INT64_T,    MPI_UINT64_T, MPI_C_BOOL,
      MPI_2INT,      MPI_DOUBLE_INT, MPI_AINT,     MPI_C_DOUBLE_COMPLEX};
  for (int round = 0; round < 2; ++round) {
    for (MPI_Datatype datatype : predefined) {
      expect_as_mpi_says(datatype, true);
    }
  }
}

TEST(DatatypeLayout, DerivedNeverKept) {
  for (int count = 1; count <= 5; ++count) {
    MPI_Datatype derived = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(count, MPI_DOUBLE, &derived);
    MPI_Type_commit(&derived);
    expect_as_mpi_says(derived, false);
    EXPECT_EQ(classic::datatype_layout(derived, "test").size, 8 * count);
    MPI_Type_free(&derived);  // its handle may come back as the next one
  }
  MPI_Datatype resized = MPI_DATATYPE_NULL;
  MPI_Type_create_resized(MPI_INT, -4, 16, &resized);
  MPI_Type_commit(&resized);
  expect_as_mpi_says(resized, false);
  MPI_Type_free(&resized);
}

TEST(DatatypeLayout, RejectsTheNullDatatype) {
  try {
    classic::datatype_layout(MPI_DATATYPE_NULL, "classic::f");
    ADD_FAILURE() << "no error";
  } catch (const classic::Error& error) {
    EXPECT_EQ(error.error_class(), classic::ErrorClass::datatype);
  }
}

}  // namespace
