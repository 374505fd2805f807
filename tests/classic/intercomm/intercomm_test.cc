// Tests of classic's inter-communicators (MPI-1 section 5.6, MPI-2's create
// and split): intercomm_create, the accessors, point-to-point across,
// intercomm_merge's order, dup, create, split, free, and each error the
// seeds name. Expected members come from the split rules the tests use,
// never from classic.
#include "classic/intercomm/intercomm.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/comm/keyval.h"
#include "classic/groups/group.h"
#include "classic/p2p/point_to_point.h"
#include "tests/classic/testing/intercomm_testing.h"
#include "tests/testing/errors.h"

namespace classic {
namespace {

using intercomm_testing::build;
using intercomm_testing::Built;
using intercomm_testing::halves;
using intercomm_testing::IntercommTest;
using intercomm_testing::interleaved_reversed;
using intercomm_testing::Sides;
using intercomm_testing::sides_of;
using intercomm_testing::world_rank;
using intercomm_testing::world_size;
using orthocomm_test::expect_error_class;

std::vector<int> concatenated(const std::vector<int>& x,
                              const std::vector<int>& y) {
  std::vector<int> all = x;
  all.insert(all.end(), y.begin(), y.end());
  return all;
}

// The accessors against the sides' members.
void expect_shape(const Comm& inter, const Sides& sides) {
  ASSERT_FALSE(inter.is_null());
  EXPECT_TRUE(inter.is_inter());
  EXPECT_TRUE(comm_test_inter(inter));
  EXPECT_EQ(inter.size(), static_cast<int>(sides.mine().size()));
  EXPECT_EQ(inter.rank(), sides.local_rank(world_rank()));
  EXPECT_EQ(inter.remote_size(), static_cast<int>(sides.theirs().size()));
  EXPECT_EQ(comm_remote_size(inter), inter.remote_size());
  EXPECT_EQ(inter.group().members(), sides.mine());
  EXPECT_EQ(inter.remote_group().members(), sides.theirs());
  EXPECT_EQ(comm_remote_group(inter), inter.remote_group());
}

// Every process sends its world rank to remote rank (rank % remote size)
// and receives, from any source, from each remote rank j with
// j % size == rank; the status names j and the payload is j's world rank.
void expect_messages_cross(const Comm& inter, const Sides& sides, int tag) {
  const int out = world_rank();
  Request sending =
      isend(inter, std::span(&out, 1), inter.rank() % inter.remote_size(), tag);
  std::vector<int> expected_sources;
  for (int j = 0; j < inter.remote_size(); ++j) {
    if (j % inter.size() == inter.rank()) expected_sources.push_back(j);
  }
  std::vector<int> sources;
  for (std::size_t k = 0; k < expected_sources.size(); ++k) {
    int in = -1;
    const Status status = recv(inter, std::span(&in, 1), any_source, tag);
    sources.push_back(status.source);
    EXPECT_EQ(in, sides.theirs()[static_cast<std::size_t>(status.source)]);
  }
  wait(sending);
  std::sort(sources.begin(), sources.end());
  EXPECT_EQ(sources, expected_sources);
}

// ---- intercomm_create and the accessors -------------------------------------

TEST_F(IntercommTest, CreateBetweenHalvesHasTheirGroups) {
  const Built built = build(halves());
  expect_shape(built.inter, built.sides);
  EXPECT_FALSE(built.local.is_inter());
  expect_error_class([&] { (void)built.local.remote_size(); },
                     ErrorClass::comm);
}

TEST_F(IntercommTest, CreateWithLastRanksAsLeadersAndReversedOrder) {
  const Sides sides = interleaved_reversed();
  const Built built = build(sides, static_cast<int>(sides.a.size()) - 1,
                            static_cast<int>(sides.b.size()) - 1, 5);
  expect_shape(built.inter, built.sides);
  expect_messages_cross(built.inter, built.sides, 3);
}

TEST_F(IntercommTest, PeerRanksAreRanksOfPeerComm) {
  // The leaders name each other in a peer communicator that numbers the
  // world backwards.
  const Sides sides = halves();
  const Comm backwards = Comm::world().split(0, -world_rank());
  const Comm local = Comm::world().split(sides.in_a ? 0 : 1, world_rank());
  const int other_leader = sides.theirs().front();
  const Comm inter =
      intercomm_create(local, 0, backwards, world_size() - 1 - other_leader, 9);
  expect_shape(inter, sides);
}

TEST_F(IntercommTest, PointToPointCrossesAndStaysOffTheDuplicate) {
  const Built built = build(halves());
  expect_messages_cross(built.inter, built.sides, 1);
  // Local rank i and remote rank i pair up. A receive with wildcards posted
  // on the original first must not take the message sent on the duplicate.
  const Comm copy = built.inter.dup();
  const int i = built.inter.rank();
  if (i >= built.inter.remote_size()) return;
  int on_original = -1;
  Request original_receive =
      irecv(built.inter, std::span(&on_original, 1), any_source, any_tag);
  const int first = 100 + world_rank();
  int on_copy = -1;
  sendrecv(copy, std::span(&first, 1), i, 4, std::span(&on_copy, 1), i, 4);
  const int partner_world = built.sides.theirs()[static_cast<std::size_t>(i)];
  EXPECT_EQ(on_copy, 100 + partner_world);
  const int second = 200 + world_rank();
  send(built.inter, std::span(&second, 1), i, 4);
  wait(original_receive);
  EXPECT_EQ(on_original, 200 + partner_world);
}

TEST_F(IntercommTest, CompareSeesIdentityCongruenceAndInequality) {
  const Built built = build(halves());
  EXPECT_EQ(built.inter.compare(built.inter), Comparison::identical);
  const Comm copy = built.inter.dup();
  EXPECT_EQ(built.inter.compare(copy), Comparison::congruent);
  EXPECT_EQ(comm_compare(copy, built.inter), Comparison::congruent);
  EXPECT_EQ(built.inter.compare(built.local), Comparison::unequal);
  EXPECT_EQ(built.inter.compare(Comm::world()), Comparison::unequal);
}

// ---- intercomm_merge --------------------------------------------------------

TEST_F(IntercommTest, MergeOrdersLowBeforeHighForEveryCombination) {
  for (const Sides& sides : {halves(), interleaved_reversed()}) {
    const Built built = build(sides);
    for (const Merge a_high : {Merge::low, Merge::high}) {
      for (const Merge b_high : {Merge::low, Merge::high}) {
        const Comm merged =
            intercomm_merge(built.inter, sides.in_a ? a_high : b_high);
        // Unequal: the low group first. Equal: documented choice, the
        // group whose rank 0 has the lower world rank first.
        const bool a_first = a_high != b_high
                                 ? a_high == Merge::low
                                 : sides.a.front() < sides.b.front();
        const std::vector<int> expected = a_first
                                              ? concatenated(sides.a, sides.b)
                                              : concatenated(sides.b, sides.a);
        ASSERT_FALSE(merged.is_inter());
        EXPECT_EQ(merged.group().members(), expected);
        EXPECT_EQ(merged.rank(),
                  static_cast<int>(std::find(expected.begin(), expected.end(),
                                             world_rank()) -
                                   expected.begin()));
        // The merged communicator carries messages.
        const int n = merged.size();
        const int out = merged.rank();
        int in = -1;
        sendrecv(merged, std::span(&out, 1), (merged.rank() + 1) % n, 2,
                 std::span(&in, 1), (merged.rank() + n - 1) % n, 2);
        EXPECT_EQ(in, (merged.rank() + n - 1) % n);
      }
    }
  }
}

// ---- dup, create, split, free
// -------------------------------------------------

TEST_F(IntercommTest, DupKeepsGroupsAndCopiesAttributes) {
  const Built built = build(interleaved_reversed());
  int keyval = comm_create_keyval(dup_fn, nullptr, nullptr);
  static int value = 42;
  Comm inter = built.inter;
  inter.set_attr(keyval, &value);
  const Comm copy = inter.dup();
  expect_shape(copy, built.sides);
  ASSERT_TRUE(copy.get_attr(keyval).has_value());
  EXPECT_EQ(*copy.get_attr(keyval), &value);
  expect_messages_cross(copy, built.sides, 8);
  comm_free_keyval(keyval);
}

// MPI-2's example: the first process of side A with every process of B.
TEST_F(IntercommTest, CreateJoinsTheSubsetsOfBothSides) {
  const Built built = build(halves());
  const int zero = 0;
  const Group group = built.sides.in_a
                          ? built.inter.group().incl(std::span(&zero, 1))
                          : built.inter.group();
  const Comm created = built.inter.create(group);
  const bool outside = built.sides.in_a && built.inter.rank() != 0;
  if (outside) {
    EXPECT_TRUE(created.is_null());
    return;
  }
  Sides expected = built.sides;
  expected.a = {built.sides.a.front()};
  expect_shape(created, expected);
  expect_messages_cross(created, expected, 6);
}

TEST_F(IntercommTest, CreateWithRandomSubsetsInRandomOrder) {
  std::mt19937 random(2024);  // the same draws on every process
  const Built built = build(interleaved_reversed());
  for (int round = 0; round < 6; ++round) {
    // Each side keeps a random subset of its local ranks, in random order.
    auto draw = [&](int size) {
      std::vector<int> ranks(static_cast<std::size_t>(size));
      std::iota(ranks.begin(), ranks.end(), 0);
      std::shuffle(ranks.begin(), ranks.end(), random);
      ranks.resize(static_cast<std::size_t>(
          std::uniform_int_distribution<int>(0, size)(random)));
      return ranks;
    };
    const std::vector<int> a_ranks =
        draw(static_cast<int>(built.sides.a.size()));
    const std::vector<int> b_ranks =
        draw(static_cast<int>(built.sides.b.size()));
    const std::vector<int>& mine = built.sides.in_a ? a_ranks : b_ranks;
    const Comm created = built.inter.create(built.inter.group().incl(mine));

    Sides expected = built.sides;
    expected.a.clear();
    expected.b.clear();
    for (int r : a_ranks)
      expected.a.push_back(built.sides.a[static_cast<std::size_t>(r)]);
    for (int r : b_ranks)
      expected.b.push_back(built.sides.b[static_cast<std::size_t>(r)]);
    const bool member =
        std::find(expected.mine().begin(), expected.mine().end(),
                  world_rank()) != expected.mine().end();
    if (!member || expected.a.empty() || expected.b.empty()) {
      EXPECT_TRUE(created.is_null()) << "round " << round;
      continue;
    }
    expect_shape(created, expected);
    expect_messages_cross(created, expected, 10 + round);
  }
}

TEST_F(IntercommTest, SplitMatchesColorsAcrossTheSides) {
  std::mt19937 random(77);  // the same draws on every process
  const Built built = build(halves());
  for (int round = 0; round < 6; ++round) {
    std::vector<int> colors(static_cast<std::size_t>(world_size()));
    std::vector<int> keys(colors.size());
    for (std::size_t w = 0; w < colors.size(); ++w) {
      const int c = std::uniform_int_distribution<int>(0, 3)(random);
      colors[w] = c == 3 ? undefined : c;
      keys[w] = std::uniform_int_distribution<int>(-2, 2)(random);
    }
    const int me = world_rank();
    const Comm part = built.inter.split(colors[static_cast<std::size_t>(me)],
                                        keys[static_cast<std::size_t>(me)]);
    // Each side: same color, by key, ties by rank in the side.
    auto same_color = [&](const std::vector<int>& side) {
      std::vector<int> chosen;
      for (int w : side) {
        if (colors[static_cast<std::size_t>(w)] ==
            colors[static_cast<std::size_t>(me)]) {
          chosen.push_back(w);
        }
      }
      std::stable_sort(chosen.begin(), chosen.end(), [&](int x, int y) {
        return keys[static_cast<std::size_t>(x)] <
               keys[static_cast<std::size_t>(y)];
      });
      return chosen;
    };
    Sides expected = built.sides;
    expected.a = same_color(built.sides.a);
    expected.b = same_color(built.sides.b);
    if (colors[static_cast<std::size_t>(me)] == undefined ||
        expected.theirs().empty()) {
      EXPECT_TRUE(part.is_null()) << "round " << round;
      continue;
    }
    expect_shape(part, expected);
    expect_messages_cross(part, expected, 20 + round);
  }
}

TEST_F(IntercommTest, FreeMakesTheHandleNullAndOtherHandlesInvalid) {
  Built built = build(halves());
  Comm other = built.inter;
  built.inter.free();
  EXPECT_TRUE(built.inter.is_null());
  expect_error_class([&] { (void)other.remote_size(); }, ErrorClass::comm);
  expect_error_class([&] { (void)intercomm_merge(other, Merge::low); },
                     ErrorClass::comm);
}

TEST_F(IntercommTest, ThousandCreateFreeCyclesLeaveNoCommunicator) {
  const Sides sides = halves();
  const Comm local = Comm::world().split(sides.in_a ? 0 : 1, world_rank());
  const int remote_leader = sides.theirs().front();
  const std::size_t before = Comm::live_count();
  for (int i = 0; i < 1000; ++i) {
    Comm inter = intercomm_create(local, 0, Comm::world(), remote_leader, 31);
    EXPECT_EQ(inter.remote_size(), static_cast<int>(sides.theirs().size()));
    inter.free();
  }
  EXPECT_EQ(Comm::live_count(), before);
}

// ---- errors -----------------------------------------------------------------

TEST_F(IntercommTest, LocalLeaderOutOfRangeRaisesRankOnBothSides) {
  const Sides sides = halves();
  const Comm local = Comm::world().split(sides.in_a ? 0 : 1, world_rank());
  expect_error_class(
      [&] {
        (void)intercomm_create(local, local.size(), Comm::world(),
                               sides.theirs().front(), 1);
      },
      ErrorClass::rank);
  expect_error_class(
      [&] {
        (void)intercomm_create(local, -1, Comm::world(), sides.theirs().front(),
                               1);
      },
      ErrorClass::rank);
}

TEST_F(IntercommTest, RemoteLeaderOutOfRangeRaisesRankOnBothSides) {
  const Sides sides = halves();
  const Comm local = Comm::world().split(sides.in_a ? 0 : 1, world_rank());
  expect_error_class(
      [&] { (void)intercomm_create(local, 0, Comm::world(), world_size(), 1); },
      ErrorClass::rank);
}

TEST_F(IntercommTest, DisagreeingLocalLeadersRaiseArg) {
  // Both sides need two processes to disagree; else one side would wait
  // for the other in the leaders' exchange.
  if (world_size() < 4) GTEST_SKIP() << "needs two processes per side";
  const Sides sides = halves();
  const Comm local = Comm::world().split(sides.in_a ? 0 : 1, world_rank());
  expect_error_class(
      [&] {
        (void)intercomm_create(local, local.rank() % 2, Comm::world(),
                               sides.theirs().front(), 1);
      },
      ErrorClass::arg);
}

TEST_F(IntercommTest, OverlappingGroupsRaiseComm) {
  // One group on both sides: the leader names a member of its own group,
  // first another one, then itself.
  expect_error_class(
      [&] { (void)intercomm_create(Comm::world(), 0, Comm::world(), 1, 1); },
      ErrorClass::comm);
  expect_error_class(
      [&] { (void)intercomm_create(Comm::world(), 0, Comm::world(), 0, 1); },
      ErrorClass::comm);
}

TEST_F(IntercommTest, LeaderMeetingAnotherMessageRaisesArgOnBothSides) {
  // B's leader leaves an application message of another size for A's
  // leader on the peer communicator with the create's tag: A's leader does
  // not take it for the header, and both groups fail together.
  const Sides sides = halves();
  const Comm local = Comm::world().split(sides.in_a ? 0 : 1, world_rank());
  const Comm peer = Comm::world().dup();
  const int tag = 12;
  const int a_leader = sides.a.front();
  const int b_leader = sides.b.front();
  if (world_rank() == b_leader) {
    const long long stray[3] = {7, 8, 9};  // not 4 ints, as a header is
    send(peer, std::span(stray), a_leader, tag);
  }
  expect_error_class(
      [&] {
        (void)intercomm_create(local, 0, peer, sides.theirs().front(), tag);
      },
      ErrorClass::arg);
  if (world_rank() == a_leader) {
    // The application's message is still there, intact; then B's header
    // and verdict, which the failed exchange left pending (intercomm.h).
    long long stray[3] = {0, 0, 0};
    recv(peer, std::span(stray), b_leader, tag);
    EXPECT_EQ(stray[0], 7);
    EXPECT_EQ(stray[2], 9);
    int header[4];
    int verdict[2];
    recv(peer, std::span(header), b_leader, tag);
    recv(peer, std::span(verdict), b_leader, tag);
    EXPECT_FALSE(iprobe(peer, any_source, any_tag).has_value());
  }
}

TEST_F(IntercommTest, BadArgumentsAtTheLeadersRaiseTheirClasses) {
  const Sides sides = halves();
  const Comm local = Comm::world().split(sides.in_a ? 0 : 1, world_rank());
  const int other = sides.theirs().front();
  // Every leader fails alike, so no group waits for the other.
  expect_error_class(
      [&] { (void)intercomm_create(local, 0, Comm(), other, 1); },
      ErrorClass::comm);
  expect_error_class(
      [&] { (void)intercomm_create(local, 0, Comm::world(), other, -3); },
      ErrorClass::tag);
  if (tag_ub() < std::numeric_limits<int>::max()) {  // Open MPI: INT_MAX
    expect_error_class(
        [&] {
          (void)intercomm_create(local, 0, Comm::world(), other, tag_ub() + 1);
        },
        ErrorClass::tag);
  }
  const Built built = build(sides);
  expect_error_class(
      [&] { (void)intercomm_create(built.inter, 0, Comm::world(), other, 1); },
      ErrorClass::comm);
  expect_error_class(
      [&] { (void)intercomm_create(local, 0, built.inter, 0, 1); },
      ErrorClass::comm);
  expect_error_class([&] { (void)intercomm_create(Comm(), 0, Comm(), 0, 1); },
                     ErrorClass::comm);
}

TEST_F(IntercommTest, MergeErrors) {
  expect_error_class([] { (void)intercomm_merge(Comm::world(), Merge::low); },
                     ErrorClass::comm);
  expect_error_class([] { (void)intercomm_merge(Comm(), Merge::low); },
                     ErrorClass::comm);
  if (world_size() < 3) return;  // a side of two processes can disagree
  const Built built = build(halves());
  // The larger side (B) disagrees; every process sees it.
  const Merge high =
      !built.sides.in_a && built.inter.rank() == 0 ? Merge::high : Merge::low;
  expect_error_class([&] { (void)intercomm_merge(built.inter, high); },
                     ErrorClass::arg);
}

TEST_F(IntercommTest, CreateAndSplitErrors) {
  const Built built = build(halves());
  // A group with a process of the remote side.
  const Group outside =
      Group::world().incl(std::span(&built.sides.theirs().front(), 1));
  expect_error_class([&] { (void)built.inter.create(outside); },
                     ErrorClass::group);
  expect_error_class([&] { (void)built.inter.create(Group()); },
                     ErrorClass::group);
  expect_error_class([&] { (void)built.inter.split(-5, 0); }, ErrorClass::arg);
}

}  // namespace
}  // namespace classic
