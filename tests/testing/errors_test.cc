// The error checks of errors.h pass on the error they describe and fail, with
// a message, on every other outcome: no error, another class, a message that
// lacks a fragment or begins with another function.
#include "tests/testing/errors.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>

#include "classic/base/error.h"

namespace orthocomm_test {
namespace {

using classic::Error;
using classic::ErrorClass;

void raise_rank_error() {
  throw Error(ErrorClass::rank, "classic::Group::incl",
              "ranks[2] = 7 is outside [0, 4)");
}
void raise_nothing() {}

TEST(ThrownByTest, ReportsClassAndMessageOfTheError) {
  const Thrown thrown = thrown_by(raise_rank_error);
  EXPECT_EQ(thrown.error_class, ErrorClass::rank);
  EXPECT_EQ(thrown.message,
            "classic::Group::incl: ranks[2] = 7 is outside [0, 4)");
  EXPECT_EQ(thrown_class(raise_rank_error), ErrorClass::rank);
  EXPECT_EQ(thrown_text(raise_rank_error), thrown.message);
}

TEST(ThrownByTest, ReportsNothingWhenNothingIsRaised) {
  EXPECT_EQ(thrown_by(raise_nothing).error_class, std::nullopt);
  EXPECT_EQ(thrown_class(raise_nothing), std::nullopt);
  EXPECT_EQ(thrown_text(raise_nothing), "");
}

TEST(ThrownByTest, LetsOtherExceptionsPass) {
  EXPECT_THROW(thrown_by([] { throw std::runtime_error("not classic"); }),
               std::runtime_error);
}

TEST(ExpectErrorTest, PassesOnTheErrorItDescribes) {
  expect_error_class(raise_rank_error, ErrorClass::rank);
  expect_error(raise_rank_error, ErrorClass::rank,
               {"classic::Group::incl", "ranks[2] = 7"});
  expect_error(raise_rank_error, ErrorClass::rank, {});
  expect_error_from(raise_rank_error, ErrorClass::rank, "classic::Group::incl",
                    "ranks[2]");
  expect_error_from(raise_rank_error, ErrorClass::rank, "classic::Group::incl");
}

TEST(ExpectErrorTest, FailsWhenNothingIsRaised) {
  EXPECT_NONFATAL_FAILURE(expect_error_class(raise_nothing, ErrorClass::rank),
                          "no classic::Error raised");
  EXPECT_NONFATAL_FAILURE(expect_error(raise_nothing, ErrorClass::rank, {}),
                          "no classic::Error raised");
  EXPECT_NONFATAL_FAILURE(expect_error_from(raise_nothing, ErrorClass::rank,
                                            "classic::Group::incl"),
                          "no classic::Error raised");
}

TEST(ExpectErrorTest, FailsOnAnotherClass) {
  EXPECT_NONFATAL_FAILURE(
      expect_error_class(raise_rank_error, ErrorClass::group),
      "class rank, expected group");
  EXPECT_NONFATAL_FAILURE(
      expect_error(raise_rank_error, ErrorClass::arg, {"ranks[2]"}),
      "class rank, expected arg");
  EXPECT_NONFATAL_FAILURE(expect_error_from(raise_rank_error, ErrorClass::arg,
                                            "classic::Group::incl"),
                          "class rank, expected arg");
}

TEST(ExpectErrorTest, FailsOnAMessageThatLacksAFragment) {
  EXPECT_NONFATAL_FAILURE(expect_error(raise_rank_error, ErrorClass::rank,
                                       {"classic::Group::incl", "ranks[3]"}),
                          "lacks 'ranks[3]'");
  EXPECT_NONFATAL_FAILURE(expect_error_from(raise_rank_error, ErrorClass::rank,
                                            "classic::Group::incl", "root"),
                          "lacks 'root'");
}

TEST(ExpectErrorTest, FailsOnAMessageFromAnotherFunction) {
  // The function must begin the message: naming it later is not enough.
  EXPECT_NONFATAL_FAILURE(
      expect_error_from(raise_rank_error, ErrorClass::rank, "Group::incl"),
      "does not begin with 'Group::incl:'");
  EXPECT_NONFATAL_FAILURE(expect_error_from(raise_rank_error, ErrorClass::rank,
                                            "classic::Group::excl"),
                          "does not begin with 'classic::Group::excl:'");
}

}  // namespace
}  // namespace orthocomm_test
