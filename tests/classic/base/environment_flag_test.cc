// Boolean environment variables: every spelling the documentation names, in
// any case, and a typed error naming the variable and its value otherwise.
#include "classic/base/environment_flag.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>

#include "tests/testing/errors.h"

namespace {

TEST(ParseFlag, OnAndOffWordsInAnyCase) {
  for (const char* on :
       {"1", "true", "TRUE", "True", "yes", "YES", "on", "On"}) {
    EXPECT_EQ(classic::parse_flag(on), std::optional<bool>(true)) << on;
  }
  for (const char* off :
       {"", "0", "false", "FALSE", "no", "No", "off", "OFF"}) {
    EXPECT_EQ(classic::parse_flag(off), std::optional<bool>(false)) << off;
  }
}

TEST(ParseFlag, AnythingElseIsNoFlag) {
  for (const char* other :
       {"2", "y", "n", "enable", " 1", "1 ", "truee", "-1"}) {
    EXPECT_EQ(classic::parse_flag(other), std::nullopt) << "'" << other << "'";
  }
}

TEST(EnvironmentFlag, UnsetIsOff) {
  unsetenv("ORTHOCOMM_TEST_FLAG");
  EXPECT_FALSE(classic::environment_flag("ORTHOCOMM_TEST_FLAG", "test"));
}

TEST(EnvironmentFlag, ReadsTheVariable) {
  setenv("ORTHOCOMM_TEST_FLAG", "yes", 1);
  EXPECT_TRUE(classic::environment_flag("ORTHOCOMM_TEST_FLAG", "test"));
  setenv("ORTHOCOMM_TEST_FLAG", "off", 1);
  EXPECT_FALSE(classic::environment_flag("ORTHOCOMM_TEST_FLAG", "test"));
  unsetenv("ORTHOCOMM_TEST_FLAG");
}

TEST(EnvironmentFlag, ABadValueIsAnErrorNamingTheVariableAndValue) {
  setenv("ORTHOCOMM_TEST_FLAG", "maybe", 1);
  orthocomm_test::expect_thrown(
      orthocomm_test::thrown_by([] {
        (void)classic::environment_flag("ORTHOCOMM_TEST_FLAG",
                                        "ortho (environment)");
      }),
      classic::ErrorClass::arg, {"ORTHOCOMM_TEST_FLAG", "'maybe'"},
      "ortho (environment)");
  unsetenv("ORTHOCOMM_TEST_FLAG");
}

}  // namespace
