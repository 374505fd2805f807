// Tests of attribute caching on real classic communicators (MPI-1 section
// 5.7): attributes on world and self, copy callbacks on dup (and
// the agreement when one fails on some processes), delete callbacks on free
// and on the last handle, the section 5.7.2 attributes example, and the
// typed classic::Keyval<T>.
#include <gtest/gtest.h>
#include <mpi.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/comm/keyval.h"
#include "classic/comm/typed_keyval.h"
#include "classic/groups/group.h"
#include "tests/classic/testing/testing.h"

namespace classic {
namespace {

using testing::thrown_class;
using testing::world_rank;
using testing::world_size;

// ---- counting callbacks --------------------------------------------------

// A heap value with a live-instance count, so tests can see leaks.
struct Counted {
  static int live;
  int value;
  explicit Counted(int v) : value(v) { ++live; }
  Counted(const Counted& other) : value(other.value) { ++live; }
  Counted& operator=(const Counted&) = default;
  ~Counted() { --live; }
};
int Counted::live = 0;

// extra_state of the counting keyvals: what the callbacks saw and do.
struct Calls {
  int copies = 0;
  int deletes = 0;
  int fail_copy_on_world_rank = -1;  // copy returns 1 there
  bool throw_instead = false;        // ... or throws a non-classic exception
  bool copy_flag = true;
  int fail_delete = 0;                   // returned by delete
  std::vector<Comparison> copy_comm_vs;  // oldcomm compared with `watched`
  std::vector<int> delete_comm_sizes;
  Comm watched;
};

Calls& calls_of(void* extra_state) { return *static_cast<Calls*>(extra_state); }

// Copies a Counted into a new one (a deep copy), unless told to fail.
int counted_copy(const Comm& oldcomm, int /*keyval*/, void* extra_state,
                 void* attribute_val_in, void** attribute_val_out, bool* flag) {
  Calls& calls = calls_of(extra_state);
  ++calls.copies;
  if (!calls.watched.is_null()) {
    calls.copy_comm_vs.push_back(oldcomm.compare(calls.watched));
  }
  if (calls.fail_copy_on_world_rank == world_rank()) {
    if (calls.throw_instead) throw std::runtime_error("copy callback threw");
    return 1;
  }
  if (calls.copy_flag) {
    *attribute_val_out = new Counted(*static_cast<Counted*>(attribute_val_in));
  }
  *flag = calls.copy_flag;
  return 0;
}

int counted_delete(const Comm& comm, int /*keyval*/, void* attribute_val,
                   void* extra_state) {
  Calls& calls = calls_of(extra_state);
  ++calls.deletes;
  calls.delete_comm_sizes.push_back(comm.size());
  if (calls.fail_delete != 0) return calls.fail_delete;
  delete static_cast<Counted*>(attribute_val);
  return 0;
}

// A keyval with the counting callbacks; freed when the test ends.
class CountingKey {
 public:
  CountingKey()
      : keyval_(comm_create_keyval(&counted_copy, &counted_delete, &calls_)) {}
  ~CountingKey() {
    if (keyval_ != keyval_invalid) comm_free_keyval(keyval_);
  }
  CountingKey(const CountingKey&) = delete;
  CountingKey& operator=(const CountingKey&) = delete;
  int keyval() const { return keyval_; }
  Calls& calls() { return calls_; }

 private:
  Calls calls_;
  int keyval_;
};

// Live objects before a test; the test checks nothing is left over.
// World and self are made on first use and stay, so they are made first.
struct Census {
  bool predefined_made = !Comm::world().is_null() && !Comm::self().is_null();
  std::size_t comms = Comm::live_count();
  std::size_t keyvals = live_keyval_count();
  int values = Counted::live;
};

void expect_back_to(const Census& before) {
  EXPECT_EQ(Comm::live_count(), before.comms);
  EXPECT_EQ(live_keyval_count(), before.keyvals);
  EXPECT_EQ(Counted::live, before.values);
}

// ---- attributes on world and self ----------------------------------------

void expect_set_get_delete(Comm comm) {
  CountingKey key;
  EXPECT_EQ(comm.get_attr(key.keyval()), std::nullopt);
  auto* value = new Counted(world_rank());
  comm.set_attr(key.keyval(), value);
  EXPECT_EQ(comm.get_attr(key.keyval()), std::optional<void*>(value));
  // Another handle of the same communicator sees the same attribute.
  EXPECT_EQ(Comm(comm).get_attr(key.keyval()), std::optional<void*>(value));
  comm.delete_attr(key.keyval());
  EXPECT_EQ(key.calls().deletes, 1);
  EXPECT_EQ(comm.get_attr(key.keyval()), std::nullopt);
  comm.delete_attr(key.keyval());  // absent: nothing happens
  EXPECT_EQ(key.calls().deletes, 1);
}

TEST(CommAttributesTest, SetGetDeleteOnWorld) {
  const Census before;
  expect_set_get_delete(Comm::world());
  expect_back_to(before);
}

TEST(CommAttributesTest, SetGetDeleteOnSelf) {
  const Census before;
  expect_set_get_delete(Comm::self());
  expect_back_to(before);
}

TEST(CommAttributesTest, WorldAndSelfKeepSeparateAttributes) {
  int on_world = 1;
  int on_self = 2;
  int keyval = comm_create_keyval(nullptr, nullptr, nullptr);
  Comm world = Comm::world();
  Comm self = Comm::self();
  world.set_attr(keyval, &on_world);
  self.set_attr(keyval, &on_self);
  EXPECT_EQ(world.get_attr(keyval), std::optional<void*>(&on_world));
  EXPECT_EQ(self.get_attr(keyval), std::optional<void*>(&on_self));
  world.delete_attr(keyval);
  EXPECT_EQ(self.get_attr(keyval), std::optional<void*>(&on_self));
  self.delete_attr(keyval);
  comm_free_keyval(keyval);
}

TEST(CommAttributesTest, OverwriteRunsTheDeleteCallbackOnce) {
  const Census before;
  {
    CountingKey key;
    Comm world = Comm::world();
    world.set_attr(key.keyval(), new Counted(1));
    world.set_attr(key.keyval(), new Counted(2));
    EXPECT_EQ(key.calls().deletes, 1);
    EXPECT_EQ(static_cast<Counted*>(*world.get_attr(key.keyval()))->value, 2);
    world.delete_attr(key.keyval());
  }
  expect_back_to(before);
}

// ---- dup: copy callbacks -------------------------------------------------

TEST(CommAttributesTest, DupCopiesAttributesThroughTheirCopyCallbacks) {
  const Census before;
  {
    CountingKey deep;  // copy callback makes a new value
    const int shared = comm_create_keyval(dup_fn, nullptr, nullptr);
    const int dropped = comm_create_keyval(null_copy_fn, nullptr, nullptr);
    const int defaulted = comm_create_keyval(nullptr, nullptr, nullptr);
    int shared_value = 7;
    Comm original = Comm::world().dup();
    deep.calls().watched = original;
    original.set_attr(deep.keyval(), new Counted(42));
    original.set_attr(shared, &shared_value);
    original.set_attr(dropped, &shared_value);
    original.set_attr(defaulted, &shared_value);

    Comm copy = original.dup();
    // The copy callback ran once, with the original as oldcomm.
    EXPECT_EQ(deep.calls().copies, 1);
    EXPECT_EQ(deep.calls().copy_comm_vs,
              std::vector<Comparison>{Comparison::identical});
    auto* copied = static_cast<Counted*>(*copy.get_attr(deep.keyval()));
    EXPECT_NE(copied, *original.get_attr(deep.keyval()));
    EXPECT_EQ(copied->value, 42);
    EXPECT_EQ(copy.get_attr(shared), std::optional<void*>(&shared_value));
    EXPECT_EQ(copy.get_attr(dropped), std::nullopt);
    EXPECT_EQ(copy.get_attr(defaulted), std::nullopt);  // null copy = drop
    // The two communicators' attributes are independent from here on.
    copy.delete_attr(shared);
    EXPECT_EQ(original.get_attr(shared), std::optional<void*>(&shared_value));

    deep.calls().watched = Comm();
    copy.free();
    original.free();
    EXPECT_EQ(deep.calls().deletes, 2);
    for (int keyval : {shared, dropped, defaulted}) {
      int k = keyval;
      comm_free_keyval(k);
    }
  }
  expect_back_to(before);
}

// MPI-1 5.7.1: flag = 0 means "not in the duplicate", whatever the callback
// wrote to attribute_val_out.
TEST(CommAttributesTest, DupLeavesOutAttributesWhoseCopyClearsFlag) {
  const Census before;
  {
    CountingKey key;
    key.calls().copy_flag = false;
    Comm original = Comm::world().dup();
    original.set_attr(key.keyval(), new Counted(3));
    Comm copy = original.dup();
    EXPECT_EQ(key.calls().copies, 1);
    EXPECT_EQ(copy.get_attr(key.keyval()), std::nullopt);
    copy.free();
    EXPECT_EQ(key.calls().deletes, 0);
    original.free();
    EXPECT_EQ(key.calls().deletes, 1);
  }
  expect_back_to(before);
}

TEST(CommAttributesTest, DupOfWorldCopiesWorldsAttributes) {
  const Census before;
  {
    CountingKey key;
    Comm world = Comm::world();
    world.set_attr(key.keyval(), new Counted(world_rank()));
    Comm copy = world.dup();
    EXPECT_EQ(static_cast<Counted*>(*copy.get_attr(key.keyval()))->value,
              world_rank());
    copy.free();
    world.delete_attr(key.keyval());
    EXPECT_EQ(key.calls().deletes, 2);
  }
  expect_back_to(before);
}

TEST(CommAttributesTest, CreateAndSplitCopyNoAttributes) {
  const Census before;
  {
    CountingKey key;
    Comm world = Comm::world();
    world.set_attr(key.keyval(), new Counted(1));
    Comm created = world.create(world.group());
    Comm split = world.split(0, 0);
    EXPECT_EQ(created.get_attr(key.keyval()), std::nullopt);
    EXPECT_EQ(split.get_attr(key.keyval()), std::nullopt);
    EXPECT_EQ(key.calls().copies, 0);
    created.free();
    split.free();
    world.delete_attr(key.keyval());
  }
  expect_back_to(before);
}

// ---- dup: a copy callback that fails on one process ----------------------

// Two attributes, the failing one in the middle; the copy fails on the
// last process only. Every process must throw, and nothing may leak: the
// attributes copied before (or, elsewhere, all of them) are deleted.
void expect_dup_fails_everywhere(bool throw_instead) {
  const Census before;
  {
    CountingKey first;
    CountingKey failing;
    CountingKey last;
    failing.calls().fail_copy_on_world_rank = world_size() - 1;
    failing.calls().throw_instead = throw_instead;
    Comm original = Comm::world().dup();
    original.set_attr(first.keyval(), new Counted(1));
    original.set_attr(failing.keyval(), new Counted(2));
    original.set_attr(last.keyval(), new Counted(3));
    const std::size_t comms = Comm::live_count();
    const int values = Counted::live;

    bool threw_error = false;
    bool threw_other = false;
    try {
      Comm copy = original.dup();
    } catch (const Error& error) {
      threw_error = true;
      EXPECT_EQ(error.error_class(), ErrorClass::other) << error.what();
    } catch (const std::runtime_error&) {
      threw_other = true;
    }
    const bool failing_here = world_rank() == world_size() - 1;
    if (throw_instead && failing_here) {
      EXPECT_TRUE(threw_other) << "the callback's own exception propagates";
    } else {
      EXPECT_TRUE(threw_error) << "dup must fail on every process";
    }
    EXPECT_EQ(Comm::live_count(), comms);
    EXPECT_EQ(Counted::live, values);
    // Each copied value was deleted exactly once.
    EXPECT_EQ(first.calls().deletes, first.calls().copies);
    EXPECT_EQ(last.calls().deletes, last.calls().copies);
    EXPECT_EQ(failing.calls().deletes,
              failing_here ? 0 : failing.calls().copies);
    // The original is intact, and dups once the callback stops failing.
    EXPECT_EQ(original.get_attr(first.keyval()).has_value(), true);
    failing.calls().fail_copy_on_world_rank = -1;
    Comm again = original.dup();
    EXPECT_TRUE(again.get_attr(failing.keyval()).has_value());
    again.free();
    original.free();
  }
  expect_back_to(before);
}

TEST(CommAttributesTest, CopyCallbackFailingOnOneProcessFailsDupEverywhere) {
  expect_dup_fails_everywhere(false);
}

TEST(CommAttributesTest, CopyCallbackThrowingOnOneProcessFailsDupEverywhere) {
  expect_dup_fails_everywhere(true);
}

// Frees the value; reports failure unless `comm` is the home communicator,
// so that only the copies on a duplicate fail to delete.
const Comm* stubborn_home = nullptr;

int delete_failing_elsewhere(const Comm& comm, int /*keyval*/,
                             void* attribute_val, void* /*extra_state*/) {
  delete static_cast<Counted*>(attribute_val);
  return stubborn_home != nullptr && comm == *stubborn_home ? 0 : 1;
}

int copy_counted(const Comm& /*oldcomm*/, int /*keyval*/, void* /*extra*/,
                 void* attribute_val_in, void** attribute_val_out, bool* flag) {
  *attribute_val_out = new Counted(*static_cast<Counted*>(attribute_val_in));
  *flag = true;
  return 0;
}

// Discarding the failed duplicate runs delete callbacks; one that fails
// there cannot keep the duplicate alive or stop dup from failing everywhere.
TEST(CommAttributesTest, FailingDeleteWhileDiscardingAFailedDup) {
  const Census before;
  {
    int stubborn =
        comm_create_keyval(&copy_counted, &delete_failing_elsewhere, nullptr);
    CountingKey failing;
    failing.calls().fail_copy_on_world_rank = world_size() - 1;
    Comm original = Comm::world().dup();
    stubborn_home = &original;
    original.set_attr(stubborn, new Counted(1));
    original.set_attr(failing.keyval(), new Counted(2));
    const std::size_t comms = Comm::live_count();
    EXPECT_EQ(thrown_class([&] { (void)original.dup(); }), ErrorClass::other);
    EXPECT_EQ(Comm::live_count(), comms);
    EXPECT_EQ(Counted::live, before.values + 2);  // the original's two
    original.free();
    stubborn_home = nullptr;
    comm_free_keyval(stubborn);
  }
  expect_back_to(before);
}

// ---- free: delete callbacks ----------------------------------------------

TEST(CommAttributesTest, FreeRunsEachDeleteCallbackExactlyOnce) {
  const Census before;
  {
    CountingKey key;
    Comm comm = Comm::world().dup();
    Comm copy = comm;
    comm.set_attr(key.keyval(), new Counted(1));
    comm.free();
    EXPECT_EQ(key.calls().deletes, 1);
    EXPECT_EQ(key.calls().delete_comm_sizes, std::vector<int>{world_size()});
    EXPECT_EQ(thrown_class([&] { (void)copy.get_attr(key.keyval()); }),
              ErrorClass::comm);
    copy = Comm();  // the last handle goes: nothing more runs
    EXPECT_EQ(key.calls().deletes, 1);
  }
  expect_back_to(before);
}

TEST(CommAttributesTest, LastHandleGoneRunsEachDeleteCallbackExactlyOnce) {
  const Census before;
  {
    CountingKey key;
    {
      Comm comm = Comm::world().dup();
      comm.set_attr(key.keyval(), new Counted(1));
      std::vector<Comm> copies(5, comm);
      copies.clear();
      EXPECT_EQ(key.calls().deletes, 0);
    }
    EXPECT_EQ(key.calls().deletes, 1);
  }
  expect_back_to(before);
}

TEST(CommAttributesTest, FailingDeleteCallbackKeepsTheCommunicator) {
  const Census before;
  {
    CountingKey key;
    Comm comm = Comm::world().dup();
    comm.set_attr(key.keyval(), new Counted(1));
    key.calls().fail_delete = 5;
    EXPECT_EQ(thrown_class([&] { comm.free(); }), ErrorClass::other);
    EXPECT_FALSE(comm.is_null());
    EXPECT_TRUE(comm.get_attr(key.keyval()).has_value());
    key.calls().fail_delete = 0;
    comm.free();
    EXPECT_EQ(key.calls().deletes, 2);
  }
  expect_back_to(before);
}

// A key freed while attributes hold it keeps working for them (5.7.1).
TEST(CommAttributesTest, FreedKeyStaysValidForAttachedAttributes) {
  const Census before;
  {
    Calls calls;
    int keyval = comm_create_keyval(&counted_copy, &counted_delete, &calls);
    const int held = keyval;
    Comm comm = Comm::world().dup();
    comm.set_attr(keyval, new Counted(1));
    comm_free_keyval(keyval);
    EXPECT_EQ(keyval, keyval_invalid);
    EXPECT_TRUE(comm.get_attr(held).has_value());
    Comm copy = comm.dup();  // copied through the freed key's callback
    EXPECT_EQ(calls.copies, 1);
    copy.free();
    comm.free();
    EXPECT_EQ(calls.deletes, 2);
  }
  expect_back_to(before);
}

// ---- rejected inputs -----------------------------------------------------

TEST(CommAttributesTest, SetAttrWithKeyvalInvalidRaisesKeyval) {
  int value = 0;
  EXPECT_EQ(
      thrown_class([&] { Comm::world().set_attr(keyval_invalid, &value); }),
      ErrorClass::keyval);
}

TEST(CommAttributesTest, GetAttrWithKeyvalInvalidRaisesKeyval) {
  EXPECT_EQ(thrown_class([] { (void)Comm::world().get_attr(keyval_invalid); }),
            ErrorClass::keyval);
}

TEST(CommAttributesTest, DeleteAttrWithKeyvalInvalidRaisesKeyval) {
  EXPECT_EQ(thrown_class([] { Comm::self().delete_attr(keyval_invalid); }),
            ErrorClass::keyval);
}

TEST(CommAttributesTest, SetAttrWithAFreedKeyRaisesKeyval) {
  int keyval = comm_create_keyval(nullptr, nullptr, nullptr);
  const int stale = keyval;
  comm_free_keyval(keyval);
  int value = 0;
  EXPECT_EQ(thrown_class([&] { Comm::world().set_attr(stale, &value); }),
            ErrorClass::keyval);
}

TEST(CommAttributesTest, SetAttrOnTheNullCommunicatorRaisesComm) {
  int keyval = comm_create_keyval(nullptr, nullptr, nullptr);
  int value = 0;
  EXPECT_EQ(thrown_class([&] { Comm().set_attr(keyval, &value); }),
            ErrorClass::comm);
  comm_free_keyval(keyval);
}

// ---- MPI-1.1, section 5.7.2: the attributes example ---------------------

// A collective operation that caches what it computed on the first call on
// a communicator, shared (reference counted) by the communicator's dups.
struct GopStuff {
  int ref_count = 0;
  int group_sum = 0;  // "other stuff": here the sum of the world ranks
};

int gop_key = keyval_invalid;  // key for this module's stuff
int gop_stuff_live = 0;
int gop_keys_created = 0;
int gop_computations = 0;

// Called when a communicator is freed (or the attribute deleted).
int gop_stuff_destructor(const Comm& /*comm*/, int keyval, void* attribute_val,
                         void* /*extra*/) {
  if (keyval != gop_key) return 1;  // programming error
  auto* gop_stuff = static_cast<GopStuff*>(attribute_val);
  // The communicator's being freed removes one reference to gop_stuff.
  gop_stuff->ref_count -= 1;
  if (gop_stuff->ref_count == 0) {  // no references remain
    delete gop_stuff;
    --gop_stuff_live;
  }
  return 0;
}

// Called when a communicator is duplicated: the copy shares the stuff.
int gop_stuff_copier(const Comm& /*comm*/, int keyval, void* /*extra*/,
                     void* attribute_val_in, void** attribute_val_out,
                     bool* flag) {
  if (keyval != gop_key) return 1;  // programming error
  auto* gop_stuff = static_cast<GopStuff*>(attribute_val_in);
  gop_stuff->ref_count += 1;  // the new communicator adds one reference
  *attribute_val_out = gop_stuff;
  *flag = true;
  return 0;
}

// Efficient_Collective_Op: returns the cached sum of the members' world
// ranks, computing it (collectively) on the first call on `comm` only.
int efficient_collective_op(Comm& comm) {
  if (gop_key == keyval_invalid) {  // get a key on first call ever
    gop_key = keyval_create(&gop_stuff_copier, &gop_stuff_destructor, nullptr);
    ++gop_keys_created;
  }
  if (const std::optional<void*> found = comm.get_attr(gop_key)) {
    // This module has executed in this group before: use the cache.
    return static_cast<GopStuff*>(*found)->group_sum;
  }
  // A group that we have not yet cached anything in: do so now.
  auto* gop_stuff = new GopStuff;
  ++gop_stuff_live;
  gop_stuff->ref_count = 1;
  const int mine = Environment::world_rank();
  MPI_Allreduce(&mine, &gop_stuff->group_sum, 1, MPI_INT, MPI_SUM,
                comm.transport());
  ++gop_computations;
  comm.set_attr(gop_key, gop_stuff);
  return gop_stuff->group_sum;
}

TEST(CommAttributesTest, Seed000AttributesExample) {
  const Census before;
  const int n = world_size();
  const int all = n * (n - 1) / 2;
  Comm comm = Comm::world().dup();
  EXPECT_EQ(efficient_collective_op(comm), all);
  EXPECT_EQ(efficient_collective_op(comm), all);
  EXPECT_EQ(gop_computations, 1);  // the second call used the cache
  EXPECT_EQ(gop_keys_created, 1);

  Comm copy = comm.dup();  // shares the stuff: one more reference
  auto* stuff = static_cast<GopStuff*>(*comm.get_attr(gop_key));
  EXPECT_EQ(*copy.get_attr(gop_key), stuff);
  EXPECT_EQ(stuff->ref_count, 2);
  EXPECT_EQ(efficient_collective_op(copy), all);
  EXPECT_EQ(gop_computations, 1);

  Comm half = comm.split(world_rank() % 2, 0);  // no propagation: new stuff
  int half_sum = 0;
  for (int r = world_rank() % 2; r < n; r += 2) half_sum += r;
  EXPECT_EQ(efficient_collective_op(half), half_sum);
  EXPECT_EQ(gop_computations, 2);
  EXPECT_EQ(gop_stuff_live, 2);

  copy.free();
  EXPECT_EQ(stuff->ref_count, 1);
  comm.free();
  half.free();
  EXPECT_EQ(gop_stuff_live, 0);
  EXPECT_EQ(gop_keys_created, 1);
  keyval_free(gop_key);
  EXPECT_EQ(gop_key, keyval_invalid);
  expect_back_to(before);
}

// ---- typed keyvals on a real communicator --------------------------------

struct Tracked {
  static int constructed;
  static int copied;
  static int destroyed;
  std::string name;
  explicit Tracked(std::string n) : name(std::move(n)) { ++constructed; }
  Tracked(const Tracked& other) : name(other.name) { ++copied; }
  Tracked(Tracked&& other) noexcept : name(std::move(other.name)) {
    ++constructed;
  }
  Tracked& operator=(const Tracked&) = default;
  ~Tracked() { ++destroyed; }
  static int live() { return constructed + copied - destroyed; }
};
int Tracked::constructed = 0;
int Tracked::copied = 0;
int Tracked::destroyed = 0;

TEST(CommAttributesTest, TypedKeyvalCopiesOnDupAndDestroysOnFree) {
  const Census before;
  const int live_before = Tracked::live();
  {
    Keyval<Tracked> key;
    Comm comm = Comm::world().dup();
    key.set(comm, Tracked("grid"));
    const int copies_before = Tracked::copied;
    Comm copy = comm.dup();
    EXPECT_EQ(Tracked::copied, copies_before + 1);  // the copy constructor
    ASSERT_NE(key.get(copy), nullptr);
    EXPECT_NE(key.get(copy), key.get(comm));
    EXPECT_EQ(key.get(copy)->name, "grid");
    key.get(copy)->name = "changed";
    EXPECT_EQ(key.get(comm)->name, "grid");

    const int destroyed_before = Tracked::destroyed;
    copy.free();  // the destructor, once
    EXPECT_EQ(Tracked::destroyed, destroyed_before + 1);
    { Comm last = std::move(comm); }  // last handle gone: once more
    EXPECT_EQ(Tracked::destroyed, destroyed_before + 2);
  }
  EXPECT_EQ(Tracked::live(), live_before);
  expect_back_to(before);
}

TEST(CommAttributesTest, TypedKeyvalDroppedOnDup) {
  const Census before;
  const int live_before = Tracked::live();
  {
    Keyval<Tracked> key(OnDup::drop);
    Comm comm = Comm::world().dup();
    key.set(comm, Tracked("local"));
    Comm copy = comm.dup();
    EXPECT_EQ(key.get(copy), nullptr);
    EXPECT_EQ(key.get(comm)->name, "local");
    copy.free();
    comm.free();
  }
  EXPECT_EQ(Tracked::live(), live_before);
  expect_back_to(before);
}

// A Keyval destroyed while a communicator still holds its attribute: the
// attribute stays valid and the key is reclaimed when the communicator goes.
TEST(CommAttributesTest, TypedKeyvalOutlivedByItsAttribute) {
  const Census before;
  const int live_before = Tracked::live();
  {
    Comm comm = Comm::world().dup();
    int keyval = keyval_invalid;
    {
      Keyval<Tracked> key;
      key.set(comm, Tracked("kept"));
      keyval = key.keyval();
    }
    ASSERT_TRUE(comm.get_attr(keyval).has_value());
    EXPECT_EQ(static_cast<Tracked*>(*comm.get_attr(keyval))->name, "kept");
    EXPECT_EQ(live_keyval_count(), before.keyvals + 1);
    comm.free();
  }
  EXPECT_EQ(Tracked::live(), live_before);
  expect_back_to(before);
}

TEST(CommAttributesTest, TypedKeyvalOnWorldAndSelf) {
  const Census before;
  {
    Keyval<int> key;
    Comm world = Comm::world();
    Comm self = Comm::self();
    key.set(world, world_size());
    key.set(self, world_rank());
    EXPECT_EQ(*key.get(Comm::world()), world_size());
    EXPECT_EQ(*key.get(Comm::self()), world_rank());
    key.remove(world);
    key.remove(self);
    EXPECT_EQ(key.get(world), nullptr);
  }
  expect_back_to(before);
}

}  // namespace
}  // namespace classic
