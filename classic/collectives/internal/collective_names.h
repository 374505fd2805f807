// The names of classic's 17 collectives in their three modes
// (classic::bcast, classic::ibcast, classic::bcast_init, ...): errors name
// the form called. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_COLLECTIVE_NAMES_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_COLLECTIVE_NAMES_H_

#include "classic/exec/mode.h"

namespace classic::internal {

inline constexpr Names kAllgather{"classic::allgather", "classic::iallgather",
                                  "classic::allgather_init"};
inline constexpr Names kAllgatherv{
    "classic::allgatherv", "classic::iallgatherv", "classic::allgatherv_init"};
inline constexpr Names kAlltoall{"classic::alltoall", "classic::ialltoall",
                                 "classic::alltoall_init"};
inline constexpr Names kAlltoallv{"classic::alltoallv", "classic::ialltoallv",
                                  "classic::alltoallv_init"};
inline constexpr Names kAllreduce{"classic::allreduce", "classic::iallreduce",
                                  "classic::allreduce_init"};
inline constexpr Names kReduceScatter{"classic::reduce_scatter",
                                      "classic::ireduce_scatter",
                                      "classic::reduce_scatter_init"};
inline constexpr Names kReduceScatterBlock{
    "classic::reduce_scatter_block", "classic::ireduce_scatter_block",
    "classic::reduce_scatter_block_init"};
inline constexpr Names kScan{"classic::scan", "classic::iscan",
                             "classic::scan_init"};
inline constexpr Names kExscan{"classic::exscan", "classic::iexscan",
                               "classic::exscan_init"};
inline constexpr Names kBarrier{"classic::barrier", "classic::ibarrier",
                                "classic::barrier_init"};
inline constexpr Names kAlltoallw{"classic::alltoallw", "classic::ialltoallw",
                                  "classic::alltoallw_init"};
inline constexpr Names kBcast{"classic::bcast", "classic::ibcast",
                              "classic::bcast_init"};
inline constexpr Names kGather{"classic::gather", "classic::igather",
                               "classic::gather_init"};
inline constexpr Names kGatherv{"classic::gatherv", "classic::igatherv",
                                "classic::gatherv_init"};
inline constexpr Names kScatter{"classic::scatter", "classic::iscatter",
                                "classic::scatter_init"};
inline constexpr Names kScatterv{"classic::scatterv", "classic::iscatterv",
                                 "classic::scatterv_init"};
inline constexpr Names kReduce{"classic::reduce", "classic::ireduce",
                               "classic::reduce_init"};

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_COLLECTIVE_NAMES_H_
