#include "classic/exec/internal/held_datatypes.h"

#include <mpi.h>

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/internal/transport_error.h"
#include "classic/exec/executor.h"

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
  HeldDatatypes duplicates;
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
  for_each_block(held->plan, [&](Plan::Block& block) {
    held->duplicates.hold(std::span<Plan::Block>(&block, 1), function);
  });
  return {held, &held->plan};
}

}  // namespace classic::internal

namespace classic {

HeldDatatypes::~HeldDatatypes() {
  if (!Environment::active()) return;  // the transport has ended
  for (auto& [original, duplicate] : duplicates_) MPI_Type_free(&duplicate);
}

void HeldDatatypes::hold(std::span<Plan::Block> blocks, const char* function) {
  for (Plan::Block& block : blocks) {
    MPI_Datatype datatype = block.datatype;
    if (std::find(predefined_.begin(), predefined_.end(), datatype) !=
        predefined_.end()) {
      continue;
    }
    const auto held = std::find_if(
        duplicates_.begin(), duplicates_.end(),
        [&](const auto& entry) { return entry.first == datatype; });
    if (held != duplicates_.end()) {
      block.datatype = held->second;
    } else if (!internal::is_derived(datatype)) {
      predefined_.push_back(datatype);
    } else {
      MPI_Datatype duplicate = MPI_DATATYPE_NULL;
      transport::check_code(MPI_Type_dup(datatype, &duplicate), function);
      duplicates_.emplace_back(datatype, duplicate);
      block.datatype = duplicate;
    }
  }
}

}  // namespace classic
