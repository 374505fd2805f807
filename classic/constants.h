// Rank-valued constants of orthocomm (MPI-free; classic maps them to the
// transport's values at the boundary, so cores need no MPI header).
#ifndef ORTHOCOMM_CLASSIC_CONSTANTS_H_
#define ORTHOCOMM_CLASSIC_CONSTANTS_H_

namespace classic {

// A rank that names no process: sends and receives with it complete at once.
inline constexpr int proc_null = -2;
// Wildcard source of a receive or probe.
inline constexpr int any_source = -1;
// Wildcard tag of a receive or probe.
inline constexpr int any_tag = -1;
// Result of a query that has no answer (a rank not in a group, a color that
// takes no part in a split).
inline constexpr int undefined = -32766;

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_CONSTANTS_H_
