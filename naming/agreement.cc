#include "naming/agreement.h"

#include "classic/base/error.h"
#include "classic/collectives/agreement.h"

namespace naming::internal {

std::vector<int> describe(const Geometry* naming) {
  if (naming == nullptr) return {0};
  std::vector<int> description = {1, naming->ndims()};
  description.insert(description.end(), naming->dims().begin(),
                     naming->dims().end());
  for (const bool periodic : naming->periods()) {
    description.push_back(periodic ? 1 : 0);
  }
  description.insert(description.end(), naming->dimension_order().begin(),
                     naming->dimension_order().end());
  return description;
}

bool identical_everywhere(const classic::Comm& comm,
                          std::span<const int> values, const char* function) {
  if (comm.is_inter()) {
    throw classic::Error(classic::ErrorClass::comm, function,
                         "comm is an inter-communicator; this needs an "
                         "intra-communicator");
  }
  return classic::identical_everywhere(comm, values);
}

}  // namespace naming::internal
