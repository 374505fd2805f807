// Binding an execution to its buffers: messages of several blocks packed
// or as struct datatypes, persistent requests, resolved addresses; and
// giving all of it back.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/datatype_layout.h"
#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/base/internal/transport.h"
#include "classic/base/internal/transport_error.h"
#include "classic/exec/internal/execution.h"
#include "classic/exec/internal/leftovers.h"
#include "classic/p2p/internal/completion.h"

namespace classic::internal {

Bound Execution::bind(const Plan::Message& message, MPI_Aint& staging) {
  const std::vector<Plan::Block>& blocks = message.blocks;
  if (blocks.empty()) return Bound{};
  if (blocks.size() == 1) {
    return Bound{address(blocks[0]), blocks[0].count, blocks[0].datatype, false,
                 -1};
  }
  const MPI_Aint bytes = packed_bytes(message);
  if (bytes <= pack_limit) {
    // Scratch has its final size (bind() sized it first).
    const Bound packed{scratch_.get() + staging,
                       static_cast<int>(bytes),
                       MPI_PACKED,
                       false,
                       staging,
                       packed_blocks_.size()};
    for (const Plan::Block& block : blocks) {
      const DatatypeLayout layout = datatype_layout(block.datatype, function_);
      const auto block_bytes = static_cast<int>(block.count * layout.size);
      packed_blocks_.push_back(contiguous(layout) ? block_bytes
                                                  : -1 - block_bytes);
    }
    staging += (bytes + 15) / 16 * 16;
    return packed;
  }
  const std::size_t n = blocks.size();
  std::vector<int> counts(n);
  std::vector<MPI_Aint> addresses(n);
  std::vector<MPI_Datatype> types(n);
  for (std::size_t i = 0; i < n; ++i) {
    counts[i] = blocks[i].count;
    transport::check_code(MPI_Get_address(address(blocks[i]), &addresses[i]),
                          function_);
    types[i] = blocks[i].datatype;
  }
  MPI_Datatype combined = MPI_DATATYPE_NULL;
  transport::check_code(
      MPI_Type_create_struct(static_cast<int>(n), counts.data(),
                             addresses.data(), types.data(), &combined),
      function_);
  transport::check_code(MPI_Type_commit(&combined), function_);
  return Bound{MPI_BOTTOM, 1, combined, true, -1};
}

// Packed bytes are the blocks' bytes in order, each block as MPI_Pack
// writes it (in a homogeneous job, Open MPI's only kind, the native bytes:
// so contiguous blocks go by memcpy). Sender and receiver agree on the
// split, as MPI makes each block's type signature equal on both sides; and
// MPI_PACKED matches any type signature, should the two sides bind one
// message differently.
void Execution::transfer_packed(const Plan::Message& message,
                                const Bound& bound, Packing direction) {
  auto* bytes_at = static_cast<std::byte*>(bound.address);
  int position = 0;
  const int* block_bytes = packed_blocks_.data() + bound.first_block;
  for (const Plan::Block& block : message.blocks) {
    const int entry = *block_bytes++;
    const bool packs = entry < 0;  // not one contiguous run: MPI_Pack
    const int bytes = packs ? -1 - entry : entry;
    if (bytes == 0) continue;  // (MPI_Pack refuses a null buffer)
    const bool into_bytes = direction == Packing::pack;
    if (!packs) {
      void* to = into_bytes ? bytes_at + position : address(block);
      const void* from = into_bytes ? address(block) : bytes_at + position;
      std::memcpy(to, from, static_cast<std::size_t>(bytes));
      position += bytes;
    } else if (into_bytes) {
      transport::check_code(
          MPI_Pack(address(block), block.count, block.datatype, bytes_at,
                   bound.count, &position, context_),
          function_);
    } else {
      transport::check_code(
          MPI_Unpack(bytes_at, bound.count, &position, address(block),
                     block.count, block.datatype, context_),
          function_);
    }
  }
}

[[gnu::hot]] void Execution::unpack(std::size_t round) {
  if (receives_.empty()) return;  // no message of several blocks
  const Plan::Round& plan = plan_->rounds[round];
  for (std::size_t i = 0; i < plan.receives.size(); ++i) {
    const Bound& bound = receives_[round][i];
    if (bound.staging < 0 || plan.receives[i].peer == proc_null) continue;
    transfer_packed(plan.receives[i], bound, Packing::unpack);
  }
}

void Execution::bind() {
  bound_ = true;  // free_types() now knows what to free, also after a throw
  bind_local_copies();
  bind_several_blocks();
  if (persistent_) make_started();
  if (keep_bound_) resolve_addresses();
}

void Execution::bind_local_copies() {
  if (!local_bytes_.empty()) return;
  const std::vector<Plan::Round>& rounds = plan_->rounds;
  local_bytes_.resize(rounds.size());
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    for (const Plan::Local& step : rounds[r].local) {
      local_bytes_[r].push_back(
          step.kind == Plan::Local::Kind::copy
              ? plain_copy_bytes(step.from.count, step.from.datatype,
                                 step.to.count, step.to.datatype, function_)
              : -1);
    }
  }
}

void Execution::resolve_addresses() {
  addresses_.assign(postings_->count, nullptr);
  for (const PostingList::Round& round : postings_->rounds) {
    std::size_t k = round.first;
    for (const auto* side : {&round.receives, &round.sends}) {
      for (const PostingList::Posting& p : *side) {
        if (p.single) addresses_[k] = address(p.space, p.displacement);
        ++k;
      }
    }
  }
}

void Execution::bind_several_blocks() {
  // Single blocks need no binding: the common case allocates nothing.
  if (!postings_->several_blocks) return;
  const std::vector<Plan::Round>& rounds = plan_->rounds;
  receives_.assign(rounds.size(), {});
  sends_.assign(rounds.size(), {});
  packed_blocks_.clear();
  // Packed messages take their bytes after the plan's own scratch. Scratch
  // gets its final size before anything is bound: struct datatypes hold
  // absolute addresses in it. (A fresh buffer: background sends of an
  // earlier run may hold the old one.)
  const MPI_Aint plan_scratch = (plan_->scratch_bytes + 15) / 16 * 16;
  MPI_Aint staging = plan_scratch;
  for (const Plan::Round& round : rounds) {
    for (const auto* side : {&round.receives, &round.sends}) {
      for (const Plan::Message& message : *side) {
        const MPI_Aint bytes = packed_bytes(message);
        if (message.blocks.size() > 1 && bytes <= pack_limit) {
          staging += (bytes + 15) / 16 * 16;
        }
      }
    }
  }
  if (staging > plan_scratch) {
    scratch_ = std::shared_ptr<std::byte[]>(
        new std::byte[static_cast<std::size_t>(staging)]);
  }
  staging = plan_scratch;
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    for (const Plan::Message& message : rounds[r].receives) {
      receives_[r].push_back(message.blocks.size() > 1 ? bind(message, staging)
                                                       : Bound{});
    }
    for (const Plan::Message& message : rounds[r].sends) {
      sends_[r].push_back(message.blocks.size() > 1 ? bind(message, staging)
                                                    : Bound{});
    }
  }
}

void Execution::make_started() {
  const std::vector<Plan::Round>& rounds = plan_->rounds;
  const auto wanted = [this](const Plan::Message& message) {
    return message.peer != proc_null && !message.blocks.empty() &&
           packed_bytes(message) >= started_limit;
  };
  const auto any_wanted = [&](const Plan::Round& round) {
    return std::ranges::any_of(round.receives, wanted) ||
           std::ranges::any_of(round.sends, wanted);
  };
  if (!std::ranges::any_of(rounds, any_wanted)) return;
  started_receives_.assign(rounds.size(), {});
  started_sends_.assign(rounds.size(), {});
  // Each handle is stored as soon as it exists, so that free_types()
  // frees it should a later one fail.
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    started_receives_[r].assign(rounds[r].receives.size(), MPI_REQUEST_NULL);
    started_sends_[r].assign(rounds[r].sends.size(), MPI_REQUEST_NULL);
    for (std::size_t i = 0; i < rounds[r].receives.size(); ++i) {
      const Plan::Message& message = rounds[r].receives[i];
      if (!wanted(message)) continue;
      const Bound b = bound(r, true, i);
      transport::check_code(
          MPI_Recv_init(b.address, b.count, b.datatype, transport_rank(message),
                        tag_base_ + message.tag, context_,
                        &started_receives_[r][i]),
          function_);
    }
    for (std::size_t i = 0; i < rounds[r].sends.size(); ++i) {
      const Plan::Message& message = rounds[r].sends[i];
      if (!wanted(message)) continue;
      const Bound b = bound(r, false, i);
      transport::check_code(
          MPI_Send_init(b.address, b.count, b.datatype, transport_rank(message),
                        tag_base_ + message.tag, context_,
                        &started_sends_[r][i]),
          function_);
    }
  }
}

MPI_Aint Execution::packed_bytes(const Plan::Message& message) const {
  MPI_Aint bytes = 0;
  for (const Plan::Block& block : message.blocks) {
    bytes += block.count * datatype_layout(block.datatype, function_).size;
  }
  return bytes;
}

void Execution::free_types() noexcept {
  if (!bound_) return;
  addresses_.clear();
  if (receives_.empty() && sends_.empty() && started_receives_.empty() &&
      started_sends_.empty()) [[likely]] {
    bound_ = false;  // single blocks posted afresh: nothing was made
    return;
  }
  for (auto* side : {&receives_, &sends_}) {
    for (std::vector<Bound>& round : *side) {
      for (Bound& bound : round) {
        if (bound.derived && Environment::active()) {
          MPI_Type_free(&bound.datatype);
        }
      }
    }
  }
  receives_.clear();
  sends_.clear();
  packed_blocks_.clear();
  for (auto* side : {&started_receives_, &started_sends_}) {
    for (std::vector<MPI_Request>& round : *side) {
      for (MPI_Request& request : round) {
        if (request != MPI_REQUEST_NULL && Environment::active()) {
          MPI_Request_free(&request);
        }
      }
    }
    side->clear();
  }
  bound_ = false;
}

}  // namespace classic::internal
