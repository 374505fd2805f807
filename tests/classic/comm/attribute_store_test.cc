// AttributeStore: set, get and remove, the order of delete_all, keys freed
// while attributes are attached, and the store's own lifetime.
// MPI-free; helpers in attributes_testing.h.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <utility>
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
// AttributeStore: set / get / remove

TEST_F(AttributesTest, GetOfUnsetAttributeIsNullopt) {
  AttributeStore store;
  int keyval = comm_create_keyval(nullptr, nullptr, nullptr);
  EXPECT_EQ(store.get(keyval), std::nullopt);
  comm_free_keyval(keyval);
}

TEST_F(AttributesTest, GetReturnsTheValueSetAndNullptrIsAValue) {
  AttributeStore store;
  int a = comm_create_keyval(nullptr, nullptr, nullptr);
  int b = comm_create_keyval(nullptr, nullptr, nullptr);
  store.set(comm_, a, slot(3));
  store.set(comm_, b, nullptr);
  EXPECT_EQ(store.get(a), std::optional<void*>(slot(3)));
  ASSERT_TRUE(store.get(b).has_value());
  EXPECT_EQ(*store.get(b), nullptr);
  EXPECT_EQ(store.size(), 2u);
  store.delete_all(comm_);
  comm_free_keyval(a);
  comm_free_keyval(b);
}

TEST_F(AttributesTest, AttributesAreLocalToTheirStore) {
  AttributeStore first, second;
  int keyval = comm_create_keyval(nullptr, nullptr, nullptr);
  first.set(comm_, keyval, slot(0));
  EXPECT_EQ(second.get(keyval), std::nullopt);
  second.set(other_comm_, keyval, slot(1));
  EXPECT_EQ(first.get(keyval), std::optional<void*>(slot(0)));
  first.delete_all(comm_);
  second.delete_all(other_comm_);
  comm_free_keyval(keyval);
}

TEST_F(AttributesTest, SetWithKeyvalInvalidIsKeyvalError) {
  AttributeStore store;
  expect_error([&] { store.set(comm_, keyval_invalid, slot(0)); },
               ErrorClass::keyval,
               {"classic::AttributeStore::set", "keyval = -1"});
  EXPECT_TRUE(store.empty());
}

TEST_F(AttributesTest, SetWithNeverCreatedKeyvalIsKeyvalError) {
  AttributeStore store;
  expect_error([&] { store.set(comm_, 1999999999, slot(0)); },
               ErrorClass::keyval,
               {"classic::AttributeStore::set", "keyval = 1999999999"});
}

TEST_F(AttributesTest, SetWithFreedKeyvalIsKeyvalError) {
  AttributeStore store;
  int keyval = comm_create_keyval(nullptr, nullptr, nullptr);
  const int stale = keyval;
  comm_free_keyval(keyval);
  expect_error(
      [&] { store.set(comm_, stale, slot(0)); }, ErrorClass::keyval,
      {"classic::AttributeStore::set", "keyval = " + std::to_string(stale)});
}

TEST_F(AttributesTest, SetWithFreedKeyvalStillAttachedElsewhereIsKeyvalError) {
  AttributeStore holder, store;
  int keyval = comm_create_keyval(nullptr, nullptr, nullptr);
  const int stale = keyval;
  holder.set(comm_, keyval, slot(0));
  comm_free_keyval(keyval);
  expect_error([&] { store.set(other_comm_, stale, slot(1)); },
               ErrorClass::keyval, {"was freed"});
  // ... and overwriting on the holder is a new set too.
  expect_error([&] { holder.set(comm_, stale, slot(2)); }, ErrorClass::keyval,
               {"was freed"});
  EXPECT_EQ(holder.get(stale), std::optional<void*>(slot(0)));
  holder.remove(comm_, stale);
}

TEST_F(AttributesTest, GetWithKeyvalInvalidIsKeyvalError) {
  AttributeStore store;
  expect_error([&] { (void)store.get(keyval_invalid); }, ErrorClass::keyval,
               {"classic::AttributeStore::get", "keyval = -1"});
}

TEST_F(AttributesTest, GetWithNeverCreatedKeyvalIsKeyvalError) {
  AttributeStore store;
  expect_error([&] { (void)store.get(1999999999); }, ErrorClass::keyval,
               {"classic::AttributeStore::get", "keyval = 1999999999"});
}

TEST_F(AttributesTest, RemoveWithKeyvalInvalidIsKeyvalError) {
  AttributeStore store;
  expect_error([&] { store.remove(comm_, keyval_invalid); }, ErrorClass::keyval,
               {"classic::AttributeStore::remove", "keyval = -1"});
}

TEST_F(AttributesTest, RemoveWithNeverCreatedKeyvalIsKeyvalError) {
  AttributeStore store;
  expect_error([&] { store.remove(comm_, 1999999999); }, ErrorClass::keyval,
               {"classic::AttributeStore::remove", "keyval = 1999999999"});
}

TEST_F(AttributesTest, OverwriteDeletesTheOldValueExactlyOnce) {
  AttributeStore store;
  Calls calls;
  int keyval = counting_keyval(calls);
  store.set(comm_, keyval, slot(0));
  store.set(comm_, keyval, slot(1));
  EXPECT_EQ(calls.deletes, 1);
  EXPECT_EQ(calls.deleted_values, std::vector<void*>{slot(0)});
  EXPECT_EQ(calls.delete_comm_ids, std::vector<int>{1});
  EXPECT_EQ(store.get(keyval), std::optional<void*>(slot(1)));
  EXPECT_EQ(store.size(), 1u);
  store.delete_all(comm_);
  EXPECT_EQ(calls.deletes, 2);
  EXPECT_EQ(calls.deleted_values.back(), slot(1));
  comm_free_keyval(keyval);
}

TEST_F(AttributesTest, RemoveDeletesExactlyOnceAndASecondRemoveDoesNothing) {
  AttributeStore store;
  Calls calls;
  int keyval = counting_keyval(calls);
  store.set(comm_, keyval, slot(4));
  store.remove(comm_, keyval);
  EXPECT_EQ(calls.deletes, 1);
  EXPECT_EQ(calls.deleted_values, std::vector<void*>{slot(4)});
  EXPECT_EQ(calls.deleted_keyvals, std::vector<int>{keyval});
  EXPECT_EQ(store.get(keyval), std::nullopt);
  store.remove(comm_, keyval);  // absent: not an error, no callback
  EXPECT_EQ(calls.deletes, 1);
  comm_free_keyval(keyval);
}

TEST_F(AttributesTest, RemoveOfAttributeNeverSetRunsNoCallback) {
  AttributeStore store;
  Calls calls;
  int keyval = counting_keyval(calls);
  store.remove(comm_, keyval);
  EXPECT_EQ(calls.deletes, 0);
  comm_free_keyval(keyval);
}

// ---------------------------------------------------------------------------
// delete_all and order

TEST_F(AttributesTest, DeleteAllCallsEachDeleteOnceNewestFirst) {
  AttributeStore store;
  Calls calls;
  std::vector<int> order;
  global_delete_order = &order;
  std::vector<int> keyvals;
  for (int i = 0; i < 5; ++i) {
    keyvals.push_back(comm_create_keyval(nullptr, &ordered_delete, &calls));
  }
  // Set in a non-monotonic keyval order so "newest first" is not "largest
  // keyval first".
  const std::vector<int> set_order = {keyvals[2], keyvals[0], keyvals[4],
                                      keyvals[1], keyvals[3]};
  for (int keyval : set_order)
    store.set(other_comm_, keyval, slot(keyval % 16));
  EXPECT_EQ(store.keyvals(), set_order);
  store.delete_all(other_comm_);
  global_delete_order = nullptr;
  EXPECT_EQ(order, std::vector<int>(set_order.rbegin(), set_order.rend()));
  EXPECT_EQ(calls.deletes, 5);
  EXPECT_EQ(calls.delete_comm_ids, std::vector<int>(5, 2));
  EXPECT_TRUE(store.empty());
  store.delete_all(other_comm_);  // nothing left: no second call
  EXPECT_EQ(calls.deletes, 5);
  for (int& keyval : keyvals) comm_free_keyval(keyval);
}

TEST_F(AttributesTest, OverwriteMovesAnAttributeToTheEndOfTheOrder) {
  AttributeStore store;
  int a = comm_create_keyval(nullptr, nullptr, nullptr);
  int b = comm_create_keyval(nullptr, nullptr, nullptr);
  store.set(comm_, a, slot(0));
  store.set(comm_, b, slot(1));
  store.set(comm_, a, slot(2));
  EXPECT_EQ(store.keyvals(), (std::vector<int>{b, a}));
  store.delete_all(comm_);
  comm_free_keyval(a);
  comm_free_keyval(b);
}

// Oracle: a list model of "the order in which attributes were set".
TEST_F(AttributesTest, RandomSetRemoveSequencesKeepTheOrderOfSetting) {
  std::mt19937 random(20240605);
  Calls calls;
  std::vector<int> keyvals;
  for (int i = 0; i < 8; ++i) {
    keyvals.push_back(
        comm_create_keyval(&comm_dup_fn, &ordered_delete, &calls));
  }
  for (int round = 0; round < 200; ++round) {
    AttributeStore store;
    std::vector<int> model;
    for (int step = 0; step < 30; ++step) {
      const int keyval = keyvals[random() % keyvals.size()];
      std::erase(model, keyval);
      if (random() % 3 == 0) {
        store.remove(comm_, keyval);
      } else {
        store.set(comm_, keyval, slot(step % 16));
        model.push_back(keyval);
      }
      ASSERT_EQ(store.keyvals(), model);
    }
    AttributeStore duplicate = store.copy_for_dup(comm_);
    ASSERT_EQ(duplicate.keyvals(), model);
    duplicate.delete_all(other_comm_);
    std::vector<int> order;
    global_delete_order = &order;
    store.delete_all(comm_);
    global_delete_order = nullptr;
    ASSERT_EQ(order, std::vector<int>(model.rbegin(), model.rend()));
  }
  for (int& keyval : keyvals) comm_free_keyval(keyval);
}

// ---------------------------------------------------------------------------
// Freed keys with attributes still attached

TEST_F(AttributesTest, FreedKeyStaysUsableUntilItsLastAttributeGoes) {
  AttributeStore first, second;
  Calls calls;
  int keyval = counting_keyval(calls);
  const int stale = keyval;
  first.set(comm_, keyval, slot(0));
  second.set(other_comm_, keyval, slot(1));
  comm_free_keyval(keyval);
  EXPECT_EQ(keyval, keyval_invalid);
  EXPECT_EQ(live_keyval_count(), baseline_keyvals_ + 1);
  EXPECT_EQ(first.get(stale), std::optional<void*>(slot(0)));
  AttributeStore duplicate = first.copy_for_dup(comm_);  // copies normally
  EXPECT_EQ(calls.copies, 1);
  EXPECT_EQ(duplicate.get(stale), std::optional<void*>(slot(0)));
  first.delete_all(comm_);
  second.remove(other_comm_, stale);
  EXPECT_EQ(calls.deletes, 2);
  EXPECT_EQ(live_keyval_count(), baseline_keyvals_ + 1);  // duplicate holds it
  duplicate.delete_all(comm_);
  EXPECT_EQ(calls.deletes, 3);
  EXPECT_EQ(live_keyval_count(), baseline_keyvals_);  // reclaimed
  expect_error([&] { (void)first.get(stale); }, ErrorClass::keyval,
               {"names no key"});
  expect_error([&] { first.remove(comm_, stale); }, ErrorClass::keyval,
               {"names no key"});
}

// ---------------------------------------------------------------------------
// Store lifetime

TEST_F(AttributesTest, DestructorGivesBackKeysWithoutCallbacks) {
  Calls calls;
  int keyval = counting_keyval(calls);
  const int stale = keyval;
  {
    AttributeStore store;
    store.set(comm_, keyval, slot(0));
    comm_free_keyval(keyval);
  }
  EXPECT_EQ(calls.deletes, 0);
  EXPECT_EQ(live_keyval_count(), baseline_keyvals_);
  AttributeStore store;
  expect_error_class([&] { (void)store.get(stale); }, ErrorClass::keyval);
}

TEST_F(AttributesTest, MoveTransfersAttributesAndEmptiesTheSource) {
  Calls calls;
  int keyval = counting_keyval(calls);
  AttributeStore source;
  source.set(comm_, keyval, slot(0));
  AttributeStore moved(std::move(source));
  EXPECT_TRUE(source.empty());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(moved.get(keyval), std::optional<void*>(slot(0)));
  AttributeStore assigned;
  assigned = std::move(moved);
  EXPECT_EQ(assigned.get(keyval), std::optional<void*>(slot(0)));
  assigned.delete_all(comm_);
  EXPECT_EQ(calls.deletes, 1);
  comm_free_keyval(keyval);
}

}  // namespace
}  // namespace classic::attributes_testing
