// Keyvals in both forms (MPI-2 comm_create_keyval / comm_free_keyval and
// MPI-1 keyval_create / keyval_free): creation, freeing, reuse, the
// predefined and null callbacks.
// MPI-free; helpers in attributes_testing.h.
#include "classic/comm/keyval.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/attributes.h"
#include "tests/classic/comm/attributes_testing.h"
#include "tests/testing/errors.h"

namespace classic::attributes_testing {
namespace {

using orthocomm_test::expect_error;

// ---------------------------------------------------------------------------
// Keyvals

TEST_F(AttributesTest, CreatedKeyvalsAreDistinctNonNegativeAndNotInvalid) {
  std::vector<int> keyvals;
  for (int i = 0; i < 50; ++i) {
    keyvals.push_back(i % 2 == 0 ? comm_create_keyval(nullptr, nullptr, nullptr)
                                 : keyval_create(nullptr, nullptr, nullptr));
  }
  for (int keyval : keyvals) {
    EXPECT_GE(keyval, 0);
    EXPECT_NE(keyval, keyval_invalid);
  }
  std::vector<int> sorted = keyvals;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
  EXPECT_EQ(live_keyval_count(), baseline_keyvals_ + 50);
  for (int& keyval : keyvals) comm_free_keyval(keyval);
}

TEST_F(AttributesTest, FreeSetsKeyvalInvalidInBothForms) {
  int keyval = comm_create_keyval(nullptr, nullptr, nullptr);
  comm_free_keyval(keyval);
  EXPECT_EQ(keyval, keyval_invalid);
  int old_keyval = keyval_create(nullptr, nullptr, nullptr);
  keyval_free(old_keyval);
  EXPECT_EQ(old_keyval, keyval_invalid);
}

TEST_F(AttributesTest, FreeOfKeyvalInvalidIsKeyvalError) {
  int keyval = keyval_invalid;
  expect_error([&] { comm_free_keyval(keyval); }, ErrorClass::keyval,
               {"classic::comm_free_keyval", "keyval = -1"});
  expect_error([&] { keyval_free(keyval); }, ErrorClass::keyval,
               {"classic::keyval_free", "keyval = -1"});
}

TEST_F(AttributesTest, FreeOfNeverCreatedKeyvalIsKeyvalError) {
  int keyval = 1999999999;
  expect_error([&] { comm_free_keyval(keyval); }, ErrorClass::keyval,
               {"classic::comm_free_keyval", "keyval = 1999999999"});
  int negative = -7;
  expect_error([&] { comm_free_keyval(negative); }, ErrorClass::keyval,
               {"keyval = -7"});
}

TEST_F(AttributesTest, SecondFreeThroughACopyIsKeyvalError) {
  int keyval = comm_create_keyval(nullptr, nullptr, nullptr);
  int copy = keyval;
  comm_free_keyval(keyval);
  expect_error(
      [&] { comm_free_keyval(copy); }, ErrorClass::keyval,
      {"classic::comm_free_keyval", "keyval = " + std::to_string(copy)});
}

TEST_F(AttributesTest, SecondFreeOfAFreedKeyStillAttachedIsKeyvalError) {
  AttributeStore store;
  int keyval = comm_create_keyval(nullptr, nullptr, nullptr);
  int copy = keyval;
  store.set(comm_, keyval, slot(0));
  comm_free_keyval(keyval);
  expect_error([&] { comm_free_keyval(copy); }, ErrorClass::keyval,
               {"was already freed"});
  store.remove(comm_, copy);
}

TEST_F(AttributesTest, StaleCopyOfAFreedKeyvalIsNotReusedByTheNextCreate) {
  int keyval = comm_create_keyval(nullptr, nullptr, nullptr);
  const int stale = keyval;
  comm_free_keyval(keyval);
  int next = comm_create_keyval(nullptr, nullptr, nullptr);
  EXPECT_NE(next, stale);
  AttributeStore store;
  expect_error(
      [&] { (void)store.get(stale); }, ErrorClass::keyval,
      {"classic::AttributeStore::get", "keyval = " + std::to_string(stale)});
  comm_free_keyval(next);
}

TEST_F(AttributesTest, TenThousandCreateFreeCyclesDoNotGrowTheRegistry) {
  int previous = keyval_invalid;
  for (int i = 0; i < 10000; ++i) {
    int keyval = comm_create_keyval(nullptr, nullptr, nullptr);
    EXPECT_NE(keyval, previous);
    previous = keyval;
    comm_free_keyval(keyval);
    ASSERT_EQ(live_keyval_count(), baseline_keyvals_);
  }
}

TEST_F(AttributesTest, TenThousandCyclesWithAttachedFreedKeysDoNotGrow) {
  AttributeStore store;
  Calls calls;
  for (int i = 0; i < 10000; ++i) {
    int keyval = counting_keyval(calls);
    const int attached = keyval;
    store.set(comm_, keyval, slot(1));
    comm_free_keyval(keyval);
    ASSERT_EQ(live_keyval_count(), baseline_keyvals_ + 1);
    store.remove(comm_, attached);
    ASSERT_EQ(live_keyval_count(), baseline_keyvals_);
  }
  EXPECT_EQ(calls.deletes, 10000);
  EXPECT_TRUE(store.empty());
}

TEST_F(AttributesTest, PredefinedCallbacksBehaveAsTheStandardSays) {
  int value = 0;
  void* out = nullptr;
  bool flag = true;
  EXPECT_EQ(comm_null_copy_fn(comm_, 0, nullptr, &value, &out, &flag), 0);
  EXPECT_FALSE(flag);
  EXPECT_EQ(out, nullptr);
  flag = false;
  EXPECT_EQ(comm_dup_fn(comm_, 0, nullptr, &value, &out, &flag), 0);
  EXPECT_TRUE(flag);
  EXPECT_EQ(out, &value);
  EXPECT_EQ(comm_null_delete_fn(comm_, 0, &value, nullptr), 0);
  EXPECT_EQ(null_copy_fn, &comm_null_copy_fn);
  EXPECT_EQ(dup_fn, &comm_dup_fn);
  EXPECT_EQ(null_delete_fn, &comm_null_delete_fn);
}

TEST_F(AttributesTest, NullCallbacksActAsTheNullFunctions) {
  AttributeStore store;
  int keyval = keyval_create(nullptr, nullptr, nullptr);
  store.set(comm_, keyval, slot(0));
  AttributeStore duplicate = store.copy_for_dup(comm_);
  EXPECT_EQ(duplicate.get(keyval), std::nullopt);  // null copy: not copied
  store.set(comm_, keyval, slot(1));               // null delete: no crash
  store.delete_all(comm_);
  EXPECT_TRUE(store.empty());
  keyval_free(keyval);
}

}  // namespace
}  // namespace classic::attributes_testing
