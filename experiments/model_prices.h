// The cost model's prices beside what a benchmark measures: every
// algorithm ortho offers at a point, with the price the chooser gives it
// (ortho::explain), so that tools/model_error.py can set each forced
// algorithm's measured time against its modelled one.
#ifndef ORTHOCOMM_EXPERIMENTS_MODEL_PRICES_H_
#define ORTHOCOMM_EXPERIMENTS_MODEL_PRICES_H_

#include <benchmark/benchmark.h>

#include <cstddef>
#include <optional>
#include <string_view>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "ortho/explain.h"

namespace experiments {

// The modelled time in µs of `algorithm` for `operation` on `comm` with
// blocks of `block_bytes` in `mode`; none where the model gives it no
// price there. Local once comm's table exists.
inline std::optional<double> modelled_us(const classic::Comm& comm,
                                         ortho::Operation operation,
                                         std::size_t block_bytes,
                                         classic::Mode mode,
                                         std::string_view algorithm) {
  const ortho::Explanation explanation =
      ortho::explain(comm, operation, block_bytes, mode);
  for (const ortho::Explanation::Offered& offered : explanation.offered) {
    if (offered.algorithm == algorithm && offered.modelled_ns) {
      return *offered.modelled_ns / 1e3;
    }
  }
  return std::nullopt;
}

// Counters "<algorithm>_model_us" for every priced algorithm offered on
// `comm` (blocking).
inline void count_model_prices(benchmark::State& state,
                               const classic::Comm& comm,
                               ortho::Operation operation,
                               std::size_t block_bytes) {
  const ortho::Explanation explanation =
      ortho::explain(comm, operation, block_bytes, classic::Mode::blocking);
  for (const ortho::Explanation::Offered& offered : explanation.offered) {
    if (offered.modelled_ns) {
      state.counters[offered.algorithm + "_model_us"] =
          *offered.modelled_ns / 1e3;
    }
  }
}

}  // namespace experiments

#endif  // ORTHOCOMM_EXPERIMENTS_MODEL_PRICES_H_
