#include "classic/exec/internal/held_datatypes.h"

#include <mpi.h>

#include <map>
#include <utility>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/internal/transport_error.h"

namespace classic::internal {
namespace {

// Every block of the plan: its messages' and its local work's.
template <class PlanType, class Visit>
void for_each_block(PlanType& plan, Visit visit) {
  for (auto& round : plan.rounds) {
    for (auto* messages : {&round.receives, &round.sends}) {
      for (auto& message : *messages) {
        for (auto& block : message.blocks) visit(block);
      }
    }
    for (auto& local : round.local) {
      visit(local.from);
      visit(local.to);
    }
  }
}

bool is_derived(MPI_Datatype datatype) {
  if (datatype == MPI_DATATYPE_NULL) return false;
  int integers = 0;
  int addresses = 0;
  int datatypes = 0;
  int combiner = MPI_COMBINER_NAMED;
  MPI_Type_get_envelope(datatype, &integers, &addresses, &datatypes, &combiner);
  return combiner != MPI_COMBINER_NAMED;
}

// A plan and the duplicates its blocks name.
struct HeldPlan {
  Plan plan;
  std::vector<MPI_Datatype> duplicates;

  HeldPlan() = default;
  HeldPlan(const HeldPlan&) = delete;
  HeldPlan& operator=(const HeldPlan&) = delete;
  ~HeldPlan() {
    if (!Environment::active()) return;  // the transport has ended
    for (MPI_Datatype& datatype : duplicates) MPI_Type_free(&datatype);
  }
};

}  // namespace

std::shared_ptr<const Plan> with_held_datatypes(
    std::shared_ptr<const Plan> plan, const char* function) {
  // Most plans name one or two datatypes, mostly predefined: one query
  // per change of handle.
  bool derived = false;
  MPI_Datatype last = MPI_DATATYPE_NULL;
  for_each_block(*plan, [&](const Plan::Block& block) {
    if (derived || block.datatype == last) return;
    last = block.datatype;
    derived = is_derived(block.datatype);
  });
  if (!derived) return plan;
  auto held = std::make_shared<HeldPlan>();
  held->plan = *plan;
  std::map<MPI_Datatype, MPI_Datatype> duplicate_of;
  for_each_block(held->plan, [&](Plan::Block& block) {
    if (!is_derived(block.datatype)) return;
    auto [entry, added] = duplicate_of.try_emplace(block.datatype);
    if (added) {
      transport::check_code(MPI_Type_dup(block.datatype, &entry->second),
                            function);
      held->duplicates.push_back(entry->second);
    }
    block.datatype = entry->second;
  });
  return {held, &held->plan};
}

}  // namespace classic::internal
