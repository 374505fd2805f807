// Where the cost models' prices cross (MPI-free): the block sizes up to
// which one algorithm is modelled cheaper than another. The chooser does
// not need them (internal/choose.h takes the cheapest price at every size);
// they state the models' choices as numbers, for the tests that keep the
// measured crossovers as points and for experiments/
// node_aware_analysis_benchmark. Not part of the ortho library.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_MODEL_CROSSOVERS_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_MODEL_CROSSOVERS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ortho/algorithms/combining/combining_loads.h"
#include "ortho/algorithms/common_neighbours/common_neighbours_routes.h"
#include "ortho/algorithms/cost_model.h"
#include "ortho/algorithms/node_aware/node_aware_routes.h"
#include "ortho/algorithms/node_aware_model.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho::algorithms {

// The largest block size, at most `most_bytes`, up to which `mine` costs
// less than `direct` at every size (0 and up) on the single-host model;
// none where it does not even on empty blocks.
std::optional<std::size_t> cheaper_up_to(const Prices& prices,
                                         const Traffic& direct,
                                         const Traffic& mine,
                                         std::size_t most_bytes);

// The largest block size, at most `most_bytes`, up to which node_aware is
// modelled faster than direct on `graph` with `payload`; none where it is
// not even on empty blocks.
std::optional<std::size_t> node_aware_up_to(const node_routes::HostGraph& graph,
                                            node_routes::Payload payload,
                                            const HostPrices& prices,
                                            std::size_t most_bytes);

// The largest block size, at most `most_bytes`, up to which
// common_neighbours with `grouping` is modelled faster than direct and,
// where node_aware would run (blocks up to `node_aware_up_to`), than
// node_aware; none where it is not even on empty blocks.
std::optional<std::size_t> common_neighbours_up_to(
    const node_routes::HostGraph& graph,
    const common_routes::Grouping& grouping, node_routes::Payload payload,
    const HostPrices& prices, std::optional<std::size_t> node_aware_up_to,
    std::size_t most_bytes);

// node_aware, message combining and direct on one scale, for a stencil whose
// combining schedule has `rounds`: the fastest of the three at each block
// size up to `most_bytes` (combining only up to `combining_most_bytes`, and
// against node_aware by kCombiningShareOfNodeAware), as
// steps in increasing size: steps[i].fastest up to steps[i].up_to bytes
// (the last step's to most_bytes, and beyond). Sizes are told apart to
// within a byte where the model's times cross, and at least at every
// power of two.
enum class Fastest : std::uint8_t { direct, node_aware, combining };
struct FastestStep {
  std::size_t up_to = 0;
  Fastest fastest = Fastest::direct;
  friend bool operator==(const FastestStep&, const FastestStep&) = default;
};
std::vector<FastestStep> fastest_steps(const node_routes::HostGraph& graph,
                                       node_routes::Payload payload,
                                       const combining_loads::Rounds& rounds,
                                       const HostPrices& prices,
                                       std::size_t split_eager_bytes,
                                       std::size_t most_bytes,
                                       std::size_t combining_most_bytes);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_MODEL_CROSSOVERS_H_
