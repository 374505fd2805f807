#include "ortho/algorithms/node_aware/self_sized.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/error.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "ortho/algorithms/checks.h"
#include "ortho/internal/call_shape.h"

namespace ortho::algorithms {
namespace {

using classic::Plan;
using node_routes::Slot;
using node_routes::Transfer;
using Space = Plan::Space;

// The address of `at` as a displacement from MPI_BOTTOM: the steps' plans
// name the caller's send blocks and the received messages by address.
MPI_Aint address_of(const void* at) {
  MPI_Aint address = 0;
  MPI_Get_address(at, &address);
  return address;
}

[[noreturn]] void broken(const char* function, const std::string& what) {
  throw classic::Error(classic::ErrorClass::intern, function, what);
}

bool has_scratch(const Transfer& t) {
  for (const Slot& slot : t.slots) {
    if (slot.kind == Slot::Kind::scratch) return true;
  }
  return false;
}

Plan::Message& message_to(std::vector<Plan::Message>& messages,
                          const Transfer& t) {
  Plan::Message& m = messages.emplace_back();
  m.peer = t.peer;
  m.tag = t.tag;
  return m;
}

std::size_t header_bytes(const Transfer& t) {
  return t.slots.size() * sizeof(std::int64_t);
}

}  // namespace

// One blocking call's run, kept for the next call with the same arguments
// on the same buffers. Steps 0 and 1 are `Described`: every message opens
// with the sizes of its blocks; those that bring a relayed block are
// received whole (unsized), the others straight into the receiver's own
// blocks, whose sizes it knows (their sizes into scratch). Step 2 hands
// out into the receivers' own blocks as planned.
class SelfSizedRun {
 public:
  SelfSizedRun(const Call& call, const node_routes::Routes& routes,
               Exchange blocks)
      : routes_(&routes),
        blocks_(std::move(blocks)),
        send_data_(call.send.data),
        send_base_(address_of(call.send.data)),
        recv_base_(call.recv.data),
        scratch_(static_cast<std::size_t>(routes.scratch_slots)) {
    for (std::size_t s = 0; s < steps_.size(); ++s) {
      Described& step = steps_[s];
      const std::vector<Transfer>& receives = routes.steps[s].receives;
      for (std::size_t i = 0; i < receives.size(); ++i) {
        if (has_scratch(receives[i])) step.transfer_of.push_back(i);
      }
      step.messages.resize(step.transfer_of.size());
      step.seen.resize(step.transfer_of.size());
      for (std::size_t k = 0; k < step.transfer_of.size(); ++k) {
        const Transfer& t = receives[step.transfer_of[k]];
        step.unsized.push_back(
            {.peer = t.peer, .tag = t.tag, .bytes = &step.messages[k]});
      }
    }
  }

  bool serves(const Call& call) const {
    return send_data_ == call.send.data && recv_base_ == call.recv.data;
  }

  void run(const classic::Comm& comm, const Table& table,
           const char* function) {
    function_ = function;
    if (steps_[0].plan == nullptr) build_described(0);
    run_described(comm, 0);
    if (steps_[1].plan == nullptr || !as_seen(0)) {
      see(0);
      landed_.clear();  // relayed blocks only: step 2's plan lands them
      for (std::size_t k = 0; k < steps_[0].messages.size(); ++k) take(0, k);
      build_described(1);
      last_plan_ = nullptr;
    }
    run_described(comm, 1);
    if (last_plan_ == nullptr || !as_seen(1)) {
      see(1);
      build_last(table);
    }
    (void)classic::execute(comm, last_plan_, {nullptr, recv_base_},
                           classic::Mode::blocking, function_);
  }

 private:
  struct Described {
    std::shared_ptr<const Plan> plan;
    std::vector<std::vector<std::int64_t>> headers;  // per send
    std::vector<std::size_t> transfer_of;            // per unsized message
    std::vector<std::vector<std::byte>> messages;
    std::vector<classic::UnsizedReceive> unsized;
    // What the later plans were made for, per message: where it lay, and
    // its bytes up to the end of its sizes.
    std::vector<std::pair<const std::byte*, std::vector<std::byte>>> seen;
  };

  const Transfer& transfer(std::size_t step, std::size_t k) const {
    return routes_->steps[step].receives[steps_[step].transfer_of[k]];
  }

  // Whether every message of `step` came back where it lay, with the same
  // sizes (hence as long) as the plans after it were made for.
  bool as_seen(std::size_t step) const {
    const Described& d = steps_[step];
    for (std::size_t k = 0; k < d.messages.size(); ++k) {
      const std::vector<std::byte>& message = d.messages[k];
      const auto& [at, header] = d.seen[k];
      if (at != message.data() || message.size() < header.size() ||
          std::memcmp(message.data(), header.data(), header.size()) != 0) {
        return false;
      }
    }
    return true;
  }
  void see(std::size_t step) {
    Described& d = steps_[step];
    for (std::size_t k = 0; k < d.messages.size(); ++k) {
      const std::vector<std::byte>& message = d.messages[k];
      const std::size_t bytes =
          std::min(message.size(), header_bytes(transfer(step, k)));
      d.seen[k] = {message.data(),
                   {message.begin(),
                    message.begin() + static_cast<std::ptrdiff_t>(bytes)}};
    }
  }

  void build_described(std::size_t s) {
    const node_routes::Step& routes_step = routes_->steps[s];
    Described& d = steps_[s];
    Plan plan;
    Plan::Round& round = plan.rounds.emplace_back();
    d.headers.resize(routes_step.sends.size());
    for (std::size_t i = 0; i < routes_step.sends.size(); ++i) {
      const Transfer& t = routes_step.sends[i];
      std::vector<std::int64_t>& header = d.headers[i];
      header.clear();
      Plan::Message& m = message_to(round.sends, t);
      m.blocks.emplace_back();  // the sizes, once known
      for (const Slot& slot : t.slots) {
        m.blocks.push_back(sent(slot));
        header.push_back(bytes_of(m.blocks.back(), function_));
      }
      m.blocks.front() = {.space = Space::send,
                          .displacement = address_of(header.data()),
                          .count = static_cast<int>(header.size()),
                          .datatype = MPI_INT64_T};
    }
    for (const Transfer& t : routes_step.receives) {
      if (has_scratch(t)) continue;  // unsized
      Plan::Message& m = message_to(round.receives, t);
      m.blocks.push_back({.space = Space::scratch,
                          .displacement = plan.scratch_bytes,
                          .count = static_cast<int>(t.slots.size()),
                          .datatype = MPI_INT64_T});
      plan.scratch_bytes += static_cast<MPI_Aint>(header_bytes(t));
      for (const Slot& slot : t.slots) {
        m.blocks.push_back(blocks_.recv[static_cast<std::size_t>(slot.index)]);
      }
    }
    d.plan = std::make_shared<const Plan>(std::move(plan));
  }

  void run_described(const classic::Comm& comm, std::size_t s) {
    classic::execute_receiving_unsized(comm, steps_[s].plan,
                                       {nullptr, recv_base_}, steps_[s].unsized,
                                       function_);
  }

  // Step 2's plan: the hand-out into the receivers' own blocks, then every
  // copy into a receive block the first two steps brought.
  void build_last(const Table& table) {
    landed_.assign(blocks_.recv.size(), -1);
    copies_.clear();
    for (std::size_t s = 0; s < steps_.size(); ++s) {
      for (std::size_t k = 0; k < steps_[s].messages.size(); ++k) take(s, k);
    }
    for (const node_routes::Step& step : routes_->steps) {
      for (const node_routes::Copy& copy : step.copies) {
        land(copy.to, sent(copy.from));
      }
    }
    std::vector<std::int64_t> sizes(blocks_.recv.size());
    for (std::size_t j = 0; j < sizes.size(); ++j) {
      sizes[j] =
          landed_[j] >= 0 ? landed_[j] : bytes_of(blocks_.recv[j], function_);
    }
    check_room(table, blocks_, sizes, function_);
    const node_routes::Step& step = routes_->steps[2];
    Plan plan;
    Plan::Round& round = plan.rounds.emplace_back();
    for (const Transfer& t : step.receives) {
      Plan::Message& m = message_to(round.receives, t);
      for (const Slot& slot : t.slots) {
        if (slot.kind != Slot::Kind::recv) {
          broken(function_, "a hand-out into a block not the receiver's own");
        }
        m.blocks.push_back(blocks_.recv[static_cast<std::size_t>(slot.index)]);
      }
    }
    for (const Transfer& t : step.sends) {
      Plan::Message& m = message_to(round.sends, t);
      for (const Slot& slot : t.slots) m.blocks.push_back(sent(slot));
    }
    round.local = std::move(copies_);
    last_plan_ = std::make_shared<const Plan>(std::move(plan));
  }

  // A slot as a block of a plan whose send space is MPI_BOTTOM.
  Plan::Block sent(const Slot& slot) const {
    const auto index = static_cast<std::size_t>(slot.index);
    switch (slot.kind) {
      case Slot::Kind::send: {
        Plan::Block block = blocks_.send[index];
        block.displacement = MPI_Aint_add(send_base_, block.displacement);
        return block;
      }
      case Slot::Kind::recv:
        return blocks_.recv[index];
      case Slot::Kind::scratch:
        break;
    }
    const Plan::Block& block = scratch_[index];
    if (block.datatype == MPI_DATATYPE_NULL) {
      broken(function_, "a relayed block sent before it arrived");
    }
    return block;
  }

  // Unsized message k of `step`: its sizes, then its blocks, in the
  // transfer's order (the layout build_described sends).
  void take(std::size_t step, std::size_t k) {
    const Transfer& t = transfer(step, k);
    const std::vector<std::byte>& message = steps_[step].messages[k];
    const std::size_t count = t.slots.size();
    std::size_t offset = header_bytes(t);
    if (message.size() < offset) {
      broken(function_, "a relayed message shorter than its sizes");
    }
    std::vector<std::int64_t> sizes(count);
    if (count > 0) std::memcpy(sizes.data(), message.data(), offset);
    for (std::size_t i = 0; i < count; ++i) {
      const std::int64_t bytes = sizes[i];
      if (bytes < 0 || bytes > std::numeric_limits<int>::max() ||
          static_cast<std::size_t>(bytes) > message.size() - offset) {
        broken(function_, "a relayed message of " +
                              std::to_string(message.size()) +
                              " bytes that does not hold the sizes it names");
      }
      const Plan::Block block = {
          .space = Space::send,
          .displacement = address_of(message.data() + offset),
          .count = static_cast<int>(bytes),
          .datatype = MPI_PACKED};
      offset += static_cast<std::size_t>(bytes);
      const Slot& slot = t.slots[i];
      if (slot.kind == Slot::Kind::scratch) {
        scratch_[static_cast<std::size_t>(slot.index)] = block;
      } else if (slot.kind == Slot::Kind::recv) {
        land(slot.index, block);
      } else {
        broken(function_, "a relayed message into a send block");
      }
    }
    if (offset != message.size()) {
      broken(function_, "a relayed message longer than the sizes it names");
    }
  }

  // Receive block `to` gets `from`'s bytes (after the last step's
  // messages); where they are fewer than the block holds, as many whole
  // elements as they make.
  void land(int to, const Plan::Block& from) {
    const auto j = static_cast<std::size_t>(to);
    if (landed_.empty()) return;  // placing relayed blocks only (step 1)
    const std::int64_t bytes = bytes_of(from, function_);
    landed_[j] = bytes;
    Plan::Block into = blocks_.recv[j];
    if (from == into) return;
    const std::int64_t room = bytes_of(into, function_);
    if (bytes < room && into.count > 0) {
      into.count = static_cast<int>(bytes / (room / into.count));
    }
    copies_.push_back(
        {.kind = Plan::Local::Kind::copy, .from = from, .to = into});
  }

  const node_routes::Routes* routes_;
  Exchange blocks_;
  const void* send_data_;
  MPI_Aint send_base_;
  void* recv_base_;
  const char* function_ = "";
  std::array<Described, 2> steps_;
  std::vector<Plan::Block> scratch_;  // per scratch slot, once arrived
  std::shared_ptr<const Plan> last_plan_;
  std::vector<std::int64_t> landed_;  // bytes landed per receive block
  std::vector<Plan::Local> copies_;   // into receive blocks, at the end
};

void run_self_sized(const classic::Comm& comm, const Table& table,
                    const Call& call, const node_routes::Routes& routes,
                    const void* key, std::uint64_t shape,
                    internal::LastPlan& last) {
  auto& runs = last.self_sized;
  if (!last.keeps_self_sized(key, shape)) {
    last.keep(key, shape, nullptr);
  } else if (runs[1] != nullptr && runs[1]->serves(call)) {
    std::swap(runs[0], runs[1]);
  }
  if (runs[0] == nullptr || !runs[0]->serves(call)) {
    const Checks check(comm, call);
    runs[1] = std::move(runs[0]);
    runs[0] = std::make_shared<SelfSizedRun>(call, routes,
                                             normalise(table, call, check));
  }
  SelfSizedRun* run = runs[0].get();
  run->run(comm, table, call.function());
}

}  // namespace ortho::algorithms
