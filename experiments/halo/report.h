// The stencil experiments' output: one line per implementation, key=value
// pairs that tools/run.sh reads (MPI-free).
#ifndef ORTHOCOMM_EXPERIMENTS_HALO_REPORT_H_
#define ORTHOCOMM_EXPERIMENTS_HALO_REPORT_H_

#include <array>
#include <cstdint>
#include <string>

#include "experiments/halo/decomposition.h"
#include "experiments/halo/run.h"

namespace halo {

// What every line of one program run shares.
struct Setting {
  std::string program;  // "life", "jacobi"
  int rows = 0;         // the global grid
  int columns = 0;
  int processes = 0;
  std::array<int, 2> dims{1, 1};
  Borders borders = Borders::fixed;
  std::string value_name;  // the global check: "population", "residual"
};

// program variant=NAME grid=RxC processes=P dims=AxB borders=B
// iterations=K seconds_per_iteration=T seconds_min=L seconds_max=H
// batches=B [exchange_seconds=X] messages=M bytes=Y
// traffic=counted|model algorithm=A VALUE_NAME=V checksum=HEX
// [note="..."] result=correct|MISMATCH <where>
std::string report_line(const Setting& setting, const Report& report);

// program variant=serial grid=RxC iterations=K VALUE_NAME=V checksum=HEX
std::string serial_line(const Setting& setting, int iterations, double value,
                        std::uint64_t checksum);

// program mapping graph=GRAPH reorder=yes|no MAPPING: the traffic between
// hosts of the ortho graph that `graph` names ("blocked", "cells"), with
// `mapping` as halo::mapping_text gives it.
std::string mapping_line(const Setting& setting, const std::string& graph,
                         bool reorder, const std::string& mapping);

}  // namespace halo

#endif  // ORTHOCOMM_EXPERIMENTS_HALO_REPORT_H_
