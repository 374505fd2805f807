// classic::Group: MPI process groups (MPI-1 section 5.3) as cheap immutable
// values: ordered lists of distinct world ranks with the group algebra.
#ifndef ORTHOCOMM_CLASSIC_GROUPS_GROUP_H_
#define ORTHOCOMM_CLASSIC_GROUPS_GROUP_H_

#include <memory>
#include <span>
#include <vector>

#include "classic/groups/rank_ranges.h"

namespace classic {

// MPI_IDENT, MPI_CONGRUENT, MPI_SIMILAR, MPI_UNEQUAL. Groups are never
// congruent; that result is for communicators.
enum class Comparison { identical, congruent, similar, unequal };

// A group is an ordered list of distinct processes, each named by its rank in
// the transport's world (MPI_COMM_WORLD). All operations are local.
//
// Copies share one immutable representation, so copying is O(1). A group
// whose members form an arithmetic progression of world ranks (world, self,
// empty, and e.g. range_incl of one triplet on such a group) takes O(1)
// memory; any other takes O(size). rank() and translate_ranks cost O(log n)
// per rank at most.
//
// Errors (classic::Error):
//   ErrorClass::group  any operation on, or with, a null (default-constructed
//                      or freed) group, including free() of a null group.
//   ErrorClass::rank   a rank outside [0, size()), a repeated rank in
//                      incl/excl, a triplet computing such a rank or a rank
//                      computed twice.
//   ErrorClass::arg    a triplet with stride 0 or with a stride leading away
//                      from its last rank (see RankRange for the choices).
// Where Open MPI 4.1 departs from the standard or makes another choice:
//   - translate_ranks of proc_null from or into an empty group gives
//     proc_null here (the MPI-2.1 rule); Open MPI gives MPI_UNDEFINED.
//   - incl/excl reject repeated ranks; Open MPI returns no error for them.
//   - A triplet's last rank need not be valid when the stride steps over it;
//     Open MPI rejects it.
//   - A triplet whose stride leads away from last is ErrorClass::arg here,
//     MPI_ERR_RANK there.
class Group {
 public:
  // The null group, MPI_GROUP_NULL.
  Group() = default;

  // The group of MPI_COMM_WORLD, of the calling process alone, and
  // MPI_GROUP_EMPTY. world() and self() need an active classic::Environment.
  [[nodiscard]] static Group world();
  [[nodiscard]] static Group self();
  [[nodiscard]] static Group empty();

  bool is_null() const noexcept { return representation_ == nullptr; }

  // MPI_Group_size and MPI_Group_rank (classic::undefined for a non-member).
  [[nodiscard]] int size() const;
  [[nodiscard]] int rank() const;

  // MPI_Group_translate_ranks from this group to `other`: proc_null stays
  // proc_null, a process not in `other` gives classic::undefined.
  [[nodiscard]] std::vector<int> translate_ranks(std::span<const int> ranks,
                                                 const Group& other) const;

  // MPI_Group_compare: identical, similar or unequal.
  [[nodiscard]] Comparison compare(const Group& other) const;

  // MPI_Group_union, _intersection, _difference; the order follows this
  // group first, then `other` (neither union nor intersection commutes).
  [[nodiscard]] Group union_with(const Group& other) const;
  [[nodiscard]] Group intersection(const Group& other) const;
  [[nodiscard]] Group difference(const Group& other) const;

  // MPI_Group_incl (in the order of ranks; empty ranks give the empty
  // group) and MPI_Group_excl (in this group's order; empty ranks give this
  // group).
  [[nodiscard]] Group incl(std::span<const int> ranks) const;
  [[nodiscard]] Group excl(std::span<const int> ranks) const;

  // MPI_Group_range_incl and MPI_Group_range_excl: incl/excl of the ranks
  // the triplets compute, in order.
  [[nodiscard]] Group range_incl(std::span<const RankRange> ranges) const;
  [[nodiscard]] Group range_excl(std::span<const RankRange> ranges) const;

  // MPI_Group_free: this handle becomes null; copies stay valid.
  void free();

  // The world rank of the member with rank `rank` in this group.
  [[nodiscard]] int world_rank_of(int rank) const;
  // The members' world ranks in group order.
  [[nodiscard]] std::vector<int> members() const;

  // Same members in the same order (compare() == identical); two null groups
  // are equal, a null and a valid group are not. Never throws.
  friend bool operator==(const Group& a, const Group& b) noexcept;

 private:
  class Representation;
  explicit Group(std::shared_ptr<const Representation> representation);

  // The representation of `group`, or ErrorClass::group when it is null;
  // `argument` names the group in the message ("group", "other").
  static const Representation& valid(const Group& group, const char* function,
                                     const char* argument);

  // A group of these members (world ranks, distinct): this group itself
  // when they are its members in its order, else a new representation.
  Group with_members(std::vector<int> members) const;

  std::shared_ptr<const Representation> representation_;
};

// The standard's spellings, for readers of the seeds.
inline int group_size(const Group& group) { return group.size(); }
inline int group_rank(const Group& group) { return group.rank(); }
inline std::vector<int> group_translate_ranks(const Group& group1,
                                              std::span<const int> ranks1,
                                              const Group& group2) {
  return group1.translate_ranks(ranks1, group2);
}
inline Comparison group_compare(const Group& group1, const Group& group2) {
  return group1.compare(group2);
}
inline Group group_union(const Group& group1, const Group& group2) {
  return group1.union_with(group2);
}
inline Group group_intersection(const Group& group1, const Group& group2) {
  return group1.intersection(group2);
}
inline Group group_difference(const Group& group1, const Group& group2) {
  return group1.difference(group2);
}
inline Group group_incl(const Group& group, std::span<const int> ranks) {
  return group.incl(ranks);
}
inline Group group_excl(const Group& group, std::span<const int> ranks) {
  return group.excl(ranks);
}
inline Group group_range_incl(const Group& group,
                              std::span<const RankRange> ranges) {
  return group.range_incl(ranges);
}
inline Group group_range_excl(const Group& group,
                              std::span<const RankRange> ranges) {
  return group.range_excl(ranges);
}
inline void group_free(Group& group) { group.free(); }

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_GROUPS_GROUP_H_
