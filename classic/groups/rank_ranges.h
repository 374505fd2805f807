// Validation of the rank arguments of the group constructors: rank lists
// (Group::incl/excl) and (first, last, stride) triplets (range_incl/excl).
#ifndef ORTHOCOMM_CLASSIC_GROUPS_RANK_RANGES_H_
#define ORTHOCOMM_CLASSIC_GROUPS_RANK_RANGES_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace classic {

// The triplet of MPI_Group_range_incl/excl: the ranks first, first + stride,
// ..., first + floor((last - first) / stride) * stride.
//
// Semantics chosen where the standard leaves room (see group.h):
// - stride == 0 is rejected (ErrorClass::arg), as the standard says.
// - A triplet whose stride points away from last (first < last with a
//   negative stride, first > last with a positive one) has a negative
//   floor((last - first) / stride); it is rejected (ErrorClass::arg) rather
//   than read as an empty range. Open MPI 4.1 rejects it too (MPI_ERR_RANK).
// - Only the computed ranks must be valid ranks: last itself need not be one
//   when the stride steps over it ((0, 9, 20) in a group of 8 is {0}).
//   Open MPI 4.1 is stricter here and rejects such a last.
struct RankRange {
  int first;
  int last;
  int stride;
};

// Number of ranks a triplet with a valid stride and direction computes
// (at least 1; 64-bit because (0, INT_MAX, 1) has INT_MAX + 1 of them).
std::int64_t range_count(const RankRange& range);

// Checks ranges[index] on its own: stride, direction, and both ends in
// [0, group_size) (which, the sequence being monotonic, covers every rank it
// computes). `function` names the caller in error messages.
void check_range(std::string_view function, std::span<const RankRange> ranges,
                 std::size_t index, int group_size);

// Checks every triplet and that no rank is computed twice, then returns the
// computed ranks in order. Costs O(group_size) memory and at most
// O(group_size) steps of expansion beyond the checks, however long the
// ranges claim to be.
std::vector<int> expand_ranges(std::string_view function,
                               std::span<const RankRange> ranges,
                               int group_size);

// Checks that every element of ranks is in [0, group_size) and that none
// repeats an earlier one (ErrorClass::rank).
void check_distinct_ranks(std::string_view function, std::span<const int> ranks,
                          int group_size);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_GROUPS_RANK_RANGES_H_
