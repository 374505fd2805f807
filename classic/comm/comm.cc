#include "classic/comm/comm.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/base/internal/agreement.h"
#include "classic/base/internal/transport.h"
#include "classic/base/internal/transport_error.h"
#include "classic/comm/internal/comm_inter.h"
#include "classic/comm/internal/comm_state.h"

namespace classic {
namespace {

std::size_t& live_states() {
  static std::size_t count = 0;
  return count;
}

struct Predefined {
  std::shared_ptr<Comm::State> world;
  std::shared_ptr<Comm::State> self;
};

Predefined& predefined() {
  static Predefined* instance = new Predefined;  // outlives static handles
  return *instance;
}

// MPI-2: at finalize, MPI_COMM_SELF is freed first (its delete callbacks run,
// so libraries can clean up), then the world.
void finalize_predefined() {
  Predefined& p = predefined();
  for (std::shared_ptr<Comm::State>* state : {&p.self, &p.world}) {
    if (*state == nullptr) continue;
    try {
      (*state)->attributes.delete_all(internal::CommAccess::make(*state));
    } catch (const Error& error) {
      std::fprintf(stderr, "classic::Environment: at finalize: %s\n",
                   error.what());
    }
    (*state)->transport = MPI_COMM_NULL;  // the Environment's, not ours
    (*state)->freed = true;
    state->reset();
  }
}

Comm predefined_comm(std::shared_ptr<Comm::State> Predefined::*which,
                     MPI_Comm context, Group group, const char* function) {
  if (!Environment::active()) {
    throw Error(ErrorClass::comm, function,
                "no classic::Environment is active");
  }
  Predefined& p = predefined();
  if (p.world == nullptr && p.self == nullptr) {
    Environment::at_finalize(&finalize_predefined);
  }
  std::shared_ptr<Comm::State>& state = p.*which;
  if (state == nullptr) {
    state = std::make_shared<Comm::State>(context, std::move(group));
    state->predefined = true;
  }
  return internal::CommAccess::make(state);
}

// The members of `group` as world ranks, in group order.
std::vector<int> world_ranks(const Group& group) { return group.members(); }

}  // namespace

// ---- State ----------------------------------------------------------------

Comm::State::State(MPI_Comm context, Group local_group)
    : transport(context), local(std::move(local_group)) {
  rank = local.rank();
  ++live_states();
}

Comm::State::~State() {
  if (!freed && !predefined && Environment::active()) free_contexts();
  --live_states();
}

void Comm::State::add_private_context() {
  private_context = transport::new_private_context(transport);
}

void Comm::State::free_contexts() noexcept {
  repeats.reset();  // bound to private_context, and never run again
  transport::free_context(private_context);
  transport::free_context(transport);
}

std::size_t Comm::State::live_count() noexcept { return live_states(); }

// ---- handles --------------------------------------------------------------

Comm& Comm::operator=(const Comm& other) {
  if (this != &other) {
    Comm old(std::move(*this));
    state_ = other.state_;
  }
  return *this;
}

Comm& Comm::operator=(Comm&& other) noexcept {
  if (this != &other) {
    Comm old(std::move(*this));
    state_ = std::move(other.state_);
  }
  return *this;
}

void Comm::release_if_last() noexcept {
  if (state_ == nullptr || state_.use_count() != 1) return;
  State& s = *state_;
  if (s.predefined || s.freed || !Environment::active()) return;
  try {
    s.attributes.delete_all(*this);
  } catch (const Error& error) {
    // A destructor cannot throw; the attribute stays with the dying state.
    std::fprintf(stderr, "classic::Comm: implicit free: %s\n", error.what());
  }
  s.free_contexts();
  s.freed = true;
}

Comm::State& internal::CommAccess::intra_state(const Comm& comm,
                                               const char* function) {
  Comm::State& state = comm.state(function);
  if (!state.remote.is_null()) {
    throw Error(ErrorClass::comm, function,
                "comm is an inter-communicator; this needs an "
                "intra-communicator");
  }
  return state;
}

[[gnu::hot]] Comm::State& Comm::state(const char* function) const {
  if (state_ == nullptr) {
    throw Error(ErrorClass::comm, function, "comm is the null communicator");
  }
  if (state_->freed) {
    throw Error(ErrorClass::comm, function,
                state_->predefined ? "comm was finalised with the Environment"
                                   : "comm has been freed");
  }
  if (!Environment::active()) {
    // A handle kept past the Environment (a static): its transport is gone.
    throw Error(ErrorClass::comm, function,
                "comm outlived the classic::Environment");
  }
  return *state_;
}

std::size_t Comm::live_count() noexcept { return State::live_count(); }

Comm Comm::world() {
  return predefined_comm(
      &Predefined::world,
      Environment::active() ? Environment::world_context() : MPI_COMM_NULL,
      Environment::active() ? Group::world() : Group(), "classic::Comm::world");
}

Comm Comm::self() {
  return predefined_comm(
      &Predefined::self,
      Environment::active() ? Environment::self_context() : MPI_COMM_NULL,
      Environment::active() ? Group::self() : Group(), "classic::Comm::self");
}

// ---- accessors ------------------------------------------------------------

bool Comm::is_inter() const {
  return !state("classic::Comm::is_inter").remote.is_null();
}

int Comm::size() const { return state("classic::Comm::size").local.size(); }

int Comm::rank() const { return state("classic::Comm::rank").rank; }

Group Comm::group() const { return state("classic::Comm::group").local; }

int Comm::remote_size() const { return remote_group().size(); }

Group Comm::remote_group() const {
  const State& s = state("classic::Comm::remote_group");
  if (s.remote.is_null()) {
    throw Error(ErrorClass::comm, "classic::Comm::remote_group",
                "comm is an intra-communicator");
  }
  return s.remote;
}

MPI_Comm Comm::transport() const {
  return state("classic::Comm::transport").transport;
}

Comparison Comm::compare(const Comm& other) const {
  const State& a = state("classic::Comm::compare");
  const State& b = other.state("classic::Comm::compare");
  if (&a == &b) return Comparison::identical;
  if (a.remote.is_null() != b.remote.is_null()) return Comparison::unequal;
  Comparison local = a.local.compare(b.local);
  if (!a.remote.is_null()) {
    const Comparison remote = a.remote.compare(b.remote);
    local = std::max(local, remote);  // the weaker of the two results
  }
  return local == Comparison::identical ? Comparison::congruent : local;
}

// ---- constructors ---------------------------------------------------------

Comm Comm::dup() const {
  const State& s = state("classic::Comm::dup");
  // Same processes in the same order (both groups of an inter-communicator).
  MPI_Comm context = transport::new_context(s.transport, s.context_members());
  const bool inter = !s.remote.is_null();
  Comm duplicate(inter ? State::make_inter(context, s.local, s.remote)
                       : std::make_shared<State>(context, s.local));
  State& copy = *duplicate.state_;
  if (!inter && s.private_context != MPI_COMM_NULL) copy.add_private_context();
  // Copy callbacks may fail, or throw, on some processes only. Every process
  // must reach the agreement below whatever happened here, or the others
  // would wait in it forever; so nothing may leave this block early.
  std::string failure;
  std::exception_ptr thrown;
  try {
    copy.attributes = s.attributes.copy_for_dup(*this);
  } catch (const Error& error) {
    failure = error.what();
  } catch (...) {
    thrown = std::current_exception();
    failure = "a copy callback threw";
  }
  if (internal::all_true(copy.transport, failure.empty(),
                         "classic::Comm::dup")) {
    return duplicate;
  }
  // Discard the duplicate: delete what was copied here and give the context
  // back. A delete callback that fails cannot keep a communicator nobody
  // was given; its value is lost with it (attributes.h, failed copies).
  try {
    copy.attributes.delete_all(duplicate);
  } catch (const Error& error) {
    std::fprintf(stderr, "classic::Comm::dup: discarding the duplicate: %s\n",
                 error.what());
  }
  copy.free_contexts();
  copy.freed = true;
  if (thrown) std::rethrow_exception(thrown);
  throw Error(ErrorClass::other, "classic::Comm::dup",
              failure.empty() ? "a copy callback failed on another process"
                              : "a copy callback failed (" + failure + ")");
}

Comm Comm::create(const Group& group) const {
  const State& s = state("classic::Comm::create");
  if (!s.remote.is_null()) return internal::create(s, group);
  if (group.is_null()) {
    throw Error(ErrorClass::group, "classic::Comm::create",
                "group is the null group");
  }
  const std::vector<int> members = group.members();
  const std::vector<int> in_comm = group.translate_ranks(
      [&] {
        std::vector<int> ranks(members.size());
        std::iota(ranks.begin(), ranks.end(), 0);
        return ranks;
      }(),
      s.local);
  const auto outside = std::find(in_comm.begin(), in_comm.end(), undefined);
  if (outside != in_comm.end()) {
    const auto index = outside - in_comm.begin();
    throw Error(ErrorClass::group, "classic::Comm::create",
                "group member " + std::to_string(index) + " (world rank " +
                    std::to_string(members[static_cast<std::size_t>(index)]) +
                    ") is not in comm");
  }
  // Processes outside `group` take part in making the context too.
  const bool member = group.rank() != undefined;
  MPI_Comm context = transport::new_context(
      s.transport, member ? members : std::vector<int>{});
  if (!member) return Comm();
  return Comm(std::make_shared<State>(context, group));
}

Comm Comm::split(int color, int key) const {
  const State& s = state("classic::Comm::split");
  if (color < 0 && color != undefined) {
    throw Error(ErrorClass::arg, "classic::Comm::split",
                "color = " + std::to_string(color) +
                    " is negative and not classic::undefined");
  }
  if (!s.remote.is_null()) return internal::split(s, color, key);
  const int n = s.local.size();
  const int mine[2] = {color, key};
  std::vector<int> all(2 * static_cast<std::size_t>(n));
  transport::check_code(
      MPI_Allgather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, s.transport),
      "classic::Comm::split");
  if (color == undefined) {
    transport::new_context(s.transport, {});  // collective over all of comm
    return Comm();
  }

  // Same color, ordered by key, ties by rank in comm (MPI-1 section 5.4.2).
  std::vector<int> ranks;
  for (int r = 0; r < n; ++r) {
    if (all[2 * static_cast<std::size_t>(r)] == color) ranks.push_back(r);
  }
  std::stable_sort(ranks.begin(), ranks.end(), [&](int a, int b) {
    return all[2 * static_cast<std::size_t>(a) + 1] <
           all[2 * static_cast<std::size_t>(b) + 1];
  });
  const Group members = s.local.incl(ranks);
  return Comm(std::make_shared<State>(
      transport::new_context(s.transport, world_ranks(members)), members));
}

void Comm::free() {
  State& s = state("classic::Comm::free");
  if (s.predefined) {
    throw Error(ErrorClass::comm, "classic::Comm::free",
                "comm is a predefined communicator (world or self), which "
                "cannot be freed");
  }
  s.attributes.delete_all(*this);
  s.free_contexts();
  s.freed = true;
  state_.reset();
}

// ---- attributes -----------------------------------------------------------

void Comm::set_attr(int keyval, void* value) {
  state("classic::Comm::set_attr").attributes.set(*this, keyval, value);
}

[[gnu::hot]] std::optional<void*> Comm::get_attr(int keyval) const {
  return state("classic::Comm::get_attr").attributes.get(keyval);
}

void Comm::delete_attr(int keyval) {
  state("classic::Comm::delete_attr").attributes.remove(*this, keyval);
}

}  // namespace classic
