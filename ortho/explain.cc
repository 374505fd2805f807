#include "ortho/explain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ortho/algorithms/agreed_prices.h"
#include "ortho/algorithms/pricing.h"
#include "ortho/internal/choose.h"
#include "ortho/internal/table.h"
#include "ortho/internal/tuning.h"
#include "ortho/internal/tuning_measure.h"

namespace ortho {
namespace {

constexpr const char* kFunction = "ortho::explain";

std::string scale_text(const Table& table) {
  switch (algorithms::scale_of(table)) {
    case algorithms::Scale::hosts:
      return "host model (" + std::to_string(table.hosts()) + " hosts)";
    case algorithms::Scale::one_host:
      return "single-host model";
    case algorithms::Scale::unpriced:
      break;
  }
  return "none";
}

// Why a tuned decision runs its winner: it measured fastest, or it is the
// incumbent (a baseline, else the model's choice) and nothing measured
// fast enough to displace it (internal::kDisplacesBaseline).
std::string measured_reason(const internal::Tuned& tuned, bool baseline) {
  const std::vector<double>& seconds = tuned.agreed_seconds;
  const auto winner =
      static_cast<std::size_t>(std::find(tuned.candidates.begin(),
                                         tuned.candidates.end(), tuned.winner) -
                               tuned.candidates.begin());
  const bool fastest =
      winner >= seconds.size() ||
      seconds[winner] <= *std::min_element(seconds.begin(), seconds.end());
  const std::string of = std::to_string(tuned.candidates.size());
  const std::string source =
      tuned.from_wisdom ? "measured (ORTHO_WISDOM): " : "measured: ";
  if (fastest) return source + "fastest of " + of;
  const int margin =
      static_cast<int>(std::lround(100 * (1 - internal::kDisplacesBaseline)));
  return source + (baseline ? "a baseline" : "the model's choice") +
         ", within " + std::to_string(margin) + " % of the fastest of " + of;
}

std::string_view mode_text(classic::Mode mode) {
  switch (mode) {
    case classic::Mode::blocking:
      return "blocking";
    case classic::Mode::nonblocking:
      return "non-blocking";
    case classic::Mode::persistent:
      return "persistent";
  }
  return "";
}

// What a tuning's calls took beyond the winner's time, and its turns'
// barriers (ns).
double tuning_cost_ns(const internal::Tuned& tuned) {
  const auto winner =
      static_cast<std::size_t>(std::find(tuned.candidates.begin(),
                                         tuned.candidates.end(), tuned.winner) -
                               tuned.candidates.begin());
  double seconds = 0;
  for (std::size_t c = 0; c < tuned.runs.size(); ++c) {
    seconds += static_cast<double>(tuned.runs[c]) *
               (tuned.agreed_seconds[c] - tuned.agreed_seconds[winner]);
  }
  return (seconds + tuned.barrier_seconds) * 1e9;
}

}  // namespace

Explanation explain(ExchangeComm comm, Operation operation,
                    std::size_t block_bytes, classic::Mode mode) {
  const Table& table = comm.reverse()
                           ? internal::reverse_table_of(comm.comm(), kFunction)
                           : internal::table_of(comm.comm(), kFunction);
  const auto op = static_cast<std::size_t>(operation);
  Explanation explanation;
  explanation.operation = operation;
  explanation.block_bytes = block_bytes;
  explanation.mode = mode;
  explanation.reverse = comm.reverse();
  explanation.scale = scale_text(table);
  explanation.prices = algorithms::prices_source();
  // The size the choice went by (0 where it does not go by size).
  explanation.priced_bytes =
      internal::chosen_by_size(operation, mode) ? block_bytes : 0;
  for (const Algorithm& algorithm : table.available[op]) {
    Explanation::Offered offered{std::string(algorithm.name), std::nullopt,
                                 std::nullopt};
    for (const Candidate& candidate : table.candidates[op]) {
      if (candidate.algorithm == algorithm) {
        offered.modelled_ns =
            candidate.price_at(mode, explanation.priced_bytes);
      }
    }
    explanation.offered.push_back(std::move(offered));
  }
  std::stable_sort(
      explanation.offered.begin(), explanation.offered.end(),
      [](const Explanation::Offered& a, const Explanation::Offered& b) {
        if (a.modelled_ns.has_value() != b.modelled_ns.has_value()) {
          return a.modelled_ns.has_value();
        }
        if (a.modelled_ns && *a.modelled_ns != *b.modelled_ns) {
          return *a.modelled_ns < *b.modelled_ns;
        }
        return a.algorithm < b.algorithm;
      });
  const Choice& choice = table.choices[op];
  if (!choice.defined()) {
    explanation.reason = "undefined";
    return explanation;
  }
  explanation.selected = std::string(choice.select(block_bytes, mode).name);
  if (const internal::Tuned* tuned =
          internal::tuned_for(table, operation, mode, block_bytes)) {
    for (std::size_t i = 0; i < tuned->candidates.size(); ++i) {
      for (Explanation::Offered& offered : explanation.offered) {
        if (offered.algorithm == tuned->candidates[i].name) {
          offered.measured_ns = tuned->agreed_seconds[i] * 1e9;
        }
      }
    }
    explanation.selected = std::string(tuned->winner.name);
    explanation.tuning_cost_ns = tuning_cost_ns(*tuned);
    // Whether a near tie went to a baseline (internal::kDisplacesBaseline).
    const bool baseline =
        internal::incumbency_of(table, operation, {tuned->winner})
            .baselines.front();
    explanation.reason = measured_reason(*tuned, baseline);
  } else if (table.forced[op]) {
    explanation.reason = "forced (ORTHO_ALGORITHM or ortho::set_algorithm)";
  } else if (table.candidates[op].size() <= 1) {
    explanation.reason = "the only algorithm offered";
  } else {
    explanation.reason = "lowest modelled price";
  }
  return explanation;
}

std::string to_string(const Explanation& e) {
  std::string text =
      std::string(to_string(e.operation)) + " " +
      std::to_string(e.block_bytes) + " B " + std::string(mode_text(e.mode)) +
      (e.reverse ? " reverse" : "") + " on " + e.scale + ", " + e.prices;
  if (e.priced_bytes != e.block_bytes) {
    text += ", priced at " + std::to_string(e.priced_bytes) +
            " B (blocks differ between processes)";
  }
  text += ": ";
  text += e.selected.empty() ? "undefined" : e.selected + " (" + e.reason + ")";
  text += ";";
  for (std::size_t i = 0; i < e.offered.size(); ++i) {
    text += i == 0 ? " " : ", ";
    text += e.offered[i].algorithm + " ";
    if (e.offered[i].modelled_ns) {
      char price[32];
      std::snprintf(price, sizeof(price), "%.1f us",
                    *e.offered[i].modelled_ns / 1000.0);
      text += price;
    } else {
      text += "-";
    }
    if (e.offered[i].measured_ns) {
      char measured[48];
      std::snprintf(measured, sizeof(measured), " (measured %.1f us)",
                    *e.offered[i].measured_ns / 1000.0);
      text += measured;
    }
  }
  if (e.tuning_cost_ns) {
    char cost[48];
    std::snprintf(cost, sizeof(cost), "; tuning cost %.1f us",
                  *e.tuning_cost_ns / 1000.0);
    text += cost;
  }
  return text;
}

}  // namespace ortho
