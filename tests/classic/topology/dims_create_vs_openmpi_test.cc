// Differential test: classic::dims_create against Open MPI's MPI_Dims_create.
// Where they differ, ours must be the more balanced one by the order stated
// in classic/topology/dims_create.h (smaller spread of the free entries, ties
// to the lexicographically smaller tuple); Open MPI's greedy is known not to be
// balanced (72 in 2 dimensions: 12 x 6 instead of 9 x 8).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "classic/topology/dims_create.h"

namespace {

// One input on which the two implementations disagree.
struct Difference {
  int nnodes;
  std::vector<int> input;
  std::vector<int> ours;
  std::vector<int> theirs;
};

// The header's balance order, written out independently: spread of the free
// entries first, then the free entries themselves, lexicographically.
struct Balance {
  int spread;
  std::vector<int> free_entries;
  auto operator<=>(const Balance&) const = default;
};

Balance balance_of(const std::vector<int>& input,
                   const std::vector<int>& output) {
  Balance balance{0, {}};
  for (std::size_t i = 0; i < input.size(); ++i) {
    if (input[i] == 0) balance.free_entries.push_back(output[i]);
  }
  if (!balance.free_entries.empty()) {
    const auto [low, high] = std::minmax_element(balance.free_entries.begin(),
                                                 balance.free_entries.end());
    balance.spread = *high - *low;
  }
  return balance;
}

std::vector<int> open_mpi_dims(int nnodes, std::vector<int> dims) {
  const int rc =
      MPI_Dims_create(nnodes, static_cast<int>(dims.size()), dims.data());
  EXPECT_EQ(rc, MPI_SUCCESS) << "nnodes = " << nnodes;
  return dims;
}

bool is_valid(int nnodes, const std::vector<int>& input,
              const std::vector<int>& output) {
  std::int64_t product = 1;
  for (std::size_t i = 0; i < input.size(); ++i) {
    if (output[i] < 1 || (input[i] > 0 && output[i] != input[i])) return false;
    product = std::min<std::int64_t>(product * output[i], INT64_C(1) << 40);
  }
  return product == nnodes;
}

std::string text(const std::vector<int>& dims) {
  std::ostringstream out;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    out << (i == 0 ? "" : " x ") << dims[i];
  }
  return out.str();
}

// The inputs: every nnodes <= 10,000 in 1 to 4 free dimensions, and random
// patterns of fixed entries whose product divides nnodes.
std::vector<std::pair<int, std::vector<int>>> inputs() {
  std::vector<std::pair<int, std::vector<int>>> result;
  for (int nnodes = 1; nnodes <= 10000; ++nnodes) {
    for (int ndims = 1; ndims <= 4; ++ndims) {
      result.emplace_back(nnodes, std::vector<int>(ndims, 0));
    }
  }
  std::mt19937 rng(4242);
  std::uniform_int_distribution<int> ndims_of(2, 6);
  std::uniform_int_distribution<int> fixed_value(1, 8);
  std::uniform_int_distribution<int> free_nodes_of(1, 5000);
  std::bernoulli_distribution is_fixed(0.3);
  for (int trial = 0; trial < 5000; ++trial) {
    std::vector<int> input(ndims_of(rng));
    int fixed_product = 1;
    for (int& entry : input) {
      entry = is_fixed(rng) ? fixed_value(rng) : 0;
      fixed_product *= std::max(entry, 1);
    }
    if (std::count(input.begin(), input.end(), 0) == 0) input[0] = 0;
    result.emplace_back(fixed_product * free_nodes_of(rng), input);
  }
  return result;
}

TEST(DimsCreateVsOpenMpi, OursIsTheBalancedOneWhereverTheyDiffer) {
  std::vector<Difference> differences;
  int ties_broken_differently = 0;
  const auto all_inputs = inputs();
  for (const auto& [nnodes, input] : all_inputs) {
    const std::vector<int> ours = classic::dims_create(nnodes, input);
    const std::vector<int> theirs = open_mpi_dims(nnodes, input);
    ASSERT_TRUE(is_valid(nnodes, input, ours)) << nnodes << ": " << text(ours);
    ASSERT_TRUE(is_valid(nnodes, input, theirs))
        << nnodes << ": " << text(theirs);
    if (ours == theirs) continue;
    const Balance our_balance = balance_of(input, ours);
    const Balance their_balance = balance_of(input, theirs);
    EXPECT_LE(our_balance.spread, their_balance.spread)
        << nnodes << ": ours " << text(ours) << ", Open MPI " << text(theirs);
    EXPECT_LT(our_balance, their_balance)
        << nnodes << ": ours " << text(ours) << ", Open MPI " << text(theirs);
    if (our_balance.spread == their_balance.spread) ++ties_broken_differently;
    differences.push_back({nnodes, input, ours, theirs});
  }

  // Where the spreads are equal Open MPI's answer is as balanced as ours by
  // the first criterion, and ours wins only the tie-break (the smaller
  // largest entry, e.g. 360 in 3 dimensions: 9 x 8 x 5 against 10 x 6 x 6);
  // EXPECT_LT above checked that. Everywhere else the two agree.
  std::cout << ties_broken_differently
            << " of the differences have equal spread (tie-break only)\n";

  const auto seventy_two = std::find_if(
      differences.begin(), differences.end(), [](const Difference& d) {
        return d.nnodes == 72 && d.input == std::vector<int>{0, 0};
      });
  ASSERT_NE(seventy_two, differences.end());
  EXPECT_EQ(seventy_two->theirs, (std::vector<int>{12, 6}));
  EXPECT_EQ(seventy_two->ours, (std::vector<int>{9, 8}));

  std::cout << differences.size() << " of " << all_inputs.size()
            << " inputs differ from Open MPI; for example:\n";
  const std::size_t step = std::max<std::size_t>(1, differences.size() / 8);
  for (std::size_t i = 0; i < differences.size(); i += step) {
    const Difference& d = differences[i];
    std::cout << "  nnodes = " << d.nnodes << ", dims = (" << text(d.input)
              << "): ours " << text(d.ours) << " (spread "
              << balance_of(d.input, d.ours).spread << "), Open MPI "
              << text(d.theirs) << " (spread "
              << balance_of(d.input, d.theirs).spread << ")\n";
  }
}

}  // namespace
