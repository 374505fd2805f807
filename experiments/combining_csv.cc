#include "experiments/combining_csv.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <span>
#include <string>

#include "classic/base/environment.h"

namespace experiments::combining {
namespace {

// The btl list ("self,vader") as one CSV field: its commas become '+'.
std::string csv_field(std::string text) {
  std::replace(text.begin(), text.end(), ',', '+');
  return text;
}

}  // namespace

void write_csv(const std::string& path, std::span<const Row> rows) {
  std::ofstream out(path);
  if (!out) {
    std::fprintf(stderr, "combining_benchmark: cannot write %s\n",
                 path.c_str());
    return;
  }
  const char* btl = std::getenv("OMPI_MCA_btl");
  out << "operation,stencil,dims,processes,btl,block_bytes,repetition,"
         "variant,algorithm,time_us,ratio_to_openmpi,messages,bytes,"
         "rounds,time_min_us,time_max_us,batches,modelled_us\n";
  for (const Row& row : rows) {
    out << row.operation << ',' << row.stencil << ',' << row.dims << ','
        << classic::Environment::world_size() << ','
        << csv_field(btl != nullptr ? btl : "default") << ',' << row.block_bytes
        << ',' << row.repetition << ',' << row.variant << ',' << row.algorithm
        << ',' << row.time_us.median << ',' << row.ratio_to_openmpi << ','
        << row.structure.messages << ',' << row.structure.bytes << ','
        << row.structure.rounds << ',' << row.time_us.min << ','
        << row.time_us.max << ',' << row.time_us.batches << ',';
    if (row.modelled_us) out << *row.modelled_us;
    out << '\n';
  }
}

}  // namespace experiments::combining
