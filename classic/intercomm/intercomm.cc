// intercomm_create (the leaders' protocol on peer_comm) and intercomm_merge.
#include "classic/intercomm/intercomm.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/base/error_text.h"
#include "classic/base/internal/agreement.h"
#include "classic/base/internal/transport.h"
#include "classic/base/internal/transport_error.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/p2p/point_to_point.h"

namespace classic {
namespace {

constexpr const char* kCreate = "classic::intercomm_create";
constexpr const char* kMerge = "classic::intercomm_merge";

// Markers of the leaders' messages, so that a leader can tell them from
// anything else on peer_comm with the same tag.
constexpr int kHeaderMarker = 0x1c0c4ead;
constexpr int kVerdictMarker = 0x1c0c7e4d;

// The header a leader sends first: marker, sender's world rank, the world
// rank it believes it talks to, its group's size.
struct Header {
  int marker;
  int sender;
  int receiver;
  int group_size;
};
constexpr int kHeaderInts = 4;

using error_text::text;

// What the leader found, for its whole group.
struct Outcome {
  std::optional<Error> error;
  std::vector<int> remote_members;  // world ranks, in remote rank order
};

// Step 1: every process of local_comm passes the same, valid local_leader.
void agree_on_leader(const Comm::State& local, int local_leader) {
  internal::Agreement agreement;
  const auto leaders = agreement.ask_range(local_leader);
  agreement.run(local.transport, kCreate);
  const std::int64_t lowest = agreement.range_low(leaders);
  const std::int64_t highest = agreement.range_high(leaders);
  if (lowest != highest) {
    throw Error(ErrorClass::arg, kCreate,
                "the processes of local_comm passed different local_leader "
                "values (from " +
                    text(lowest) + " to " + text(highest) +
                    "); they must all name the same leader");
  }
  if (local_leader < 0 || local_leader >= local.local.size()) {
    throw Error(ErrorClass::rank, kCreate,
                "local_leader = " + text(local_leader) + " is outside [0, " +
                    text(local.local.size()) + ")");
  }
}

// The leader's checks of the arguments only it uses; returns the remote
// leader's world rank.
int check_leader_arguments(const Comm::State& local, const Comm& peer_comm,
                           int remote_leader, int tag) {
  if (peer_comm.is_null()) {
    throw Error(ErrorClass::comm, kCreate,
                "peer_comm is the null communicator at the local leader");
  }
  const Comm::State& peer = internal::CommAccess::state(peer_comm, kCreate);
  if (!peer.remote.is_null()) {
    throw Error(ErrorClass::comm, kCreate,
                "peer_comm is an inter-communicator; the leaders talk on an "
                "intra-communicator");
  }
  if (remote_leader < 0 || remote_leader >= peer.local.size()) {
    throw Error(ErrorClass::rank, kCreate,
                "remote_leader = " + text(remote_leader) + " is outside [0, " +
                    text(peer.local.size()) + ") (the ranks of peer_comm)");
  }
  if (tag < 0 || tag > tag_ub()) {
    throw Error(ErrorClass::tag, kCreate,
                "tag = " + text(tag) + " is outside [0, " + text(tag_ub()) +
                    "] (MPI_TAG_UB)");
  }
  const int remote_world = peer.local.world_rank_of(remote_leader);
  const int in_local = Group::world().translate_ranks(
      std::span(&remote_world, 1), local.local)[0];
  if (in_local != undefined) {
    throw Error(ErrorClass::comm, kCreate,
                "remote_leader = " + text(remote_leader) + " (world rank " +
                    text(remote_world) + ") is rank " + text(in_local) +
                    " of the local group; the groups of an "
                    "inter-communicator must be disjoint");
  }
  return remote_world;
}

// Receives the remote leader's header; nullopt when the next message from
// it with this tag is something else (a message of another size is left
// where it is).
std::optional<Header> receive_header(const Comm& peer_comm, int remote_leader,
                                     int tag) {
  const Status next = probe(peer_comm, remote_leader, tag);
  if (next.count(MPI_INT) != kHeaderInts) return std::nullopt;
  int received[kHeaderInts] = {};
  recv(peer_comm, std::span(received), remote_leader, tag);
  return Header{received[0], received[1], received[2], received[3]};
}

bool is_partners_header(const std::optional<Header>& header, int remote_world,
                        int my_world) {
  return header && header->marker == kHeaderMarker &&
         header->sender == remote_world && header->receiver == my_world &&
         header->group_size > 0;
}

// Step 2, at the leader: header, verdicts, members. Returns the remote
// group's members.
std::vector<int> exchange(const Comm::State& local, const Comm& peer_comm,
                          int remote_leader, int remote_world, int tag) {
  const int my_world = local.local.world_rank_of(local.rank);
  const int mine[kHeaderInts] = {kHeaderMarker, my_world, remote_world,
                                 local.local.size()};
  Request sending = isend(peer_comm, std::span(mine), remote_leader, tag);
  const std::optional<Header> theirs =
      receive_header(peer_comm, remote_leader, tag);
  wait(sending);

  // Both leaders learn whether both headers arrived, so that both groups
  // fail together rather than one waiting for the other.
  const bool header_ok = is_partners_header(theirs, remote_world, my_world);
  const int verdict[2] = {kVerdictMarker, header_ok ? 1 : 0};
  send(peer_comm, std::span(verdict), remote_leader, tag);
  const std::string partner = "remote_leader = " + text(remote_leader) +
                              " (world rank " + text(remote_world) + ")";
  if (!header_ok) {
    throw Error(ErrorClass::arg, kCreate,
                "the next message from " + partner + " with tag " + text(tag) +
                    " on peer_comm is not intercomm_create's header: that "
                    "process is not in a matching intercomm_create, or a "
                    "message of the application was pending there");
  }
  int their_verdict[2] = {0, 0};
  recv(peer_comm, std::span(their_verdict), remote_leader, tag);
  if (their_verdict[0] != kVerdictMarker || their_verdict[1] != 1) {
    throw Error(ErrorClass::arg, kCreate,
                partner +
                    " did not receive this leader's header (another "
                    "message with tag " +
                    text(tag) + " was pending for it on peer_comm)");
  }

  const std::vector<int> members = local.local.members();
  std::vector<int> remote_members(static_cast<std::size_t>(theirs->group_size));
  sendrecv(peer_comm, std::span(members), remote_leader, tag,
           std::span(remote_members), remote_leader, tag);
  return remote_members;
}

// Both leaders see both lists, so both groups fail alike.
void check_disjoint(const Comm::State& local,
                    const std::vector<int>& remote_members) {
  const std::vector<int> in_local =
      Group::world().translate_ranks(remote_members, local.local);
  const auto shared = std::find_if(in_local.begin(), in_local.end(),
                                   [](int rank) { return rank != undefined; });
  if (shared != in_local.end()) {
    const auto index = static_cast<std::size_t>(shared - in_local.begin());
    throw Error(ErrorClass::comm, kCreate,
                "world rank " + text(remote_members[index]) +
                    " is in both groups; the groups of an inter-communicator "
                    "must be disjoint");
  }
}

Outcome lead(const Comm::State& local, const Comm& peer_comm, int remote_leader,
             int tag) {
  Outcome outcome;
  try {
    const int remote_world =
        check_leader_arguments(local, peer_comm, remote_leader, tag);
    outcome.remote_members =
        exchange(local, peer_comm, remote_leader, remote_world, tag);
    check_disjoint(local, outcome.remote_members);
  } catch (const Error& error) {
    outcome.error = error;
  }
  return outcome;
}

// Step 3: the leader tells its group what happened (collective over
// local_comm).
void share(Outcome& outcome, const Comm::State& local, int leader) {
  const bool leading = local.rank == leader;
  std::string message = outcome.error ? outcome.error->what() : "";
  int head[3] = {
      outcome.error ? static_cast<int>(outcome.error->error_class()) : -1,
      static_cast<int>(outcome.remote_members.size()),
      static_cast<int>(message.size())};
  transport::check_code(MPI_Bcast(head, 3, MPI_INT, leader, local.transport),
                        kCreate);
  if (head[0] >= 0) {
    message.resize(static_cast<std::size_t>(head[2]));
    transport::check_code(
        MPI_Bcast(message.data(), head[2], MPI_CHAR, leader, local.transport),
        kCreate);
    if (!leading) {
      outcome.error = Error(
          static_cast<ErrorClass>(head[0]), kCreate,
          "the local leader (rank " + text(leader) + ") failed: " + message);
    }
    return;
  }
  outcome.remote_members.resize(static_cast<std::size_t>(head[1]));
  transport::check_code(MPI_Bcast(outcome.remote_members.data(), head[1],
                                  MPI_INT, leader, local.transport),
                        kCreate);
}

}  // namespace

Comm intercomm_create(const Comm& local_comm, int local_leader,
                      const Comm& peer_comm, int remote_leader, int tag) {
  const Comm::State& local = internal::CommAccess::state(local_comm, kCreate);
  if (!local.remote.is_null()) {
    throw Error(ErrorClass::comm, kCreate,
                "local_comm is an inter-communicator; this needs an "
                "intra-communicator");
  }
  agree_on_leader(local, local_leader);
  Outcome outcome;
  if (local.rank == local_leader) {
    outcome = lead(local, peer_comm, remote_leader, tag);
  }
  share(outcome, local, local_leader);
  if (outcome.error) throw Error(*outcome.error);

  Group remote = Group::world().incl(outcome.remote_members);
  MPI_Comm context =
      transport::new_context_among(inter_context_members(local.local, remote));
  return internal::CommAccess::make(
      Comm::State::make_inter(context, local.local, std::move(remote)));
}

Comm intercomm_merge(const Comm& intercomm, Merge high) {
  const Comm::State& s = internal::CommAccess::state(intercomm, kMerge);
  if (s.remote.is_null()) {
    throw Error(ErrorClass::comm, kMerge,
                "intercomm is an intra-communicator; this needs an "
                "inter-communicator");
  }
  const int mine = high == Merge::high ? 1 : 0;
  const int processes = s.local.size() + s.remote.size();
  std::vector<int> all(static_cast<std::size_t>(processes));
  transport::check_code(
      MPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, s.transport),
      kMerge);
  // Every process sees every value, so all of them agree on an error.
  auto uniform = [&](int offset, int size) {
    const auto begin = all.begin() + offset;
    return std::all_of(begin, begin + size,
                       [&](int value) { return value == *begin; });
  };
  const bool local_uniform = uniform(s.local_offset(), s.local.size());
  const bool remote_uniform = uniform(s.peer_offset, s.remote.size());
  if (!local_uniform || !remote_uniform) {
    throw Error(ErrorClass::arg, kMerge,
                std::string("the processes of the ") +
                    (local_uniform ? "remote" : "local") +
                    " group passed different values of high; each group "
                    "must pass one value");
  }
  const int local_high = all[static_cast<std::size_t>(s.local_offset())];
  const int remote_high = all[static_cast<std::size_t>(s.peer_offset)];
  const bool local_first =
      local_high != remote_high ? local_high == 0 : s.local_group_first();
  Group merged =
      local_first ? s.local.union_with(s.remote) : s.remote.union_with(s.local);
  MPI_Comm context = transport::new_context(s.transport, merged.members());
  return internal::CommAccess::make(
      std::make_shared<Comm::State>(context, std::move(merged)));
}

}  // namespace classic
