// The one chooser of ortho's tables: every registered algorithm offers
// itself on a new table and prices its calls (algorithms/registry.h);
// choose() takes, for each operation, mode and block size, the offered
// algorithm with the lowest price, and writes the table's choices. Nothing
// else writes them (overrides aside: internal/table.h's apply_override),
// and the order of the registry does not change them.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_CHOOSE_H_
#define ORTHOCOMM_ORTHO_INTERNAL_CHOOSE_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string_view>

#include "classic/exec/mode.h"
#include "ortho/internal/choice.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"

namespace ortho::internal {

// The largest block size priced: the last step holds beyond it.
inline constexpr std::size_t kLargestPricedBytes = std::size_t{1} << 30;

// The steps of one mode: at every block size up to kLargestPricedBytes the
// candidate with the lowest price (ties: the baseline, then the smaller
// name); where none has a price, the baseline. Sizes are sampled four
// times per power of two and the switch between two samples found to the
// byte. With `by_size` false (blocks that differ between processes and are
// not agreed on) one step, priced at 0 bytes. MPI-free.
Choice::Steps cheapest_steps(std::span<const Candidate> candidates,
                             classic::Mode mode, bool by_size);

// Whether the choice of `operation` in `mode` goes by block size: not for
// the v and w forms, whose blocks differ between processes, outside
// persistent mode (where the processes agree on the largest block once,
// at initialisation); those are chosen by their prices at 0 bytes.
bool chosen_by_size(Operation operation, classic::Mode mode);

// Offers every registered algorithm on `table` and writes its choices (and
// default choices) from their prices. Local: the prices come from facts
// every process has alike (the table's analysis).
void choose(Table& table);

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_CHOOSE_H_
