// Keyval<T>: typed attributes whose copy and delete callbacks come from T
// (b-mpi3's form), on a stand-in communicator that embeds a store.
// MPI-free; helpers in attributes_testing.h.
#include "classic/comm/typed_keyval.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

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
}  // namespace classic::attributes_testing
