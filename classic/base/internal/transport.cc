#include "classic/base/internal/transport.h"

#include <map>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/internal/error_handler.h"
#include "classic/base/internal/transport_error.h"

namespace classic::transport {
namespace {

// Tag of MPI_Comm_create_group's traffic on the bridge context, which
// carries nothing else.
constexpr int kBridgeTag = 0x0c0c;

// The transport group of `world_ranks` (MPI_GROUP_EMPTY for none).
MPI_Group world_group_of(std::span<const int> world_ranks,
                         const char* function) {
  if (world_ranks.empty()) return MPI_GROUP_EMPTY;
  MPI_Group world_group = MPI_GROUP_NULL;
  check_code(MPI_Comm_group(MPI_COMM_WORLD, &world_group), function);
  std::vector<int> ranks(world_ranks.begin(), world_ranks.end());
  MPI_Group members = MPI_GROUP_NULL;
  const int code = MPI_Group_incl(world_group, static_cast<int>(ranks.size()),
                                  ranks.data(), &members);
  MPI_Group_free(&world_group);
  check_code(code, function);
  return members;
}

void free_group(MPI_Group& group) {
  if (group != MPI_GROUP_EMPTY && group != MPI_GROUP_NULL) {
    MPI_Group_free(&group);
  }
}

// Errors are exceptions in classic, never aborts.
MPI_Comm returning_errors(MPI_Comm context, const char* function) {
  if (context != MPI_COMM_NULL) {
    check_code(MPI_Comm_set_errhandler(context, recording_errhandler()),
               function);
  }
  return context;
}

}  // namespace

MPI_Comm new_context(MPI_Comm parent, std::span<const int> world_ranks) {
  constexpr const char* kFunction = "classic::transport::new_context";
  MPI_Group members = world_group_of(world_ranks, kFunction);
  MPI_Comm context = MPI_COMM_NULL;
  const int code = MPI_Comm_create(parent, members, &context);
  free_group(members);
  check_code(code, kFunction);
  return returning_errors(context, kFunction);
}

MPI_Comm new_context_among(std::span<const int> world_ranks) {
  constexpr const char* kFunction = "classic::transport::new_context_among";
  MPI_Group members = world_group_of(world_ranks, kFunction);
  MPI_Comm context = MPI_COMM_NULL;
  const int code = MPI_Comm_create_group(Environment::bridge_context(), members,
                                         kBridgeTag, &context);
  free_group(members);
  check_code(code, kFunction);
  return returning_errors(context, kFunction);
}

MPI_Comm new_private_context(MPI_Comm context) {
  constexpr const char* kFunction = "classic::transport::new_private_context";
  MPI_Comm copy = MPI_COMM_NULL;
  check_code(MPI_Comm_dup(context, &copy), kFunction);
  return returning_errors(copy, kFunction);
}

namespace {

struct Retained {
  int holds = 0;
  bool free_requested = false;
};

// Never destroyed: executions kept past main() release their holds.
std::map<MPI_Comm, Retained>& retained() {
  static auto& contexts = *new std::map<MPI_Comm, Retained>();
  return contexts;
}

}  // namespace

void free_context(MPI_Comm& context) {
  if (context == MPI_COMM_NULL) return;
  if (auto found = retained().find(context); found != retained().end()) {
    found->second.free_requested = true;
  } else {
    MPI_Comm_free(&context);
  }
  context = MPI_COMM_NULL;
}

void retain_context(MPI_Comm context) { ++retained()[context].holds; }

void release_context(MPI_Comm context) {
  auto found = retained().find(context);
  if (found == retained().end() || --found->second.holds > 0) return;
  const bool free_requested = found->second.free_requested;
  retained().erase(found);
  if (free_requested && Environment::active()) MPI_Comm_free(&context);
}

MPI_Aint extent_of(MPI_Datatype datatype, std::string_view function) {
  MPI_Aint lower_bound = 0;
  MPI_Aint extent = 0;
  check_code(MPI_Type_get_extent(datatype, &lower_bound, &extent), function);
  return extent;
}

MPI_Count size_of(MPI_Datatype datatype, int count, std::string_view function) {
  MPI_Count size = 0;
  check_code(MPI_Type_size_x(datatype, &size), function);
  return size * count;
}

}  // namespace classic::transport
