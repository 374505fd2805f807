// The copy and delete callbacks of AttributeStore: copy_for_dup (dup) and
// its rollback on failure, delete callbacks that fail or that remove
// another attribute.
// MPI-free; helpers in attributes_testing.h.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/attributes.h"
#include "classic/comm/keyval.h"
#include "tests/classic/comm/attributes_testing.h"
#include "tests/testing/errors.h"

namespace classic::attributes_testing {
namespace {

using orthocomm_test::expect_error;
using orthocomm_test::expect_error_class;

// ---------------------------------------------------------------------------
// copy_for_dup

TEST_F(AttributesTest, DupRunsEachCopyCallbackOnceWithTheOldComm) {
  AttributeStore store;
  Calls copied, dropped;
  dropped.copy_flag = false;
  int a = counting_keyval(copied);
  int b = counting_keyval(dropped);
  int c = comm_create_keyval(&comm_dup_fn, nullptr, nullptr);
  int d = comm_create_keyval(&comm_null_copy_fn, nullptr, nullptr);
  store.set(comm_, a, slot(0));
  store.set(comm_, b, slot(1));
  store.set(comm_, c, slot(2));
  store.set(comm_, d, slot(3));
  AttributeStore duplicate = store.copy_for_dup(comm_);
  EXPECT_EQ(copied.copies, 1);
  EXPECT_EQ(dropped.copies, 1);
  EXPECT_EQ(copied.copy_comm_ids, std::vector<int>{1});
  EXPECT_EQ(duplicate.keyvals(), (std::vector<int>{a, c}));
  EXPECT_EQ(duplicate.get(a), std::optional<void*>(slot(0)));
  EXPECT_EQ(duplicate.get(b), std::nullopt);  // flag false: not copied
  EXPECT_EQ(duplicate.get(c), std::optional<void*>(slot(2)));
  EXPECT_EQ(duplicate.get(d), std::nullopt);
  EXPECT_EQ(store.keyvals(), (std::vector<int>{a, b, c, d}));  // unchanged
  EXPECT_EQ(copied.deletes + dropped.deletes, 0);
  duplicate.delete_all(other_comm_);
  EXPECT_EQ(copied.deletes, 1);
  EXPECT_EQ(dropped.deletes, 0);
  store.delete_all(comm_);
  EXPECT_EQ(copied.deletes, 2);
  EXPECT_EQ(dropped.deletes, 1);
  for (int* keyval : {&a, &b, &c, &d}) comm_free_keyval(*keyval);
}

TEST_F(AttributesTest, DupCopiesValuesThroughTheCallbackOut) {
  AttributeStore store;
  Calls calls;
  int keyval = comm_create_keyval(&tracked_copy, &tracked_delete, &calls);
  store.set(comm_, keyval, new Tracked(42));
  AttributeStore duplicate = store.copy_for_dup(comm_);
  ASSERT_TRUE(duplicate.get(keyval).has_value());
  auto* original = static_cast<Tracked*>(*store.get(keyval));
  auto* copy = static_cast<Tracked*>(*duplicate.get(keyval));
  EXPECT_NE(original, copy);
  EXPECT_EQ(copy->value, 42);
  EXPECT_EQ(Tracked::live, 2);
  duplicate.delete_all(other_comm_);
  store.delete_all(comm_);
  comm_free_keyval(keyval);
}

TEST_F(AttributesTest, CopyFailureInTheMiddleOfDupLeaksNothing) {
  AttributeStore store;
  Calls first, second, third;
  second.fail_copy = 9;
  int a = comm_create_keyval(&tracked_copy, &tracked_delete, &first);
  int b = comm_create_keyval(&tracked_copy, &tracked_delete, &second);
  int c = comm_create_keyval(&tracked_copy, &tracked_delete, &third);
  store.set(comm_, a, new Tracked(1));
  store.set(comm_, b, new Tracked(2));
  store.set(comm_, c, new Tracked(3));
  const std::size_t keys_in_use = live_keyval_count();
  expect_error([&] { (void)store.copy_for_dup(comm_); }, ErrorClass::other,
               {"classic::AttributeStore::copy_for_dup", "copy callback",
                "keyval = " + std::to_string(b), "returned 9"});
  EXPECT_EQ(Tracked::live, 3);  // a's copy was deleted again
  EXPECT_EQ(first.copies, 1);
  ASSERT_EQ(first.deletes, 1);  // the rollback, of the copy, not the original
  EXPECT_NE(first.deleted_values[0], *store.get(a));
  EXPECT_EQ(first.delete_comm_ids, std::vector<int>{1});
  EXPECT_EQ(second.copies, 1);
  EXPECT_EQ(second.deletes, 0);
  EXPECT_EQ(third.copies, 0);  // never reached
  EXPECT_EQ(store.keyvals(), (std::vector<int>{a, b, c}));
  EXPECT_EQ(static_cast<Tracked*>(*store.get(a))->value, 1);
  EXPECT_EQ(live_keyval_count(), keys_in_use);
  second.fail_copy = 0;  // the same store duplicates fine afterwards
  AttributeStore duplicate = store.copy_for_dup(comm_);
  EXPECT_EQ(Tracked::live, 6);
  duplicate.delete_all(other_comm_);
  store.delete_all(comm_);
  for (int* keyval : {&a, &b, &c}) comm_free_keyval(*keyval);
}

TEST_F(AttributesTest, CopyFailureWithAFreedKeyAttachedStillReclaimsIt) {
  AttributeStore store;
  Calls calls;
  int a = comm_create_keyval(&tracked_copy, &tracked_delete, &calls);
  int b = comm_create_keyval(&always_fail_copy, nullptr, nullptr);
  store.set(comm_, a, new Tracked(1));
  store.set(comm_, b, slot(0));
  const int stale_a = a;
  comm_free_keyval(a);  // still attached to store
  expect_error([&] { (void)store.copy_for_dup(comm_); }, ErrorClass::other,
               {"returned 3"});
  EXPECT_EQ(Tracked::live, 1);
  store.delete_all(comm_);
  comm_free_keyval(b);
  expect_error_class([&] { (void)store.get(stale_a); }, ErrorClass::keyval);
}

TEST_F(AttributesTest, CopyCallbackThatThrowsRollsBackAndRethrows) {
  AttributeStore store;
  Calls calls;
  int a = comm_create_keyval(&tracked_copy, &tracked_delete, &calls);
  int b = comm_create_keyval(&throwing_copy, nullptr, nullptr);
  store.set(comm_, a, new Tracked(1));
  store.set(comm_, b, slot(0));
  EXPECT_THROW((void)store.copy_for_dup(comm_), std::runtime_error);
  EXPECT_EQ(Tracked::live, 1);
  EXPECT_EQ(calls.deletes, 1);
  store.delete_all(comm_);
  comm_free_keyval(a);
  comm_free_keyval(b);
}

// ---------------------------------------------------------------------------
// Failing delete callbacks

TEST_F(AttributesTest, FailedDeleteOnOverwriteKeepsTheOldValue) {
  AttributeStore store;
  Calls calls;
  int keyval = counting_keyval(calls);
  store.set(comm_, keyval, slot(0));
  calls.fail_delete = 4;
  expect_error([&] { store.set(comm_, keyval, slot(1)); }, ErrorClass::other,
               {"classic::AttributeStore::set", "delete callback",
                "keyval = " + std::to_string(keyval), "returned 4"});
  EXPECT_EQ(calls.deletes, 1);
  EXPECT_EQ(store.get(keyval), std::optional<void*>(slot(0)));
  calls.fail_delete = 0;
  store.delete_all(comm_);
  EXPECT_EQ(calls.deletes, 2);
  EXPECT_EQ(calls.deleted_values, (std::vector<void*>{slot(0), slot(0)}));
  comm_free_keyval(keyval);
}

TEST_F(AttributesTest, FailedDeleteOnRemoveKeepsTheAttribute) {
  AttributeStore store;
  Calls calls;
  int keyval = counting_keyval(calls);
  store.set(comm_, keyval, slot(5));
  calls.fail_delete = 2;
  expect_error([&] { store.remove(comm_, keyval); }, ErrorClass::other,
               {"classic::AttributeStore::remove", "returned 2"});
  EXPECT_EQ(calls.deletes, 1);
  EXPECT_EQ(store.get(keyval), std::optional<void*>(slot(5)));
  calls.fail_delete = 0;
  store.remove(comm_, keyval);
  EXPECT_EQ(calls.deletes, 2);
  EXPECT_TRUE(store.empty());
  comm_free_keyval(keyval);
}

TEST_F(AttributesTest, FailedDeleteInDeleteAllStillRunsTheOthersOnce) {
  AttributeStore store;
  Calls good_first, bad, good_last;
  bad.fail_delete = 6;
  int a = counting_keyval(good_first);
  int b = counting_keyval(bad);
  int c = counting_keyval(good_last);
  store.set(comm_, a, slot(0));
  store.set(comm_, b, slot(1));
  store.set(comm_, c, slot(2));
  expect_error([&] { store.delete_all(comm_); }, ErrorClass::other,
               {"classic::AttributeStore::delete_all",
                "keyval = " + std::to_string(b), "returned 6"});
  EXPECT_EQ(good_first.deletes, 1);
  EXPECT_EQ(bad.deletes, 1);
  EXPECT_EQ(good_last.deletes, 1);
  EXPECT_EQ(store.keyvals(), std::vector<int>{b});
  bad.fail_delete = 0;
  store.delete_all(comm_);  // only the one left runs again
  EXPECT_EQ(good_first.deletes, 1);
  EXPECT_EQ(bad.deletes, 2);
  EXPECT_EQ(good_last.deletes, 1);
  EXPECT_TRUE(store.empty());
  for (int* keyval : {&a, &b, &c}) comm_free_keyval(*keyval);
}

// A delete callback that removes another attribute of the same store (as
// libraries with nested attributes do) does not cause a second delete.
struct Nested {
  AttributeStore* store;
  const Comm* comm;
  int inner_keyval;
  int deletes = 0;
};

int delete_outer_and_inner(const Comm&, int, void*, void* extra_state) {
  auto& nested = *static_cast<Nested*>(extra_state);
  ++nested.deletes;
  nested.store->remove(*nested.comm, nested.inner_keyval);
  return 0;
}

TEST_F(AttributesTest, DeleteCallbackMayRemoveAnotherAttributeOfTheStore) {
  AttributeStore store;
  Calls inner_calls;
  int inner = counting_keyval(inner_calls);
  Nested nested{&store, &comm_, inner};
  int outer = comm_create_keyval(nullptr, &delete_outer_and_inner, &nested);
  store.set(comm_, inner, slot(0));
  store.set(comm_, outer, slot(1));  // newest: deleted first
  store.delete_all(comm_);
  EXPECT_EQ(nested.deletes, 1);
  EXPECT_EQ(inner_calls.deletes, 1);
  EXPECT_TRUE(store.empty());
  comm_free_keyval(inner);
  comm_free_keyval(outer);
}

}  // namespace
}  // namespace classic::attributes_testing
