#include "classic/transport.h"

#include <vector>

#include "classic/transport_error.h"

namespace classic::transport {
namespace {

// Tag of MPI_Comm_create_group's internal traffic on the parent context;
// classic sends nothing else with it on a parent's transport.
constexpr int kCreateTag = 0x0c0c;

}  // namespace

MPI_Comm new_context(MPI_Comm parent, std::span<const int> world_ranks) {
  MPI_Group world_group = MPI_GROUP_NULL;
  check_code(MPI_Comm_group(MPI_COMM_WORLD, &world_group),
             "classic::transport::new_context");
  std::vector<int> ranks(world_ranks.begin(), world_ranks.end());
  MPI_Group members = MPI_GROUP_NULL;
  const int incl_code = MPI_Group_incl(
      world_group, static_cast<int>(ranks.size()), ranks.data(), &members);
  MPI_Group_free(&world_group);
  check_code(incl_code, "classic::transport::new_context");

  MPI_Comm context = MPI_COMM_NULL;
  const int create_code =
      MPI_Comm_create_group(parent, members, kCreateTag, &context);
  MPI_Group_free(&members);
  check_code(create_code, "classic::transport::new_context");
  check_code(MPI_Comm_set_errhandler(context, MPI_ERRORS_RETURN),
             "classic::transport::new_context");
  return context;
}

void free_context(MPI_Comm& context) {
  if (context != MPI_COMM_NULL) MPI_Comm_free(&context);
  context = MPI_COMM_NULL;
}

}  // namespace classic::transport
