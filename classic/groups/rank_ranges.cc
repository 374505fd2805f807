#include "classic/groups/rank_ranges.h"

#include <string>

#include "classic/base/error.h"
#include "classic/base/error_text.h"

namespace classic {
namespace {

std::string to_text(const RankRange& range) {
  return "(" + std::to_string(range.first) + ", " + std::to_string(range.last) +
         ", " + std::to_string(range.stride) + ")";
}

std::string range_name(std::size_t index) {
  return "ranges[" + std::to_string(index) + "]";
}

std::string rank_name(std::size_t index) {
  return "ranks[" + std::to_string(index) + "]";
}

bool leads_away_from_last(const RankRange& range) {
  return (range.first < range.last && range.stride < 0) ||
         (range.first > range.last && range.stride > 0);
}

}  // namespace

std::int64_t range_count(const RankRange& range) {
  // Valid direction makes the quotient non-negative, so C++'s truncating
  // division is the standard's floor.
  const std::int64_t span = std::int64_t{range.last} - range.first;
  return span / range.stride + 1;
}

void check_range(std::string_view function, std::span<const RankRange> ranges,
                 std::size_t index, int group_size) {
  const RankRange& range = ranges[index];
  if (range.stride == 0) {
    throw Error(ErrorClass::arg, function,
                range_name(index) + ".stride = 0 must not be zero");
  }
  if (leads_away_from_last(range)) {
    throw Error(ErrorClass::arg, function,
                range_name(index) + " = " + to_text(range) + ": stride " +
                    std::to_string(range.stride) + " leads away from last " +
                    std::to_string(range.last));
  }
  const std::int64_t final_rank =
      range.first + (range_count(range) - 1) * range.stride;
  for (const std::int64_t rank : {std::int64_t{range.first}, final_rank}) {
    if (rank < 0 || rank >= group_size) {
      throw Error(ErrorClass::rank, function,
                  range_name(index) + " = " + to_text(range) +
                      " computes rank " + error_text::text(rank) +
                      error_text::outside(0, group_size));
    }
  }
}

std::vector<int> expand_ranges(std::string_view function,
                               std::span<const RankRange> ranges,
                               int group_size) {
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    check_range(function, ranges, i, group_size);
  }
  // producer[r]: the triplet that computed rank r, or -1. Every computed
  // rank is valid, so a repeat shows up within group_size + 1 ranks.
  std::vector<int> producer(static_cast<std::size_t>(group_size), -1);
  std::vector<int> expanded;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const RankRange& range = ranges[i];
    const std::int64_t count = range_count(range);
    for (std::int64_t k = 0; k < count; ++k) {
      const int rank = static_cast<int>(range.first + k * range.stride);
      int& earlier = producer[static_cast<std::size_t>(rank)];
      if (earlier >= 0) {
        throw Error(ErrorClass::rank, function,
                    range_name(i) + " = " + to_text(range) + " computes rank " +
                        std::to_string(rank) + " again (computed before by " +
                        range_name(static_cast<std::size_t>(earlier)) + ")");
      }
      earlier = static_cast<int>(i);
      expanded.push_back(rank);
    }
  }
  return expanded;
}

void check_distinct_ranks(std::string_view function, std::span<const int> ranks,
                          int group_size) {
  // position[r]: the index in ranks where r was seen, or -1.
  std::vector<std::ptrdiff_t> position(static_cast<std::size_t>(group_size),
                                       -1);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const int rank = ranks[i];
    if (rank < 0 || rank >= group_size) {
      throw Error(ErrorClass::rank, function,
                  rank_name(i) + " = " + std::to_string(rank) +
                      error_text::outside(0, group_size));
    }
    std::ptrdiff_t& seen = position[static_cast<std::size_t>(rank)];
    if (seen >= 0) {
      throw Error(ErrorClass::rank, function,
                  rank_name(i) + " = " + std::to_string(rank) + " repeats " +
                      rank_name(static_cast<std::size_t>(seen)));
    }
    seen = static_cast<std::ptrdiff_t>(i);
  }
}

}  // namespace classic
