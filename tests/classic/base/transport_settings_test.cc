// classic::transport_setting reads the transport's control variables: the
// test harness's mpirun sets btl and mpi_yield_when_idle on the command
// line, which Open MPI also exports as OMPI_MCA_<name> to the processes;
// the tool interface must report the same values.
#include "classic/base/transport_settings.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

std::string exported(const char* name) {
  const char* value = std::getenv((std::string("OMPI_MCA_") + name).c_str());
  return value == nullptr ? std::string() : std::string(value);
}

TEST(TransportSettings, TextVariableAsSetOnTheCommandLine) {
  const std::string btl = exported("btl");
  ASSERT_FALSE(btl.empty()) << "run under the test harness's mpirun";
  EXPECT_EQ(classic::transport_setting("btl"), btl);
}

TEST(TransportSettings, BooleanVariableAsOneOrZero) {
  const std::string yield = exported("mpi_yield_when_idle");
  ASSERT_FALSE(yield.empty()) << "run under the test harness's mpirun";
  EXPECT_EQ(classic::transport_setting("mpi_yield_when_idle"), "1");
}

TEST(TransportSettings, IntegerVariableInDecimal) {
  // An int parameter of Open MPI's core that the harness leaves at its
  // default (-1: "decide for me"), unless the environment sets it.
  const std::string set = exported("mpi_leave_pinned");
  EXPECT_EQ(classic::transport_setting("mpi_leave_pinned"),
            set.empty() ? "-1" : set);
}

TEST(TransportSettings, UnknownVariableIsEmpty) {
  EXPECT_EQ(classic::transport_setting("orthocomm_no_such_variable"), "");
  EXPECT_EQ(classic::transport_setting(""), "");
}

// Reads after the first are remembered (and agree).
TEST(TransportSettings, RepeatedReadsAgree) {
  const std::string first = classic::transport_setting("btl");
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(classic::transport_setting("btl"), first);
  }
}

}  // namespace
