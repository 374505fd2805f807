#include "experiments/halo/exchange.h"

#include <cinttypes>
#include <cstdio>
#include <string>

#include "ortho/mapping.h"

namespace halo {
namespace {

// "PREFIXedges=E PREFIXweight=W PREFIXmax_host_weight=M".
std::string traffic_text(const std::string& prefix,
                         const ortho::HostTraffic& traffic) {
  char text[160];
  std::snprintf(text, sizeof text,
                "%sedges=%" PRId64 " %sweight=%" PRId64
                " %smax_host_weight=%" PRId64,
                prefix.c_str(), traffic.edges, prefix.c_str(), traffic.weight,
                prefix.c_str(), traffic.max_host_weight);
  return text;
}

}  // namespace

std::unique_ptr<Exchange> make_exchange(const Implementation& implementation,
                                        const GridSpec& spec,
                                        int element_bytes) {
  if (implementation.library == Library::openmpi) {
    return make_openmpi_exchange(implementation.mode, spec);
  }
  return make_ortho_exchange(implementation.mode, implementation.algorithm,
                             spec, element_bytes);
}

std::string mapping_text(const classic::Comm& graph) {
  const ortho::MappingReport report = ortho::mapping_report(graph);
  std::string text = "hosts=" + std::to_string(report.hosts) +
                     " mapped=" + (report.mapped ? "yes" : "no") + " " +
                     traffic_text("", report.traffic);
  if (report.identity) {
    text += " " + traffic_text("identity_", *report.identity);
  }
  if (report.best_blocks) {
    text += " " + traffic_text("best_", *report.best_blocks);
  }
  return text;
}

}  // namespace halo
