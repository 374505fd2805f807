#include "ortho/algorithms/combining.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/datatype_layout.h"
#include "classic/base/error.h"
#include "classic/base/transport_settings.h"
#include "classic/collectives/collectives.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/graph_plans.h"
#include "ortho/algorithms/registry.h"
#include "ortho/internal/exchange.h"
#include "stencils/neighborhood.h"

namespace ortho::algorithms {
namespace {

using classic::Plan;
using Space = Plan::Space;
using stencils::Location;
using stencils::SlotKind;

// Where the blocks of one call lie: slot strides of the caller's buffers
// (one block per neighbour) and of the scratch slots of relayed blocks.
struct Layout {
  Elements send;
  Elements recv;
  MPI_Aint send_stride = 0;  // alltoall: bytes between send blocks
  MPI_Aint recv_stride = 0;
  MPI_Aint temp_stride = 0;
  MPI_Aint temp_shift = 0;  // -true_lower_bound of the receive type
  // Blocks of their own size and datatype, where a call has them: the
  // receive block of each source and the send block of each destination,
  // in the caller's order, and the block of each scratch slot.
  std::vector<Plan::Block> recv_blocks;
  std::vector<Plan::Block> send_blocks;
  std::vector<Plan::Block> temp_blocks;
};

Layout layout_of(Elements send, Elements recv, const char* function) {
  const classic::DatatypeLayout s =
      classic::datatype_layout(send.datatype, function);
  const classic::DatatypeLayout r =
      classic::datatype_layout(recv.datatype, function);
  const MPI_Aint span =
      recv.count == 0 ? 0 : (recv.count - 1) * r.extent + r.true_extent;
  return {.send = send,
          .recv = recv,
          .send_stride = send.count * s.extent,
          .recv_stride = recv.count * r.extent,
          .temp_stride = (span + 15) / 16 * 16,
          .temp_shift = -r.true_lower_bound,
          .recv_blocks = {},
          .send_blocks = {},
          .temp_blocks = {}};
}

// Compiles one schedule into a plan for this process and one call shape.
template <stencils::Collective kind>
class PlanBuilder {
 public:
  PlanBuilder(const Combining& c, const stencils::Schedule<kind>& schedule,
              const Layout& layout)
      : c_(c), schedule_(schedule), layout_(layout) {}

  Plan build() const {
    Plan plan;
    plan.scratch_bytes =
        static_cast<MPI_Aint>(schedule_.temp_slots) * layout_.temp_stride;
    if (c_.rank >= c_.geometry.size()) return plan;  // off the grid: nothing
    for (const stencils::Round& round : schedule_.rounds) {
      Plan::Round& step = plan.rounds.emplace_back();
      for (std::size_t m = 0; m < round.messages.size(); ++m) {
        add_message(step, round.messages[m], static_cast<int>(m));
      }
    }
    if (plan.rounds.empty()) plan.rounds.emplace_back();
    for (const stencils::BlockMove& move : schedule_.local_copies) {
      if (!stencils::move_active(c_.geometry, c_.rank, move)) continue;
      plan.rounds.back().local.push_back({.kind = Plan::Local::Kind::copy,
                                          .from = block(move.from),
                                          .to = block(move.to)});
    }
    return plan;
  }

 private:
  void add_message(Plan::Round& step, const stencils::Message& message,
                   int tag) const {
    std::vector<int> back(message.hop.size());
    std::transform(message.hop.begin(), message.hop.end(), back.begin(),
                   [](int h) { return -h; });
    const int to = c_.geometry.relative_rank(c_.rank, message.hop);
    const int from = c_.geometry.relative_rank(c_.rank, back);
    if (to != classic::proc_null) {
      Plan::Message send{.peer = to, .tag = tag, .blocks = {}};
      for (const stencils::BlockMove& move : message.moves) {
        if (stencils::move_active(c_.geometry, c_.rank, move)) {
          send.blocks.push_back(block(move.from));
        }
      }
      if (!send.blocks.empty()) step.sends.push_back(std::move(send));
    }
    if (from != classic::proc_null) {
      Plan::Message receive{.peer = from, .tag = tag, .blocks = {}};
      for (const stencils::BlockMove& move : message.moves) {
        if (stencils::move_active(c_.geometry, from, move)) {
          receive.blocks.push_back(block(move.to));
        }
      }
      if (!receive.blocks.empty()) step.receives.push_back(std::move(receive));
    }
  }

  Plan::Block block(const Location& location) const {
    const auto slot = static_cast<std::size_t>(location.index);
    switch (location.kind) {
      case SlotKind::send: {
        if (!layout_.send_blocks.empty()) {
          return layout_.send_blocks[static_cast<std::size_t>(
              c_.neighborhood.target_slots[slot])];
        }
        const MPI_Aint position =
            kind == stencils::Collective::allgather
                ? 0
                : c_.neighborhood.target_slots[slot] * layout_.send_stride;
        return {.space = Space::send,
                .displacement = position,
                .count = layout_.send.count,
                .datatype = layout_.send.datatype};
      }
      case SlotKind::receive:
        if (!layout_.recv_blocks.empty()) {
          return layout_.recv_blocks[static_cast<std::size_t>(
              c_.neighborhood.source_slots[slot])];
        }
        return {.space = Space::recv,
                .displacement =
                    c_.neighborhood.source_slots[slot] * layout_.recv_stride,
                .count = layout_.recv.count,
                .datatype = layout_.recv.datatype};
      case SlotKind::temp:
        if (!layout_.temp_blocks.empty()) return layout_.temp_blocks[slot];
        break;
    }
    return {.space = Space::scratch,
            .displacement = static_cast<MPI_Aint>(slot) * layout_.temp_stride +
                            layout_.temp_shift,
            .count = layout_.recv.count,
            .datatype = layout_.recv.datatype};
  }

  const Combining& c_;
  const stencils::Schedule<kind>& schedule_;
  const Layout& layout_;
};

template <stencils::Collective kind>
Traffic traffic_of(const stencils::Schedule<kind>& schedule) {
  Traffic traffic;
  traffic.rounds = static_cast<int>(schedule.rounds.size());
  for (const stencils::Round& round : schedule.rounds) {
    traffic.messages += static_cast<int>(round.messages.size());
    for (const stencils::Message& message : round.messages) {
      const auto blocks = static_cast<int>(message.moves.size());
      traffic.blocks += blocks;
      if (blocks > 1) traffic.packed_blocks += blocks;
      traffic.largest_message_blocks =
          std::max(traffic.largest_message_blocks, blocks);
    }
  }
  return traffic;
}

// Counts and datatypes of a typed call, checked against the spans.
Call raw_counts(const Call& typed, const Table& table, const Checks& check) {
  Call c = typed;
  c.form = Form::raw;
  const std::size_t in = table.sources.size();
  const std::size_t out = table.destinations.size();
  int count = check.size_of(c.send.elements);
  if (c.operation == Operation::alltoall) {
    count = out > 0 ? check.per_block(c.send.elements, out, "send")
                    : check.per_block(c.recv.elements, in, "recv");
  }
  check.holds(c.recv.elements, in * static_cast<std::size_t>(count), "recv");
  c.send.count = count;
  c.recv.count = count;
  return c;
}

classic::Request run(const classic::Comm& comm, const Table& table,
                     const Call& call) {
  const Checks check(comm, call);
  const Call c =
      call.form == Form::typed ? raw_counts(call, table, check) : call;
  check.elements(c.send.count, c.send.datatype, "send_count", "send_type");
  check.elements(c.recv.count, c.recv.datatype, "recv_count", "recv_type");
  check.not_in_place(c.send.data, "send", "(no in-place form on a graph)");
  check.not_in_place(c.recv.data, "recv", "(no in-place form on a graph)");
  const Combining& combining = *table.combining;
  const bool gather = c.operation == Operation::allgather;
  const PlanCache::Shape shape{c.send.count, c.send.datatype, c.recv.count,
                               c.recv.datatype, MPI_OP_NULL};
  const bool cacheable =
      classic::datatype_layout(c.send.datatype, c.function()).predefined &&
      classic::datatype_layout(c.recv.datatype, c.function()).predefined;
  const auto build = [&] {
    const Layout layout =
        layout_of({c.send.count, c.send.datatype},
                  {c.recv.count, c.recv.datatype}, c.function());
    return gather ? PlanBuilder(combining, combining.allgather, layout).build()
                  : PlanBuilder(combining, combining.alltoall, layout).build();
  };
  const PlanCache& cache =
      gather ? combining.allgather_plans : combining.alltoall_plans;
  return classic::execute(comm, cache.get(shape, cacheable, build),
                          {c.send.data, c.recv.data}, c.mode, c.function());
}

// allgatherv and allgatherw: the allgather schedule with a block of its
// own size and datatype per source. Relays forward blocks from their own
// receive slots, whose sizes MPI makes equal to the sender's.
classic::Request run_gather_blocks(const classic::Comm& comm,
                                   const Table& table, const Call& call) {
  const Checks check(comm, call);
  const std::size_t in = table.sources.size();
  Call c = call;
  if (c.form == Form::typed) {
    c.send.count = check.size_of(c.send.elements);
    check.inside(c.recv.counts, c.recv.displs, c.recv.elements, "recv");
  }
  check.elements(c.send.count, c.send.datatype, "send_count", "send_type");
  check.not_in_place(c.send.data, "send", "(no in-place form on a graph)");
  check.not_in_place(c.recv.data, "recv", "(no in-place form on a graph)");
  check.length(c.recv.counts.size(), in, "recvcounts", "indegree");
  check.counts(c.recv.counts, "recvcounts");
  const bool w = c.operation == Operation::allgatherw;
  if (w) {
    check.length(c.recv.byte_displs.size(), in, "rdispls", "indegree");
    check.length(c.recv.datatypes.size(), in, "recv_types", "indegree");
    check.datatypes(c.recv.datatypes, "recv_types");
  } else {
    check.length(c.recv.displs.size(), in, "displs", "indegree");
    check.datatype(c.recv.datatype, "recv_type");
  }
  Layout layout = layout_of({c.send.count, c.send.datatype},
                            {0, w ? MPI_BYTE : c.recv.datatype}, c.function());
  const MPI_Aint extent =
      w ? 1 : classic::datatype_layout(c.recv.datatype, c.function()).extent;
  for (std::size_t i = 0; i < in; ++i) {
    layout.recv_blocks.push_back(
        {.space = Space::recv,
         .displacement = w ? c.recv.byte_displs[i] : c.recv.displs[i] * extent,
         .count = c.recv.counts[i],
         .datatype = w ? c.recv.datatypes[i] : c.recv.datatype});
  }
  const Combining& combining = *table.combining;
  auto plan = std::make_shared<const Plan>(
      PlanBuilder(combining, combining.allgather, layout).build());
  return classic::execute(comm, std::move(plan), {c.send.data, c.recv.data},
                          c.mode, c.function());
}

// The bytes of a block's data (its type signature's size).
std::int64_t bytes_of(const Plan::Block& block, const char* function) {
  return std::int64_t{block.count} *
         classic::datatype_layout(block.datatype, function).size;
}

// Runs the alltoall schedule over one int64 per block: every process
// learns the byte size of each block it receives (in the caller's source
// order, first) and of each block it relays (after them, per scratch
// slot). Blocking.
std::vector<std::int64_t> exchange_sizes(const classic::Comm& comm,
                                         const Combining& combining,
                                         const Exchange& blocks,
                                         const char* function) {
  std::vector<std::int64_t> sent(blocks.send.size());
  std::transform(
      blocks.send.begin(), blocks.send.end(), sent.begin(),
      [function](const Plan::Block& b) { return bytes_of(b, function); });
  const std::size_t in = blocks.recv.size();
  const auto temps = static_cast<std::size_t>(combining.alltoall.temp_slots);
  std::vector<std::int64_t> sizes(in + temps, 0);
  // The same plan for every call (one int64 a block): built once.
  const auto build = [&] {
    Layout layout = layout_of({1, MPI_INT64_T}, {1, MPI_INT64_T}, function);
    for (std::size_t t = 0; t < temps; ++t) {
      layout.temp_blocks.push_back({.space = Space::recv,
                                    .displacement = static_cast<MPI_Aint>(
                                        (in + t) * sizeof(std::int64_t)),
                                    .count = 1,
                                    .datatype = MPI_INT64_T});
    }
    Plan plan = PlanBuilder(combining, combining.alltoall, layout).build();
    plan.scratch_bytes = 0;
    return plan;
  };
  const PlanCache::Shape shape{1, MPI_INT64_T, 1, MPI_INT64_T, MPI_OP_NULL};
  // Blocking: complete on return, the request null.
  (void)classic::execute(comm, combining.size_plans.get(shape, true, build),
                         {sent.data(), sizes.data()}, classic::Mode::blocking,
                         function);
  return sizes;
}

// alltoallv and alltoallw: the alltoall schedule with each block its own
// size and datatype. A relay cannot know the sizes of the blocks it
// forwards (MPI tells a process the sizes of its own blocks only), so the
// schedule first carries every block's byte size, then the blocks. Relayed
// blocks wait in scratch as bytes and travel as MPI_PACKED, which matches
// any type signature (MPI-1, 3.13; the packed form is the native one in a
// homogeneous job, Open MPI's case). The size exchange blocks: in
// persistent mode once, at initialisation (the selected case); in the other
// modes at every call, which the non-blocking form therefore waits for.
classic::Request run_exchange_blocks(const classic::Comm& comm,
                                     const Table& table, const Call& call) {
  const Checks check(comm, call);
  const char* function = call.function();
  const Exchange blocks = normalise(table, call, check);
  const Combining& combining = *table.combining;
  const std::vector<std::int64_t> sizes =
      exchange_sizes(comm, combining, blocks, function);
  for (std::size_t j = 0; j < blocks.recv.size(); ++j) {
    const std::int64_t room = bytes_of(blocks.recv[j], function);
    if (sizes[j] > room) {
      throw classic::Error(classic::ErrorClass::truncate, function,
                           "the block from source " + std::to_string(j) +
                               " (rank " + std::to_string(table.sources[j]) +
                               ") has " + std::to_string(sizes[j]) +
                               " bytes; receive block " + std::to_string(j) +
                               " holds " + std::to_string(room));
    }
  }
  Layout layout = layout_of({0, MPI_BYTE}, {0, MPI_BYTE}, function);
  layout.send_blocks = blocks.send;
  layout.recv_blocks = blocks.recv;
  MPI_Aint scratch = 0;
  for (std::size_t t = blocks.recv.size(); t < sizes.size(); ++t) {
    if (sizes[t] > std::numeric_limits<int>::max()) {
      throw classic::Error(classic::ErrorClass::count, function,
                           "a relayed block of " + std::to_string(sizes[t]) +
                               " bytes exceeds what one count can describe");
    }
    layout.temp_blocks.push_back({.space = Space::scratch,
                                  .displacement = scratch,
                                  .count = static_cast<int>(sizes[t]),
                                  .datatype = MPI_PACKED});
    scratch += (static_cast<MPI_Aint>(sizes[t]) + 15) / 16 * 16;
  }
  Plan plan = PlanBuilder(combining, combining.alltoall, layout).build();
  plan.scratch_bytes = scratch;
  return classic::execute(comm, std::make_shared<const Plan>(std::move(plan)),
                          {call.send.data, call.recv.data}, call.mode,
                          function);
}

// `ranks` without its proc_null entries; `kept` gets the index in `ranks`
// of each entry kept.
std::vector<int> without_proc_null(std::span<const int> ranks,
                                   std::vector<int>& kept) {
  std::vector<int> out;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] == classic::proc_null) continue;
    out.push_back(ranks[i]);
    kept.push_back(static_cast<int>(i));
  }
  return out;
}

// The stencil's offsets, canonical, sorted (a multiset).
std::vector<std::vector<int>> sorted_offsets(const naming::Geometry& geometry,
                                             const stencils::Stencil& stencil) {
  std::vector<std::vector<int>> offsets;
  offsets.reserve(static_cast<std::size_t>(stencil.size()));
  for (int i = 0; i < stencil.size(); ++i) {
    offsets.push_back(geometry.canonical_offset(stencil.offset(i)));
  }
  std::sort(offsets.begin(), offsets.end());
  return offsets;
}

// r where targets and sources are both the Moore box of depth r without
// its centre (up to the torus's wrapping), 0 otherwise.
int box_depth_of(const naming::Geometry& geometry,
                 const stencils::Stencil& targets,
                 const stencils::Stencil& sources) {
  const int d = geometry.ndims();
  if (d == 0 || targets.empty()) return 0;
  // (2r + 1)^d - 1 offsets.
  for (int r = 1; r <= 8; ++r) {
    int box = 1;
    for (int k = 0; k < d; ++k) box *= 2 * r + 1;
    if (box - 1 > targets.size()) return 0;
    if (box - 1 < targets.size()) continue;
    const auto want = sorted_offsets(
        geometry, stencils::cart_stencil(d, stencils::Metric::chebyshev, 1, r));
    return sorted_offsets(geometry, targets) == want &&
                   sorted_offsets(geometry, sources) == want
               ? r
               : 0;
  }
  return 0;
}

}  // namespace

Traffic combining_traffic(const Combining& combining,
                          stencils::Collective collective) {
  return collective == stencils::Collective::allgather
             ? traffic_of(combining.allgather)
             : traffic_of(combining.alltoall);
}

Traffic direct_traffic(const Combining& combining) {
  const int neighbours = combining.neighborhood.targets.size();
  return {.messages = neighbours,
          .blocks = neighbours,
          .rounds = 1,
          .packed_blocks = 0,
          .largest_message_blocks = 1,
          .reduced_blocks = 0};
}

Traffic box_allreduce_traffic(const Combining& combining) {
  const int d = combining.geometry.ndims();
  const int messages = 2 * combining.box_depth * d;
  return {.messages = messages,
          .blocks = messages,
          .rounds = d,
          .packed_blocks = 0,
          .largest_message_blocks = 1,
          .reduced_blocks = messages};
}

std::shared_ptr<const Combining> detect_combining(
    const classic::Comm& graph, const naming::Geometry& geometry,
    std::span<const int> destinations, std::span<const int> sources,
    std::span<const int> source_order) {
  // The detection takes ranks only; proc_null entries (the borders of a
  // classic Cartesian topology) keep their slots in the caller's lists.
  std::vector<int> kept_destinations;
  std::vector<int> kept_sources;
  const std::vector<int> targets =
      without_proc_null(destinations, kept_destinations);
  std::vector<int> ordered(sources.size());
  std::vector<int> order(sources.size());
  for (std::size_t j = 0; j < order.size(); ++j) {
    order[j] = source_order.empty() ? static_cast<int>(j) : source_order[j];
    ordered[j] = sources[static_cast<std::size_t>(order[j])];
  }
  const std::vector<int> origins = without_proc_null(ordered, kept_sources);
  for (int& index : kept_sources) {
    index = order[static_cast<std::size_t>(index)];
  }
  std::optional<stencils::CartesianNeighborhood> found =
      stencils::detect_cartesian(graph, geometry, targets, origins);
  if (!found) return nullptr;
  for (int& slot : found->target_slots) {
    if (slot >= 0) slot = kept_destinations[static_cast<std::size_t>(slot)];
  }
  for (int& slot : found->source_slots) {
    if (slot >= 0) slot = kept_sources[static_cast<std::size_t>(slot)];
  }
  auto allgather =
      stencils::allgather_schedule(geometry, found->targets, found->sources);
  auto alltoall =
      stencils::alltoall_schedule(geometry, found->targets, found->sources);
  const int box_depth = box_depth_of(geometry, found->targets, found->sources);
  auto combining = std::make_shared<Combining>(
      geometry, std::move(*found), std::move(allgather), std::move(alltoall),
      graph.rank(), box_depth);
  combining->prices = agreed_prices(graph);
  return combining;
}

namespace {

// An integer environment variable of Open MPI's launcher; 0 where unset.
double launcher_count(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? 0 : std::atof(value);
}

}  // namespace

Prices agreed_prices(const classic::Comm& graph) {
  const double local = launcher_count("OMPI_COMM_WORLD_LOCAL_SIZE");
  const double world = launcher_count("OMPI_COMM_WORLD_SIZE");
  const double cores = std::max(1u, std::thread::hardware_concurrency());
  const bool several_hosts = local > 0 && local < world;
  const std::array<double, 2> mine{
      std::max(1.0, local) / cores,
      transport_of(classic::transport_setting("btl"), several_hosts) ==
              Transport::network
          ? 1.0
          : 0.0};
  std::array<double, 2> most{};
  classic::allreduce(graph, std::span<const double>(mine),
                     std::span<double>(most), MPI_MAX);
  return prices_for(most[1] > 0 ? Transport::network : Transport::shared_memory,
                    most[0]);
}

namespace {

// Cartesian stencils (Table::combining): allgather and alltoall combine
// up to the block size where the cost model prices combining cheaper than
// direct (ortho/algorithms/cost_model.h), alltoallv and alltoallw when
// persistent, allgatherv and allgatherw where allgather does.
void adopt(Table& table) {
  if (!table.combining) return;
  const Combining& c = *table.combining;
  const Traffic direct = direct_traffic(c);
  for (const auto& [operation, collective] :
       {std::pair{Operation::allgather, stencils::Collective::allgather},
        std::pair{Operation::alltoall, stencils::Collective::alltoall}}) {
    table.offer(operation, algorithms::combining());
    const std::optional<std::size_t> limit =
        cheaper_up_to(c.prices, direct, combining_traffic(c, collective),
                      kMostCombinedBlockBytes);
    if (!limit) continue;  // nothing to gain
    Choice choice;
    choice.primary = algorithms::combining();
    choice.alternative = table.choice(operation).primary;
    choice.crossover_bytes = *limit;
    table.choice(operation) = choice;
  }
  // alltoallv and alltoallw pay for a size exchange first, and their block
  // sizes differ between processes, so a size-aware choice agrees on the
  // largest block before choosing. Persistent calls pay both once, at
  // initialisation, and take combining up to alltoall's crossover. The
  // other modes would pay them at every call: measured over TCP loopback
  // (combining_benchmark, 4 processes), the schedule run twice beat direct
  // by 10-20 %, and the agreement (an allreduce) took that and more; they
  // stay direct.
  const std::optional<std::size_t> persistent_limit = cheaper_up_to(
      c.prices, direct, combining_traffic(c, stencils::Collective::alltoall),
      kMostCombinedBlockBytes);
  for (Operation operation : {Operation::alltoallv, Operation::alltoallw}) {
    table.offer(operation, exchange_blocks());
    if (!persistent_limit) continue;
    Choice& choice = table.choice(operation);
    choice.alternative = choice.primary;
    choice.persistent = exchange_blocks();
    choice.persistent_crossover_bytes = *persistent_limit;
    choice.agreed_size = true;
  }
  // allgatherv and allgatherw follow allgather where no block waits in
  // scratch (the relay trees forward from receive slots).
  const bool gathers_from_slots = table.combining->allgather.temp_slots == 0;
  for (Operation operation : {Operation::allgatherv, Operation::allgatherw}) {
    if (gathers_from_slots) table.offer(operation, gather_blocks());
  }
  const Choice& allgather = table.choice(Operation::allgather);
  if (allgather.primary == algorithms::combining() && gathers_from_slots) {
    for (Operation operation : {Operation::allgatherv, Operation::allgatherw}) {
      Choice choice;
      choice.primary = gather_blocks();
      choice.alternative = table.choice(operation).primary;
      table.choice(operation) = choice;
    }
  }
}

}  // namespace

extern constinit const Registration kCombining{{"combining", &run}, &adopt};

const Algorithm& gather_blocks() {
  static constexpr Algorithm kGatherBlocks{"combining", &run_gather_blocks};
  return kGatherBlocks;
}

const Algorithm& exchange_blocks() {
  static constexpr Algorithm kExchangeBlocks{"combining", &run_exchange_blocks};
  return kExchangeBlocks;
}

const Algorithm& combining() { return kCombining.algorithm; }

}  // namespace ortho::algorithms
