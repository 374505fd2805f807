#include "classic/base/internal/agreement.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <memory>
#include <thread>
#include <vector>

#include "classic/base/internal/transport_error.h"

namespace classic::internal {

Agreement::Question Agreement::ask(std::int64_t value) {
  values_.push_back(value);
  return {values_.size() - 1};
}

Agreement::Question Agreement::ask_all_true(bool mine) {
  return ask(mine ? 1 : 0);
}

Agreement::Question Agreement::ask_lowest_rank_where(bool failed, int rank) {
  return ask(failed ? rank : INT64_MAX);
}

Agreement::Question Agreement::ask_minimum(std::int64_t value) {
  return ask(value);
}

// The maximum comes out of the minimum of the complement: ~v = -v - 1 is
// order-reversing on all of int64, where -v overflows at INT64_MIN.
Agreement::Question Agreement::ask_range(std::int64_t value) {
  const Question low = ask(value);
  ask(~value);
  return low;
}

void Agreement::run(MPI_Comm context, std::string_view function) {
  if (values_.empty()) return;
  transport::check_code(MPI_Allreduce(MPI_IN_PLACE, values_.data(),
                                      static_cast<int>(values_.size()),
                                      MPI_INT64_T, MPI_MIN, context),
                        function);
}

bool Agreement::run_within(MPI_Comm context, std::string_view function,
                           double seconds) {
  if (seconds <= 0 || values_.empty()) {
    run(context, function);
    return true;
  }
  // On the heap: a reduction that never completes keeps it.
  auto buffer = std::make_unique<std::vector<std::int64_t>>(values_);
  MPI_Request request = MPI_REQUEST_NULL;
  transport::check_code(MPI_Iallreduce(MPI_IN_PLACE, buffer->data(),
                                       static_cast<int>(buffer->size()),
                                       MPI_INT64_T, MPI_MIN, context, &request),
                        function);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (int tries = 0;; ++tries) {
    int done = 0;
    transport::check_code(MPI_Test(&request, &done, MPI_STATUS_IGNORE),
                          function);
    if (done != 0) break;
    if ((tries & 1023) == 1023) {
      if (std::chrono::steady_clock::now() >= deadline) {
        (void)buffer.release();  // the pending reduction may still write it
        return false;
      }
      std::this_thread::yield();
    }
  }
  values_ = std::move(*buffer);
  return true;
}

bool Agreement::all_true(Question question) const {
  return values_[question.slot] == 1;
}

std::optional<int> Agreement::lowest_rank_where(Question question) const {
  const std::int64_t lowest = values_[question.slot];
  if (lowest == INT64_MAX) return std::nullopt;
  return static_cast<int>(lowest);
}

std::int64_t Agreement::minimum(Question question) const {
  return values_[question.slot];
}

std::int64_t Agreement::range_low(Question question) const {
  return values_[question.slot];
}

std::int64_t Agreement::range_high(Question question) const {
  return ~values_[question.slot + 1];
}

bool all_true(MPI_Comm context, bool mine, std::string_view function) {
  Agreement agreement;
  const auto question = agreement.ask_all_true(mine);
  agreement.run(context, function);
  return agreement.all_true(question);
}

bool identical_everywhere(MPI_Comm context,
                          std::span<const std::int64_t> values,
                          std::string_view function) {
  Agreement lengths;
  const auto length =
      lengths.ask_range(static_cast<std::int64_t>(values.size()));
  lengths.run(context, function);
  if (lengths.range_low(length) != lengths.range_high(length)) return false;
  Agreement same;
  std::vector<Agreement::Question> questions;
  questions.reserve(values.size());
  for (const std::int64_t value : values) {
    questions.push_back(same.ask_range(value));
  }
  same.run(context, function);
  return std::all_of(questions.begin(), questions.end(), [&](auto question) {
    return same.range_low(question) == same.range_high(question);
  });
}

}  // namespace classic::internal
