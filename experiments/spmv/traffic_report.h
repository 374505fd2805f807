// What each of ortho's algorithms for alltoallv sends on the halo's graph
// (ortho::traffic, from the plans before any call): per algorithm, the
// busiest process's messages and rounds, its messages to other hosts, and
// the messages between hosts of all processes together. Blocks' sizes do
// not change the messages, so one size stands for the halo's.
#ifndef ORTHOCOMM_EXPERIMENTS_SPMV_TRAFFIC_REPORT_H_
#define ORTHOCOMM_EXPERIMENTS_SPMV_TRAFFIC_REPORT_H_

#include <string>

#include "experiments/spmv/problem.h"

namespace spmv {

// Rank 0 prints one line per algorithm: spmv traffic matrix=NAME
// placement=P algorithm=A messages=M rounds=R messages_between_hosts=B
// messages_between_hosts_total=T (blocking calls; "-" where the algorithm's
// traffic is not known ahead of a call). Collective over the processes.
void print_traffic(const Problem& problem, const std::string& matrix,
                   const std::string& placement);

}  // namespace spmv

#endif  // ORTHOCOMM_EXPERIMENTS_SPMV_TRAFFIC_REPORT_H_
