// Rank-valued constants of orthocomm (MPI-free; classic maps them to the
// transport's values at the boundary, so cores need no MPI header).
#ifndef ORTHOCOMM_CLASSIC_BASE_CONSTANTS_H_
#define ORTHOCOMM_CLASSIC_BASE_CONSTANTS_H_

namespace classic {

// A rank that names no process: sends and receives with it complete at once.
inline constexpr int proc_null = -2;
// Wildcard source of a receive or probe.
inline constexpr int any_source = -1;
// Wildcard tag of a receive or probe.
inline constexpr int any_tag = -1;
// MPI_ROOT: the root of a collective on an inter-communicator passes it as
// root; the other processes of its group pass proc_null, and the processes
// of the other group pass the root's rank in their remote group.
inline constexpr int mpi_root = -4;
// Result of a query that has no answer (a rank not in a group, a color that
// takes no part in a split).
inline constexpr int undefined = -32766;

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_BASE_CONSTANTS_H_
