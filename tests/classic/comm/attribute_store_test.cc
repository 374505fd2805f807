// Tests of classic keyvals, AttributeStore and Keyval<T> against MPI-1
// section 5.7 and the MPI-2 caching functions (seeds 000 and 004). MPI-free:
// a stand-in Comm carries only an id, so callbacks can tell which
// communicator they were given.
#include "classic/comm/attributes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/keyval.h"
#include "classic/comm/typed_keyval.h"
#include "tests/testing/errors.h"

namespace classic {
// Stand-in for the real communicator, which does not exist yet.
class Comm {
 public:
  int id;
};
}  // namespace classic

namespace classic {
namespace {

using orthocomm_test::expect_error;
using orthocomm_test::expect_error_class;

// ---------------------------------------------------------------------------
// Helpers

// Records every callback call; extra_state of the counting keyvals.
struct Calls {
  int copies = 0;
  int deletes = 0;
  int fail_copy = 0;    // returned by the copy callback when nonzero
  int fail_delete = 0;  // returned by the delete callback
  bool copy_flag = true;
  std::vector<int> copy_comm_ids;
  std::vector<int> delete_comm_ids;
  std::vector<int> deleted_keyvals;
  std::vector<void*> deleted_values;
};

Calls& calls_of(void* extra_state) { return *static_cast<Calls*>(extra_state); }

int counting_copy(const Comm& oldcomm, int /*keyval*/, void* extra_state,
                  void* attribute_val_in, void** attribute_val_out,
                  bool* flag) {
  Calls& calls = calls_of(extra_state);
  ++calls.copies;
  calls.copy_comm_ids.push_back(oldcomm.id);
  if (calls.fail_copy != 0) return calls.fail_copy;
  *attribute_val_out = attribute_val_in;
  *flag = calls.copy_flag;
  return 0;
}

int counting_delete(const Comm& comm, int keyval, void* attribute_val,
                    void* extra_state) {
  Calls& calls = calls_of(extra_state);
  ++calls.deletes;
  calls.delete_comm_ids.push_back(comm.id);
  calls.deleted_keyvals.push_back(keyval);
  calls.deleted_values.push_back(attribute_val);
  return calls.fail_delete;
}

// Also records the order of delete calls across keyvals.
std::vector<int>* global_delete_order = nullptr;

int ordered_delete(const Comm& comm, int keyval, void* attribute_val,
                   void* extra_state) {
  if (global_delete_order != nullptr) global_delete_order->push_back(keyval);
  return counting_delete(comm, keyval, attribute_val, extra_state);
}

// A value that counts its live instances; its copy constructor can be told
// to throw after a number of copies.
struct Tracked {
  static int live;
  static int copies_until_throw;  // negative: never throw

  explicit Tracked(int v) : value(v) { ++live; }
  Tracked(const Tracked& other) : value(other.value) {
    if (copies_until_throw == 0) throw std::runtime_error("copy refused");
    if (copies_until_throw > 0) --copies_until_throw;
    ++live;
  }
  Tracked& operator=(const Tracked&) = default;
  ~Tracked() { --live; }

  int value;
};
int Tracked::live = 0;
int Tracked::copies_until_throw = -1;

// Raw callbacks that own heap Tracked values; extra_state is a Calls.
int tracked_copy(const Comm& oldcomm, int keyval, void* extra_state,
                 void* attribute_val_in, void** attribute_val_out, bool* flag) {
  void* unused = nullptr;
  const int code = counting_copy(oldcomm, keyval, extra_state, attribute_val_in,
                                 &unused, flag);
  if (code != 0) return code;
  *attribute_val_out = new Tracked(*static_cast<Tracked*>(attribute_val_in));
  return 0;
}

int tracked_delete(const Comm& comm, int keyval, void* attribute_val,
                   void* extra_state) {
  const int code = counting_delete(comm, keyval, attribute_val, extra_state);
  if (code == 0) delete static_cast<Tracked*>(attribute_val);
  return code;
}

int always_fail_copy(const Comm&, int, void*, void*, void**, bool*) {
  return 3;
}

int throwing_copy(const Comm&, int, void*, void*, void**, bool*) {
  throw std::runtime_error("copy callback threw");
}

int value_slots[16];  // distinct addresses to store as attribute values
void* slot(int i) { return &value_slots[i]; }

// Every test must leave no key and no Tracked value behind.
class AttributesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    baseline_keyvals_ = live_keyval_count();
    Tracked::live = 0;
    Tracked::copies_until_throw = -1;
  }
  void TearDown() override {
    EXPECT_EQ(live_keyval_count(), baseline_keyvals_) << "a key leaked";
    EXPECT_EQ(Tracked::live, 0) << "a value leaked";
  }

  int counting_keyval(Calls& calls) {
    return comm_create_keyval(&counting_copy, &counting_delete, &calls);
  }

  std::size_t baseline_keyvals_ = 0;
  Comm comm_{1};
  Comm other_comm_{2};
};

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

// ---------------------------------------------------------------------------
// The attributes example of MPI-1 section 5.7.2, on this API. The seed's
// copier only bumps the reference count (its MPI-2 version assigns a local);
// per the MPI-2 text it must also return the value and set flag, as here.

struct GopStuff {
  int ref_count;  // reference count
  // other stuff, whatever else we want
};

int gop_key = keyval_invalid;  // key for this module's stuff
int gop_allocations = 0;
int gop_live = 0;

int gop_stuff_destructor(const Comm&, int keyval, void* attribute_val, void*) {
  if (keyval != gop_key) return 1;  // programming error
  auto* gop_stuff = static_cast<GopStuff*>(attribute_val);
  // The communicator's being freed removes one reference to gop_stuff.
  gop_stuff->ref_count -= 1;
  if (gop_stuff->ref_count == 0) {
    delete gop_stuff;
    --gop_live;
  }
  return 0;
}

int gop_stuff_copier(const Comm&, int keyval, void*, void* attribute_val_in,
                     void** attribute_val_out, bool* flag) {
  if (keyval != gop_key) return 1;  // programming error
  // The new communicator adds one reference to this gop_stuff.
  static_cast<GopStuff*>(attribute_val_in)->ref_count += 1;
  *attribute_val_out = attribute_val_in;
  *flag = true;
  return 0;
}

GopStuff* efficient_collective_op(const Comm& comm, AttributeStore& cache) {
  if (gop_key == keyval_invalid) {  // get a key on first call ever
    gop_key =
        comm_create_keyval(&gop_stuff_copier, &gop_stuff_destructor, nullptr);
  }
  if (std::optional<void*> found = cache.get(gop_key)) {
    // This module has executed in this group before: use the cached data.
    return static_cast<GopStuff*>(*found);
  }
  // A group we have not cached anything in yet.
  auto* gop_stuff = new GopStuff{1};
  ++gop_allocations;
  ++gop_live;
  cache.set(comm, gop_key, gop_stuff);
  return gop_stuff;
}

TEST_F(AttributesTest, AttributesExampleOfSection572) {
  gop_key = keyval_invalid;
  gop_allocations = 0;
  gop_live = 0;
  AttributeStore world_cache;
  GopStuff* first = efficient_collective_op(comm_, world_cache);
  EXPECT_NE(gop_key, keyval_invalid);
  GopStuff* again = efficient_collective_op(comm_, world_cache);
  EXPECT_EQ(again, first);  // cached after the first call
  EXPECT_EQ(gop_allocations, 1);

  Comm dup_comm{3};
  AttributeStore dup_cache = world_cache.copy_for_dup(comm_);
  EXPECT_EQ(efficient_collective_op(dup_comm, dup_cache), first);  // shared
  EXPECT_EQ(first->ref_count, 2);
  EXPECT_EQ(gop_allocations, 1);

  AttributeStore other_cache;  // an unrelated communicator
  GopStuff* other = efficient_collective_op(other_comm_, other_cache);
  EXPECT_NE(other, first);
  EXPECT_EQ(gop_allocations, 2);

  dup_cache.delete_all(dup_comm);  // freeing the dup drops one reference
  EXPECT_EQ(first->ref_count, 1);
  EXPECT_EQ(gop_live, 2);
  world_cache.delete_all(comm_);
  other_cache.delete_all(other_comm_);
  EXPECT_EQ(gop_live, 0);
  comm_free_keyval(gop_key);
  EXPECT_EQ(gop_key, keyval_invalid);
}

// ---------------------------------------------------------------------------
// Keyval<T>, on a stand-in communicator that embeds a store as Comm will.

class FakeComm {
 public:
  explicit FakeComm(int id) : comm_{id} {}
  FakeComm(FakeComm&&) = default;
  ~FakeComm() {
    try {
      attributes_.delete_all(comm_);
    } catch (const Error&) {
      ADD_FAILURE() << "a delete callback failed";
    }
  }

  void set_attr(int keyval, void* value) {
    attributes_.set(comm_, keyval, value);
  }
  std::optional<void*> get_attr(int keyval) const {
    return attributes_.get(keyval);
  }
  void delete_attr(int keyval) { attributes_.remove(comm_, keyval); }

  FakeComm dup(int id) const {
    FakeComm duplicate(id);
    duplicate.attributes_ = attributes_.copy_for_dup(comm_);
    return duplicate;
  }

  const AttributeStore& attributes() const { return attributes_; }

 private:
  Comm comm_;
  AttributeStore attributes_;
};

static_assert(AttributeHolder<FakeComm>);
static_assert(!std::is_copy_constructible_v<Keyval<int>>);
static_assert(std::is_nothrow_move_constructible_v<Keyval<int>>);
static_assert(!std::is_default_constructible_v<Keyval<std::unique_ptr<int>>>);

TEST_F(AttributesTest, TypedSetGetRemove) {
  Keyval<std::string> name;
  FakeComm comm(1);
  EXPECT_EQ(name.get(comm), nullptr);
  name.set(comm, "grid");
  ASSERT_NE(name.get(comm), nullptr);
  EXPECT_EQ(*name.get(comm), "grid");
  name.get(comm)->append("-2d");  // the communicator owns a mutable value
  const FakeComm& const_comm = comm;
  EXPECT_EQ(*name.get(const_comm), "grid-2d");
  name.remove(comm);
  EXPECT_EQ(name.get(comm), nullptr);
  name.remove(comm);  // absent: nothing happens
}

TEST_F(AttributesTest, TypedValuesAreDestroyedOnOverwriteRemoveAndFree) {
  Keyval<Tracked> keyval;
  {
    FakeComm comm(1);
    keyval.set(comm, Tracked(1));
    EXPECT_EQ(Tracked::live, 1);
    keyval.set(comm, Tracked(2));
    EXPECT_EQ(Tracked::live, 1);
    EXPECT_EQ(keyval.get(comm)->value, 2);
    keyval.remove(comm);
    EXPECT_EQ(Tracked::live, 0);
    keyval.set(comm, Tracked(3));
  }  // freeing the communicator destroys the value
  EXPECT_EQ(Tracked::live, 0);
}

TEST_F(AttributesTest, TypedDupCopiesThroughTheCopyConstructor) {
  Keyval<Tracked> copied;
  Keyval<Tracked> dropped(OnDup::drop);
  FakeComm comm(1);
  copied.set(comm, Tracked(7));
  dropped.set(comm, Tracked(8));
  FakeComm duplicate = comm.dup(2);
  ASSERT_NE(copied.get(duplicate), nullptr);
  EXPECT_NE(copied.get(duplicate), copied.get(comm));  // a distinct object
  EXPECT_EQ(copied.get(duplicate)->value, 7);
  EXPECT_EQ(dropped.get(duplicate), nullptr);
  EXPECT_EQ(Tracked::live, 3);
  copied.get(duplicate)->value = 70;
  EXPECT_EQ(copied.get(comm)->value, 7);
}

TEST_F(AttributesTest, TypedCopyConstructorThatThrowsFailsDupWithoutLeaks) {
  Keyval<Tracked> a, b, c;
  FakeComm comm(1);
  a.set(comm, Tracked(1));
  b.set(comm, Tracked(2));
  c.set(comm, Tracked(3));
  Tracked::copies_until_throw = 1;  // a copies, b throws
  expect_error([&] { (void)comm.dup(2); }, ErrorClass::other,
               {"classic::AttributeStore::copy_for_dup",
                "keyval = " + std::to_string(b.keyval())});
  Tracked::copies_until_throw = -1;
  EXPECT_EQ(Tracked::live, 3);
  EXPECT_EQ(comm.attributes().size(), 3u);
}

TEST_F(AttributesTest, TypedSetThatFailsDestroysItsValue) {
  FakeComm comm(1);
  Keyval<Tracked> moved_from;
  Keyval<Tracked> taker(std::move(moved_from));
  expect_error([&] { moved_from.set(comm, Tracked(1)); }, ErrorClass::keyval,
               {"keyval = -1"});
  EXPECT_EQ(Tracked::live, 0);
}

TEST_F(AttributesTest, TypedKeyvalIsFreedByItsDestructor) {
  int raw = keyval_invalid;
  {
    Keyval<int> keyval;
    raw = keyval.keyval();
    EXPECT_EQ(live_keyval_count(), baseline_keyvals_ + 1);
  }
  EXPECT_EQ(live_keyval_count(), baseline_keyvals_);
  AttributeStore store;
  expect_error_class([&] { (void)store.get(raw); }, ErrorClass::keyval);
}

TEST_F(AttributesTest, TypedAttributesOutliveTheirKeyvalObject) {
  FakeComm comm(1);
  std::optional<FakeComm> duplicate;
  int raw = keyval_invalid;
  {
    Keyval<Tracked> keyval;
    raw = keyval.keyval();
    keyval.set(comm, Tracked(5));
  }  // key freed, attribute still attached
  EXPECT_EQ(Tracked::live, 1);
  EXPECT_EQ(static_cast<Tracked*>(*comm.get_attr(raw))->value, 5);
  duplicate.emplace(comm.dup(2));  // still copied on dup
  EXPECT_EQ(Tracked::live, 2);
  comm.delete_attr(raw);
  EXPECT_EQ(Tracked::live, 1);
  duplicate.reset();  // the last attribute goes: key reclaimed
  EXPECT_EQ(Tracked::live, 0);
  EXPECT_EQ(live_keyval_count(), baseline_keyvals_);
}

TEST_F(AttributesTest, TypedKeyvalMoves) {
  Keyval<int> first;
  const int raw = first.keyval();
  Keyval<int> second(std::move(first));
  EXPECT_EQ(first.keyval(), keyval_invalid);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(second.keyval(), raw);
  FakeComm comm(1);
  second.set(comm, 11);
  expect_error([&] { (void)first.get(comm); }, ErrorClass::keyval,
               {"keyval = -1"});
  Keyval<int> third;
  third = std::move(second);  // frees third's own key
  EXPECT_EQ(third.keyval(), raw);
  EXPECT_EQ(*third.get(comm), 11);
  EXPECT_EQ(live_keyval_count(), baseline_keyvals_ + 1);
}

TEST_F(AttributesTest, TypedMoveOnlyValuesNeedOnDupDrop) {
  const std::size_t before = live_keyval_count();
  expect_error([] { Keyval<std::unique_ptr<int>> keyval(OnDup::copy); },
               ErrorClass::arg, {"classic::Keyval::Keyval", "OnDup::copy"});
  EXPECT_EQ(live_keyval_count(), before);  // no key was created
  Keyval<std::unique_ptr<int>> keyval(OnDup::drop);
  FakeComm comm(1);
  keyval.set(comm, std::make_unique<int>(9));
  EXPECT_EQ(**keyval.get(comm), 9);
  FakeComm duplicate = comm.dup(2);
  EXPECT_EQ(keyval.get(duplicate), nullptr);
}

TEST_F(AttributesTest, TypedAndRawInterfacesShareTheKey) {
  Keyval<int> keyval;
  FakeComm comm(1);
  keyval.set(comm, 4);
  std::optional<void*> raw = comm.get_attr(keyval.keyval());
  ASSERT_TRUE(raw.has_value());
  EXPECT_EQ(*static_cast<int*>(*raw), 4);
}

}  // namespace
}  // namespace classic
