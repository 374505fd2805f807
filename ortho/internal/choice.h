// Which algorithm runs one operation on a communicator, by block size and
// mode: per mode, one list of steps, each naming the algorithm from its
// block size on. The table (internal/table.h) holds one per operation;
// set when the table is made, read by the dispatch at every call.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_CHOICE_H_
#define ORTHOCOMM_ORTHO_INTERNAL_CHOICE_H_

#include <array>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/call.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho {

struct Table;

// An algorithm: a name (what ORTHO_ALGORITHM and set_algorithm say) and the
// function that runs a call with it.
struct Algorithm {
  using Run = classic::Request (*)(const classic::Comm& comm,
                                   const Table& table, const Call& call);
  std::string_view name;
  Run run = nullptr;
  friend bool operator==(const Algorithm& a, const Algorithm& b) {
    return a.name == b.name && a.run == b.run;
  }
};

// The modelled time in ns of one call of an operation on a table, by mode
// and block size; none where the algorithm does not compete for the
// default there (another mode, a size beyond its model, no model on this
// table). Made once per table and operation by the algorithm's
// registration (algorithms/registry.h; it may hold what it precomputed).
using Pricer = std::function<std::optional<double>(classic::Mode mode,
                                                   std::size_t block_bytes)>;

// One algorithm weighed for one operation by the chooser
// (internal/choose.h), as the table keeps it for ortho::explain.
struct Candidate {
  Algorithm algorithm;
  Pricer price;
  // Taken where its price ties with another's (direct, native).
  bool baseline = false;
  // Unpriced, yet measured where the chooser tunes (internal/tuning.h).
  bool measured = false;

  // The price, none where the candidate has no Pricer (measured only).
  std::optional<double> price_at(classic::Mode mode, std::size_t bytes) const {
    return price ? price(mode, bytes) : std::nullopt;
  }
};

inline constexpr std::size_t kModeCount = 3;
inline constexpr std::array<classic::Mode, kModeCount> kAllModes = {
    classic::Mode::blocking, classic::Mode::nonblocking,
    classic::Mode::persistent};

struct Choice {
  static constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();

  // `algorithm` for blocks of `from_bytes` bytes and more, up to the next
  // step's size.
  struct Step {
    std::size_t from_bytes = 0;
    Algorithm algorithm;
    friend bool operator==(const Step&, const Step&) = default;
  };
  // In increasing from_bytes, the first from 0; empty where the operation
  // is undefined on the structure.
  using Steps = std::vector<Step>;

  // Per mode (classic::Mode's order), its steps.
  std::array<Steps, kModeCount> steps{};
  // The block sizes of one call may differ between processes (alltoallv,
  // alltoallw): the dispatch agrees on the largest (a maximum over the
  // communicator) before a size-aware selection, so that all choose alike.
  bool agreed_size = false;

  // `algorithm` for every block size and mode.
  static Choice only(const Algorithm& algorithm) {
    Choice choice;
    for (Steps& mode : choice.steps) mode = {{0, algorithm}};
    return choice;
  }

  Steps& in(classic::Mode mode) {
    return steps[static_cast<std::size_t>(mode)];
  }
  const Steps& in(classic::Mode mode) const {
    return steps[static_cast<std::size_t>(mode)];
  }

  // `algorithm` in `modes` for blocks of up to `up_to_bytes` bytes, the
  // mode's earlier steps above (kNever: at every size).
  void take_up_to(const Algorithm& algorithm, std::size_t up_to_bytes,
                  std::initializer_list<classic::Mode> modes = {
                      classic::Mode::blocking, classic::Mode::nonblocking,
                      classic::Mode::persistent});
  // `algorithm` in `modes` for blocks of `from_bytes` bytes and more, the
  // mode's earlier steps below.
  void take_from(const Algorithm& algorithm, std::size_t from_bytes,
                 std::initializer_list<classic::Mode> modes = {
                     classic::Mode::blocking, classic::Mode::nonblocking,
                     classic::Mode::persistent});

  friend bool operator==(const Choice&, const Choice&) = default;

  bool defined() const { return !steps.front().empty(); }
  // One algorithm for every size and mode (the dispatch then skips
  // computing the block size).
  bool fixed() const;
  // Whether the selection in `mode` depends on the block size.
  bool sized(classic::Mode mode) const { return in(mode).size() > 1; }
  // The algorithm for every call where fixed().
  const Algorithm& any() const { return steps.front().front().algorithm; }
  const Algorithm& select(std::size_t block_bytes,
                          classic::Mode mode = classic::Mode::blocking) const;
};

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_INTERNAL_CHOICE_H_
