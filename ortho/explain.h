// Why an ortho collective runs the algorithm it runs: for a communicator,
// an operation, a block size and a mode, every algorithm offered with its
// modelled price, the one selected, and the reason (the lowest price, an
// override, or the only one offered). The chooser's own data, read back:
// what `ortho::selected_algorithm` names, explained.
#ifndef ORTHOCOMM_ORTHO_EXPLAIN_H_
#define ORTHOCOMM_ORTHO_EXPLAIN_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "ortho/operation.h"
#include "ortho/reverse.h"

namespace ortho {

struct Explanation {
  Operation operation = Operation::barrier;
  std::size_t block_bytes = 0;
  classic::Mode mode = classic::Mode::blocking;
  // Whether it explains a directed graph's reverse (ortho/reverse.h).
  bool reverse = false;
  // The block size the prices below are for: block_bytes, or 0 where the
  // choice does not go by size (the v and w forms outside persistent mode,
  // whose blocks differ between processes).
  std::size_t priced_bytes = 0;
  // The model every price is on: "host model (N hosts)", "single-host
  // model", or "none" (only the baseline competes).
  std::string scale;
  // The prices the model is stated in: "built-in prices" or "machine file
  // PATH (NAME)" where ORTHO_MACHINE names one (experiments/simulate/
  // machines/ has some; docs/simulation.md says how to make one).
  std::string prices;
  struct Offered {
    std::string algorithm;
    // The modelled time of one call in ns at priced_bytes; none where the
    // algorithm does not compete for the default at this size and mode (it
    // can still be forced).
    std::optional<double> modelled_ns;
    // Where tuning measured it for this operation, mode and size band: its
    // time in ns at the slowest process (internal/tuning.h).
    std::optional<double> measured_ns;
  };
  // Every algorithm offered for the operation on this communicator, in
  // increasing price (unpriced last, by name).
  std::vector<Offered> offered;
  // Where tuning measured: what its calls took beyond the winner's time
  // (ns): over the candidates, the calls each ran times its measured time
  // less the winner's (one candidate may have measured faster than a
  // model's choice kept within the margin, and counts below 0), and the
  // barrier that begins each blocking turn (what the process that came
  // last waited in it). 0 where the decision came from ORTHO_WISDOM, which
  // measures no call.
  std::optional<double> tuning_cost_ns;
  // What runs ("" where the operation is undefined on the structure).
  std::string selected;
  // Why: "measured: fastest of N"; "measured: a baseline, within 5 % of
  // the fastest of N" (a candidate measured faster, but not by enough to
  // displace the plain exchange, ortho's direct or the transport's own:
  // per-call times on a loaded machine are noisy); "measured: the model's
  // choice, within 5 % of the fastest of N" (likewise, where the model's
  // choice leads the race: on one host, when it is no baseline;
  // internal/tuning_race.h); each with "measured (ORTHO_WISDOM): " where
  // the wisdom file held the measurement; "lowest modelled price";
  // "forced (ORTHO_ALGORITHM or ortho::set_algorithm)"; "the only
  // algorithm offered"; or "undefined". Blocking calls and persistent
  // requests are measured by their first calls or starts (ORTHO_TUNE);
  // until then, and for non-blocking calls, the model's choice is given.
  std::string reason;
};

// The explanation for `operation` on `comm` (or a graph's reverse,
// ortho::reverse(graph)) with blocks of `block_bytes` bytes in `mode`.
// Local (the table must exist: collective if it is made now, as for any
// first ortho call on comm). Throws classic::Error: comm for a null or
// freed communicator, topology for the reverse of a communicator that is
// no directed graph.
Explanation explain(ExchangeComm comm, Operation operation,
                    std::size_t block_bytes = 0,
                    classic::Mode mode = classic::Mode::blocking);

// One line, e.g. "alltoall 4096 B blocking on host model (2 hosts):
// node_aware (lowest modelled price); node_aware 41.2 us, direct 55.0 us,
// per_peer -".
std::string to_string(const Explanation& explanation);

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_EXPLAIN_H_
