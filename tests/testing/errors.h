// Checks of the classic::Error a call raises, for the tests of every layer:
// its class, and the function, argument and value its message names.
#ifndef ORTHOCOMM_TESTS_TESTING_ERRORS_H_
#define ORTHOCOMM_TESTS_TESTING_ERRORS_H_

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "classic/base/error.h"

namespace orthocomm_test {

// What a call raised: the class and message of its classic::Error, or no
// class (and an empty message) when it raised none. Other exceptions pass.
struct Thrown {
  std::optional<classic::ErrorClass> error_class;
  std::string message;
};

template <class Call>
Thrown thrown_by(Call&& call) {
  try {
    call();
  } catch (const classic::Error& error) {
    return {error.error_class(), error.what()};
  }
  return {};
}

// The class of the classic::Error that `call` raises; nullopt if none.
template <class Call>
std::optional<classic::ErrorClass> thrown_class(Call&& call) {
  return thrown_by(call).error_class;
}

// The message of the classic::Error that `call` raises; empty if none.
template <class Call>
std::string thrown_text(Call&& call) {
  return thrown_by(call).message;
}

// Expects `thrown` to be a classic::Error of class `expected` whose message
// begins with `prefix` and contains each of `fragments`.
inline void expect_thrown(const Thrown& thrown, classic::ErrorClass expected,
                          const std::vector<std::string>& fragments = {},
                          const std::string& prefix = "") {
  if (!thrown.error_class) {
    ADD_FAILURE() << "no classic::Error raised (expected class "
                  << classic::to_string(expected) << ")";
    return;
  }
  EXPECT_EQ(*thrown.error_class, expected)
      << "class " << classic::to_string(*thrown.error_class) << ", expected "
      << classic::to_string(expected) << ": " << thrown.message;
  EXPECT_EQ(thrown.message.rfind(prefix, 0), 0u)
      << "message '" << thrown.message << "' does not begin with '" << prefix
      << "'";
  for (const std::string& fragment : fragments) {
    EXPECT_NE(thrown.message.find(fragment), std::string::npos)
        << "message '" << thrown.message << "' lacks '" << fragment << "'";
  }
}

// Expects `call` to raise a classic::Error of class `expected`.
template <class Call>
void expect_error_class(Call&& call, classic::ErrorClass expected) {
  expect_thrown(thrown_by(call), expected);
}

// Expects `call` to raise a classic::Error of class `expected` whose message
// contains each of `fragments` (the function, the argument, the value).
template <class Call>
void expect_error(Call&& call, classic::ErrorClass expected,
                  const std::vector<std::string>& fragments) {
  expect_thrown(thrown_by(call), expected, fragments);
}

// Expects `call` to raise a classic::Error of class `expected` whose message
// begins with "<function>:" and names `argument`.
template <class Call>
void expect_error_from(Call&& call, classic::ErrorClass expected,
                       const std::string& function,
                       const std::string& argument = "") {
  expect_thrown(thrown_by(call), expected, {argument}, function + ":");
}

}  // namespace orthocomm_test

#endif  // ORTHOCOMM_TESTS_TESTING_ERRORS_H_
