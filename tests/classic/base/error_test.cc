// classic::Error carries its class and a message of the one shape
// "<function>: <detail>", and error_text.h's phrases word every detail alike
// (STYLE.md, "Errors"). MPI-free.
#include "classic/base/error.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "classic/base/error_text.h"
#include "tests/testing/errors.h"

namespace classic {
namespace {

using orthocomm_test::expect_error_from;

TEST(ErrorTest, CarriesItsClassAndTheFunctionFirstInItsMessage) {
  const Error error(ErrorClass::rank, "classic::Group::incl",
                    "ranks[2] = 7 is outside [0, 4)");
  EXPECT_EQ(error.error_class(), ErrorClass::rank);
  EXPECT_STREQ(error.what(),
               "classic::Group::incl: ranks[2] = 7 is outside [0, 4)");
  EXPECT_NE(dynamic_cast<const std::runtime_error*>(&error), nullptr);
  expect_error_from([&] { throw error; }, ErrorClass::rank,
                    "classic::Group::incl", "ranks[2] = 7");
}

TEST(ErrorTest, EveryClassHasItsOwnName) {
  EXPECT_EQ(to_string(ErrorClass::arg), "arg");
  EXPECT_EQ(to_string(ErrorClass::group), "group");
  EXPECT_EQ(to_string(ErrorClass::rank), "rank");
  EXPECT_EQ(to_string(ErrorClass::topology), "topology");
  EXPECT_NE(to_string(ErrorClass::other), to_string(ErrorClass::intern));
}

TEST(ErrorTextTest, PhrasesNameArgumentsAndRangesAlike) {
  EXPECT_EQ(error_text::text(-7), "-7");
  EXPECT_EQ(error_text::entry("ranks", 2), "ranks[2]");
  EXPECT_EQ(error_text::entry("ranks", 2, 7), "ranks[2] = 7");
  EXPECT_EQ(error_text::named("root", 7), "root = 7");
  EXPECT_EQ(error_text::outside(0, 4), " is outside [0, 4)");
  EXPECT_EQ(error_text::entry("ranks", 2, 7) + error_text::outside(0, 4),
            "ranks[2] = 7 is outside [0, 4)");
  EXPECT_EQ(error_text::differs("ndims", 3, "geometry.ndims()", 2),
            "ndims = 3 differs from geometry.ndims() = 2");
}

}  // namespace
}  // namespace classic
