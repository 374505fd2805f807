// The chooser (ortho/internal/choose.h) against brute force over the
// prices: random candidates whose prices are straight lines in the block
// size, some priced only up to a limit (a power of two, as the models'
// limits are) or only in persistent mode; at every size tried the step
// chosen must name a candidate of the lowest price (ties: the baseline,
// then the smaller name), and every order of the candidates must give the
// same steps.
#include "ortho/internal/choose.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/call.h"

namespace ortho::internal {
namespace {

using classic::Mode;

classic::Request never_run(const classic::Comm& /*comm*/,
                           const Table& /*table*/, const Call& /*call*/) {
  return {};
}

struct Line {
  double intercept = 0;
  double slope = 0;
  std::optional<std::size_t> up_to;  // priced up to this size only
  bool persistent_only = false;
};

std::optional<double> price_of(const Line& line, Mode mode, std::size_t bytes) {
  if (line.up_to && bytes > *line.up_to) return std::nullopt;
  if (line.persistent_only && mode != Mode::persistent) return std::nullopt;
  return line.intercept + line.slope * static_cast<double>(bytes);
}

// Names live as long as the test: Algorithm holds a string_view.
const std::vector<std::string>& names() {
  static const std::vector<std::string> all = {"a", "b", "c", "d", "e", "f"};
  return all;
}

std::vector<Candidate> candidates_of(const std::vector<Line>& lines) {
  std::vector<Candidate> candidates;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Line line = lines[i];
    candidates.push_back({{names()[i], &never_run},
                          [line](Mode mode, std::size_t bytes) {
                            return price_of(line, mode, bytes);
                          },
                          i == 0});
  }
  return candidates;
}

// Brute force: the name of the cheapest at `bytes`. Ties go to the
// baseline (index 0), then to the smaller name: names follow the indices,
// so to the smallest index among the cheapest.
std::string_view cheapest_name(const std::vector<Line>& lines, Mode mode,
                               std::size_t bytes) {
  std::optional<double> best;
  std::size_t best_index = 0;  // the baseline where none is priced
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::optional<double> ns = price_of(lines[i], mode, bytes);
    if (ns && (!best || *ns < *best)) {
      best = ns;
      best_index = i;
    }
  }
  return names()[best_index];
}

std::string_view at(const Choice::Steps& steps, std::size_t bytes) {
  std::string_view name;
  for (const Choice::Step& step : steps) {
    if (step.from_bytes <= bytes) name = step.algorithm.name;
  }
  return name;
}

TEST(Choose, StepsNameTheCheapestAtEverySize) {
  std::mt19937_64 random(20261127);
  std::uniform_real_distribution<double> intercept(0, 50000);
  std::uniform_real_distribution<double> slope(0, 20);
  std::uniform_int_distribution<int> count(1, 6);
  std::uniform_int_distribution<int> power(0, 24);
  std::uniform_int_distribution<int> coin(0, 3);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<Line> lines(static_cast<std::size_t>(count(random)));
    for (std::size_t i = 0; i < lines.size(); ++i) {
      lines[i].intercept = intercept(random);
      lines[i].slope = slope(random);
      if (i > 0 && coin(random) == 0) {
        lines[i].up_to = std::size_t{1} << power(random);
      }
      if (i > 0 && coin(random) == 0) lines[i].persistent_only = true;
    }
    const std::vector<Candidate> candidates = candidates_of(lines);
    for (Mode mode : {Mode::blocking, Mode::persistent}) {
      const Choice::Steps steps = cheapest_steps(candidates, mode, true);
      ASSERT_FALSE(steps.empty());
      EXPECT_EQ(steps.front().from_bytes, 0u);
      std::vector<std::size_t> sizes = {0, 1, 2, 3, kLargestPricedBytes};
      for (const Choice::Step& step : steps) {
        if (step.from_bytes > 0) sizes.push_back(step.from_bytes - 1);
        sizes.push_back(step.from_bytes);
      }
      std::uniform_int_distribution<std::size_t> any(0, std::size_t{1} << 26);
      for (int i = 0; i < 200; ++i) sizes.push_back(any(random));
      for (const std::size_t bytes : sizes) {
        EXPECT_EQ(at(steps, bytes), cheapest_name(lines, mode, bytes))
            << "trial " << trial << ", " << bytes << " B";
      }
      // Consecutive steps name different algorithms.
      for (std::size_t i = 1; i < steps.size(); ++i) {
        EXPECT_NE(steps[i].algorithm.name, steps[i - 1].algorithm.name);
        EXPECT_GT(steps[i].from_bytes, steps[i - 1].from_bytes);
      }
    }
  }
}

TEST(Choose, TheOrderOfTheCandidatesDoesNotMatter) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> intercept(0, 1000);
  std::uniform_real_distribution<double> slope(0, 5);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<Line> lines(5);
    for (Line& line : lines) {
      line.intercept = intercept(random);
      line.slope = slope(random);
    }
    lines[2] = lines[1];  // a tie, broken by name
    std::vector<Candidate> candidates = candidates_of(lines);
    const Choice::Steps expected =
        cheapest_steps(candidates, Mode::blocking, true);
    // Every one of the 120 orders.
    std::vector<std::size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    do {
      std::vector<Candidate> ordered;
      ordered.reserve(order.size());
      for (const std::size_t i : order) ordered.push_back(candidates[i]);
      EXPECT_EQ(cheapest_steps(ordered, Mode::blocking, true), expected)
          << "trial " << trial;
    } while (std::next_permutation(order.begin(), order.end()));
  }
}

TEST(Choose, NotBySizeIsOneStepPricedAtZero) {
  const std::vector<Line> lines = {{100, 10, {}, false}, {50, 1000, {}, false}};
  const Choice::Steps steps =
      cheapest_steps(candidates_of(lines), Mode::blocking, false);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps.front().algorithm.name, "b");
}

TEST(Choose, TiesGoToTheBaseline) {
  const std::vector<Line> lines = {{100, 1, {}, false}, {100, 1, {}, false}};
  const Choice::Steps steps =
      cheapest_steps(candidates_of(lines), Mode::blocking, true);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps.front().algorithm.name, "a");  // the baseline
}

}  // namespace
}  // namespace ortho::internal
