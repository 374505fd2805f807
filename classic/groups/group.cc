#include "classic/groups/group.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/base/error_text.h"

namespace classic {
namespace {

enum class Presence { in, not_in };

}  // namespace

// The members of a group, as world ranks, in one of two forms: a progression
// first, first + stride, ... (O(1) memory), or an explicit list with an index
// sorted by world rank for O(log n) lookups.
class Group::Representation {
 public:
  // Members first, first + stride, ..., `count` of them. The stride of a
  // group of fewer than two members is normalised to 1.
  Representation(int first, int stride, int count)
      : first_(count == 0 ? 0 : first),
        stride_(count < 2 ? 1 : stride),
        size_(count) {}

  // Distinct world ranks in group order.
  explicit Representation(std::vector<int> members)
      : size_(static_cast<int>(members.size())),
        members_(std::move(members)),
        by_member_(members_.size()) {
    std::iota(by_member_.begin(), by_member_.end(), 0);
    std::sort(by_member_.begin(), by_member_.end(),
              [this](int a, int b) { return members_[a] < members_[b]; });
  }

  // The compact form whenever the members allow it.
  static std::shared_ptr<const Representation> of(std::vector<int> members) {
    if (const int stride = common_difference(members); stride != 0) {
      return std::make_shared<const Representation>(
          members.empty() ? 0 : members.front(), stride,
          static_cast<int>(members.size()));
    }
    return std::make_shared<const Representation>(std::move(members));
  }

  int size() const { return size_; }
  bool is_progression() const { return members_.empty(); }
  int progression_stride() const { return stride_; }

  // World rank of the member with rank `rank`, 0 <= rank < size().
  int member(int rank) const {
    return is_progression() ? first_ + rank * stride_ : members_[rank];
  }

  // Rank of the process with world rank `world_rank`, or undefined.
  int rank_of(int world_rank) const {
    if (is_progression()) return progression_rank_of(world_rank);
    const auto it = std::lower_bound(
        by_member_.begin(), by_member_.end(), world_rank,
        [this](int rank, int value) { return members_[rank] < value; });
    if (it == by_member_.end() || members_[*it] != world_rank) {
      return undefined;
    }
    return *it;
  }

  std::vector<int> members() const {
    if (!is_progression()) return members_;
    std::vector<int> all(static_cast<std::size_t>(size_));
    for (int rank = 0; rank < size_; ++rank) all[rank] = member(rank);
    return all;
  }

  // The members with the given (valid) ranks, in the order of ranks.
  std::vector<int> members_at(std::span<const int> ranks) const {
    std::vector<int> chosen(ranks.size());
    std::transform(ranks.begin(), ranks.end(), chosen.begin(),
                   [this](int rank) { return member(rank); });
    return chosen;
  }

  // The members without the given (valid, distinct) ranks, in group order.
  std::vector<int> members_except(std::span<const int> ranks) const {
    std::vector<char> excluded(static_cast<std::size_t>(size_), 0);
    for (const int rank : ranks) excluded[rank] = 1;
    std::vector<int> kept;
    kept.reserve(static_cast<std::size_t>(size_) - ranks.size());
    for (int rank = 0; rank < size_; ++rank) {
      if (!excluded[rank]) kept.push_back(member(rank));
    }
    return kept;
  }

  // The members that are (Presence::in) or are not (Presence::not_in) also
  // members of `other`, in this group's order.
  std::vector<int> members_filtered(const Representation& other,
                                    Presence presence) const {
    std::vector<int> kept;
    for (int rank = 0; rank < size_; ++rank) {
      const int world_rank = member(rank);
      const bool in_other = other.rank_of(world_rank) != undefined;
      if (in_other == (presence == Presence::in)) kept.push_back(world_rank);
    }
    return kept;
  }

  bool same_order(const Representation& other) const {
    if (size_ != other.size_) return false;
    if (is_progression() && other.is_progression()) {
      return first_ == other.first_ && stride_ == other.stride_;
    }
    for (int rank = 0; rank < size_; ++rank) {
      if (member(rank) != other.member(rank)) return false;
    }
    return true;
  }

 private:
  // The step of an arithmetic progression (1 for fewer than two members),
  // or 0 when the members form none.
  static int common_difference(const std::vector<int>& members) {
    if (members.size() < 2) return 1;
    const int stride = members[1] - members[0];
    for (std::size_t i = 2; i < members.size(); ++i) {
      if (members[i] - members[i - 1] != stride) return 0;
    }
    return stride;
  }

  int progression_rank_of(int world_rank) const {
    const std::int64_t offset = std::int64_t{world_rank} - first_;
    if (offset % stride_ != 0) return undefined;
    const std::int64_t rank = offset / stride_;
    return rank >= 0 && rank < size_ ? static_cast<int>(rank) : undefined;
  }

  int first_ = 0;
  int stride_ = 1;
  int size_ = 0;
  std::vector<int> members_;    // empty in the progression form
  std::vector<int> by_member_;  // ranks ordered by members_[rank]
};

Group::Group(std::shared_ptr<const Representation> representation)
    : representation_(std::move(representation)) {}

const Group::Representation& Group::valid(const Group& group,
                                          const char* function,
                                          const char* argument) {
  if (group.is_null()) {
    throw Error(ErrorClass::group, function,
                std::string(argument) +
                    " is the null group (MPI_GROUP_NULL, or freed)");
  }
  return *group.representation_;
}

Group Group::world() {
  return Group(
      std::make_shared<const Representation>(0, 1, Environment::world_size()));
}

Group Group::self() {
  return Group(
      std::make_shared<const Representation>(Environment::world_rank(), 1, 1));
}

Group Group::empty() {
  return Group(std::make_shared<const Representation>(0, 1, 0));
}

int Group::size() const {
  return valid(*this, "classic::Group::size", "group").size();
}

int Group::rank() const {
  const Representation& group = valid(*this, "classic::Group::rank", "group");
  if (group.size() == 0) return undefined;
  return group.rank_of(Environment::world_rank());
}

std::vector<int> Group::translate_ranks(std::span<const int> ranks,
                                        const Group& other) const {
  constexpr const char* function = "classic::Group::translate_ranks";
  const Representation& from = valid(*this, function, "group");
  const Representation& to = valid(other, function, "other");
  std::vector<int> translated(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const int rank = ranks[i];
    if (rank == proc_null) {
      translated[i] = proc_null;
    } else if (rank < 0 || rank >= from.size()) {
      throw Error(ErrorClass::rank, function,
                  error_text::entry("ranks", i, rank) +
                      error_text::outside(0, from.size()));
    } else {
      translated[i] = to.rank_of(from.member(rank));
    }
  }
  return translated;
}

Comparison Group::compare(const Group& other) const {
  constexpr const char* function = "classic::Group::compare";
  const Representation& a = valid(*this, function, "group");
  const Representation& b = valid(other, function, "other");
  if (&a == &b || a.same_order(b)) return Comparison::identical;
  if (a.size() != b.size()) return Comparison::unequal;
  // Equal sizes and distinct members: a subset of b is all of b.
  for (int rank = 0; rank < a.size(); ++rank) {
    if (b.rank_of(a.member(rank)) == undefined) return Comparison::unequal;
  }
  return Comparison::similar;
}

Group Group::with_members(std::vector<int> members) const {
  // A result with all of this group's members, in its order, is this group:
  // share the representation instead of building a copy.
  if (static_cast<int>(members.size()) == representation_->size() &&
      representation_->members() == members) {
    return *this;
  }
  return Group(Representation::of(std::move(members)));
}

Group Group::union_with(const Group& other) const {
  constexpr const char* function = "classic::Group::union_with";
  const Representation& a = valid(*this, function, "group");
  const Representation& b = valid(other, function, "other");
  std::vector<int> members = a.members();
  std::vector<int> added = b.members_filtered(a, Presence::not_in);
  members.insert(members.end(), added.begin(), added.end());
  return with_members(std::move(members));
}

Group Group::intersection(const Group& other) const {
  constexpr const char* function = "classic::Group::intersection";
  const Representation& a = valid(*this, function, "group");
  const Representation& b = valid(other, function, "other");
  return with_members(a.members_filtered(b, Presence::in));
}

Group Group::difference(const Group& other) const {
  constexpr const char* function = "classic::Group::difference";
  const Representation& a = valid(*this, function, "group");
  const Representation& b = valid(other, function, "other");
  return with_members(a.members_filtered(b, Presence::not_in));
}

Group Group::incl(std::span<const int> ranks) const {
  constexpr const char* function = "classic::Group::incl";
  const Representation& group = valid(*this, function, "group");
  check_distinct_ranks(function, ranks, group.size());
  return with_members(group.members_at(ranks));
}

Group Group::excl(std::span<const int> ranks) const {
  constexpr const char* function = "classic::Group::excl";
  const Representation& group = valid(*this, function, "group");
  check_distinct_ranks(function, ranks, group.size());
  if (ranks.empty()) return *this;
  return with_members(group.members_except(ranks));
}

Group Group::range_incl(std::span<const RankRange> ranges) const {
  constexpr const char* function = "classic::Group::range_incl";
  const Representation& group = valid(*this, function, "group");
  if (group.is_progression() && ranges.size() == 1) {
    // A progression of a progression: O(1), without listing the members.
    check_range(function, ranges, 0, group.size());
    const RankRange& range = ranges[0];
    const std::int64_t count = range_count(range);
    const std::int64_t stride =
        std::int64_t{range.stride} * group.progression_stride();
    return Group(std::make_shared<const Representation>(
        group.member(range.first), count < 2 ? 1 : static_cast<int>(stride),
        static_cast<int>(count)));
  }
  const std::vector<int> ranks = expand_ranges(function, ranges, group.size());
  return with_members(group.members_at(ranks));
}

Group Group::range_excl(std::span<const RankRange> ranges) const {
  constexpr const char* function = "classic::Group::range_excl";
  const Representation& group = valid(*this, function, "group");
  const std::vector<int> ranks = expand_ranges(function, ranges, group.size());
  if (ranks.empty()) return *this;
  return with_members(group.members_except(ranks));
}

void Group::free() {
  valid(*this, "classic::Group::free", "group");
  representation_.reset();
}

int Group::world_rank_of(int rank) const {
  constexpr const char* function = "classic::Group::world_rank_of";
  const Representation& group = valid(*this, function, "group");
  if (rank < 0 || rank >= group.size()) {
    throw Error(
        ErrorClass::rank, function,
        error_text::named("rank", rank) + error_text::outside(0, group.size()));
  }
  return group.member(rank);
}

std::vector<int> Group::members() const {
  return valid(*this, "classic::Group::members", "group").members();
}

bool operator==(const Group& a, const Group& b) noexcept {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  return a.representation_ == b.representation_ ||
         a.representation_->same_order(*b.representation_);
}

}  // namespace classic
