#include "ortho/internal/choose.h"

#include <algorithm>
#include <array>
#include <vector>

#include "ortho/algorithms/registry.h"
#include "ortho/internal/tuning.h"

namespace ortho::internal {
namespace {

// Whether a's price at a size beats b's (lower; ties to the baseline, then
// to the smaller name).
bool cheaper(const Candidate& a, std::optional<double> a_ns, const Candidate& b,
             std::optional<double> b_ns) {
  if (a_ns.has_value() != b_ns.has_value()) return a_ns.has_value();
  if (a_ns && *a_ns != *b_ns) return *a_ns < *b_ns;
  if (a.baseline != b.baseline) return a.baseline;
  return a.algorithm.name < b.algorithm.name;
}

// The index of the cheapest candidate at `bytes`.
std::size_t cheapest(std::span<const Candidate> candidates, classic::Mode mode,
                     std::size_t bytes) {
  std::size_t best = 0;
  std::optional<double> best_ns = candidates[0].price_at(mode, bytes);
  for (std::size_t i = 1; i < candidates.size(); ++i) {
    const std::optional<double> ns = candidates[i].price_at(mode, bytes);
    if (cheaper(candidates[i], ns, candidates[best], best_ns)) {
      best = i;
      best_ns = ns;
    }
  }
  return best;
}

// 0, then four sizes per power of two up to kLargestPricedBytes.
std::vector<std::size_t> sampled_sizes() {
  std::vector<std::size_t> sizes = {0};
  for (std::size_t power = 1; power < kLargestPricedBytes; power *= 2) {
    for (std::size_t quarter = 4; quarter < 8; ++quarter) {
      const std::size_t bytes = power * quarter / 4;
      if (bytes > sizes.back()) sizes.push_back(bytes);
    }
  }
  sizes.push_back(kLargestPricedBytes);
  return sizes;
}

bool varies_between_processes(Operation operation) {
  return operation == Operation::allgatherv ||
         operation == Operation::allgatherw ||
         operation == Operation::alltoallv || operation == Operation::alltoallw;
}

}  // namespace

bool chosen_by_size(Operation operation, classic::Mode mode) {
  return !varies_between_processes(operation) ||
         mode == classic::Mode::persistent;
}

Choice::Steps cheapest_steps(std::span<const Candidate> candidates,
                             classic::Mode mode, bool by_size) {
  const auto winner = [&](std::size_t bytes) {
    return cheapest(candidates, mode, bytes);
  };
  std::size_t current = winner(0);
  Choice::Steps steps = {{0, candidates[current].algorithm}};
  if (!by_size) return steps;
  static const std::vector<std::size_t> kSizes = sampled_sizes();
  std::size_t low = 0;  // the last size known to run `current`
  for (std::size_t k = 1; k < kSizes.size(); ++k) {
    const std::size_t next = winner(kSizes[k]);
    if (next == current) {
      low = kSizes[k];
      continue;
    }
    // The first size past `low` that another candidate wins, to the byte;
    // from there on, the same again up to this sample.
    std::size_t high = kSizes[k];
    while (low < high) {
      std::size_t from = high;
      for (std::size_t below = low; below + 1 < from;) {
        const std::size_t middle = below + (from - below) / 2;
        if (winner(middle) == current) {
          below = middle;
        } else {
          from = middle;
        }
      }
      current = winner(from);
      steps.push_back({from, candidates[current].algorithm});
      low = from;
      if (current == next) break;
    }
    low = kSizes[k];
  }
  return steps;
}

void choose(Table& table) {
  std::array<std::vector<Candidate>, kOperationCount> candidates;
  for (const algorithms::Registration* registration : algorithms::registry()) {
    if (table.reverse && !registration->reversible) continue;
    std::array<std::size_t, kOperationCount> before{};
    for (std::size_t op = 0; op < kOperationCount; ++op) {
      before[op] = table.available[op].size();
    }
    registration->offer(table);
    for (std::size_t op = 0; op < kOperationCount; ++op) {
      const std::vector<Algorithm>& offered = table.available[op];
      for (std::size_t i = before[op]; i < offered.size(); ++i) {
        algorithms::Pricer price =
            registration->price == nullptr
                ? algorithms::Pricer{}
                : registration->price(table, static_cast<Operation>(op));
        if (price || registration->measured) {
          candidates[op].push_back({offered[i], std::move(price),
                                    registration->baseline,
                                    registration->measured});
        }
      }
    }
  }
  table.candidates = candidates;
  for (std::size_t op = 0; op < kOperationCount; ++op) {
    Choice& choice = table.choices[op];
    choice = Choice{};
    if (candidates[op].empty()) {
      if (!table.available[op].empty()) {
        choice = Choice::only(table.available[op].front());
      }
      continue;
    }
    const auto operation = static_cast<Operation>(op);
    for (const classic::Mode mode : kAllModes) {
      choice.in(mode) =
          cheapest_steps(candidates[op], mode, chosen_by_size(operation, mode));
    }
    choice.agreed_size = varies_between_processes(operation) &&
                         choice.sized(classic::Mode::persistent);
  }
  table.default_choices = table.choices;
  allow_tuning(table);
}

}  // namespace ortho::internal
