// The main job until the stencil experiments exist: MPI-1 group algebra over
// the world group, computed by classic::Group and printed by rank 0.
#include <array>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/groups/group.h"

namespace {

std::string ranks_text(std::span<const int> ranks) {
  std::string text = "{";
  for (int rank : ranks) {
    if (text.size() > 1) text += ", ";
    text += rank == classic::undefined ? "undefined" : std::to_string(rank);
  }
  return text + "}";
}

const char* comparison_text(classic::Comparison comparison) {
  switch (comparison) {
    case classic::Comparison::identical:
      return "identical";
    case classic::Comparison::congruent:
      return "congruent";
    case classic::Comparison::similar:
      return "similar";
    case classic::Comparison::unequal:
      return "unequal";
  }
  return "?";
}

void show(const char* what, const classic::Group& group) {
  std::printf("  %-34s size %d, world ranks %s\n", what, group.size(),
              ranks_text(group.members()).c_str());
}

void print_group_algebra() {
  const classic::Group world = classic::Group::world();
  const int n = world.size();
  const std::array<classic::RankRange, 1> evens_range{{{0, n - 1, 2}}};
  const std::array<classic::RankRange, 1> reversed_range{{{n - 1, 0, -1}}};
  const classic::Group evens = world.range_incl(evens_range);
  const classic::Group odds = world.range_excl(evens_range);
  const classic::Group reversed = world.range_incl(reversed_range);
  const classic::Group odds_then_evens = odds.union_with(evens);

  std::printf("Group algebra over the world group of %d processes\n", n);
  show("world", world);
  show("evens = range_incl {0, n-1, 2}", evens);
  show("odds = range_excl {0, n-1, 2}", odds);
  show("reversed = range_incl {n-1, 0, -1}", reversed);
  show("odds union evens", odds_then_evens);
  show("reversed intersection evens", reversed.intersection(evens));
  show("world difference odds", world.difference(odds));
  std::printf("  compare(world, reversed)           %s\n",
              comparison_text(world.compare(reversed)));
  std::printf("  compare(world, odds union evens)   %s\n",
              comparison_text(world.compare(odds_then_evens)));
  std::printf("  compare(evens, odds)               %s\n",
              comparison_text(evens.compare(odds)));

  std::vector<int> all(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) all[static_cast<std::size_t>(r)] = r;
  std::printf("  translate world ranks into evens:  %s\n",
              ranks_text(world.translate_ranks(all, evens)).c_str());
  std::printf("  translate world ranks into reversed: %s\n",
              ranks_text(world.translate_ranks(all, reversed)).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv,
                                   classic::UncaughtErrors::report_and_abort);
  // Groups are local objects: every process could compute all of this; rank
  // 0 prints so the output appears once.
  if (classic::Environment::world_rank() == 0) print_group_algebra();
  return 0;
}
