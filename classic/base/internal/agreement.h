// Agreement among the processes of a transport context: several yes/no and
// same-value questions answered together by one MIN reduction, the same
// answer on every process. classic's constructors use it to fail together.
#ifndef ORTHOCOMM_CLASSIC_BASE_INTERNAL_AGREEMENT_H_
#define ORTHOCOMM_CLASSIC_BASE_INTERNAL_AGREEMENT_H_

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "classic/base/internal/inside_classic.h"

namespace classic::internal {

// Ask questions, run() once on every process of the context, read answers.
// Every process must ask the same questions in the same order.
//
//   Agreement agreement;
//   const auto valid = agreement.ask_all_true(local_error == nullptr);
//   const auto first = agreement.ask_lowest_rank_where(failed, rank);
//   agreement.run(context, "classic::f");
//   if (!agreement.all_true(valid)) ...
class Agreement {
 public:
  // Handles to questions (slots of the reduction).
  struct Question {
    std::size_t slot;
  };

  // "Is `mine` true on every process?"
  Question ask_all_true(bool mine);
  // "Which is the lowest rank where `failed` holds?" (`rank`: the caller's.)
  Question ask_lowest_rank_where(bool failed, int rank);
  // "What is the smallest `value` of all processes?"
  Question ask_minimum(std::int64_t value);
  // "What are the smallest and the largest `value`?" (equal: the same on
  // every process). Any 64-bit value: no negation, so no overflow.
  Question ask_range(std::int64_t value);

  // The one reduction; collective over `context`. Transport failures raise
  // classic::Error naming `function`.
  void run(MPI_Comm context, std::string_view function);
  // The same, waiting at most `seconds` (0: for ever) for the other
  // processes: false when they did not all join in time. The reduction then
  // stays pending in the transport (it cannot be cancelled; its buffer is
  // left to it), and the context must not be used again.
  bool run_within(MPI_Comm context, std::string_view function, double seconds);

  bool all_true(Question question) const;
  std::optional<int> lowest_rank_where(Question question) const;
  std::int64_t minimum(Question question) const;
  std::int64_t range_low(Question question) const;
  std::int64_t range_high(Question question) const;

 private:
  Question ask(std::int64_t value);

  std::vector<std::int64_t> values_;
};

// The common case: true on every process of `context` when `mine` is true
// on every process. Collective.
bool all_true(MPI_Comm context, bool mine, std::string_view function);

// True on every process when every process passed the same sequence (same
// length, same values), false on every process otherwise. Exact (no
// hashing): one reduction over the lengths, one over the values.
bool identical_everywhere(MPI_Comm context,
                          std::span<const std::int64_t> values,
                          std::string_view function);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_BASE_INTERNAL_AGREEMENT_H_
