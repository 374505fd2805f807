#include "experiments/halo/report.h"

#include <cinttypes>
#include <cstdio>

namespace halo {
namespace {

std::string format(const char* pattern, auto... values) {
  const int length = std::snprintf(nullptr, 0, pattern, values...);
  std::string text(static_cast<std::size_t>(length), '\0');
  std::snprintf(text.data(), text.size() + 1, pattern, values...);
  return text;
}

std::string grid_text(const Setting& setting) {
  return format("grid=%dx%d", setting.rows, setting.columns);
}

std::string value_text(const Setting& setting, double value,
                       std::uint64_t checksum) {
  return format("%s=%.10g checksum=%016" PRIx64, setting.value_name.c_str(),
                value, checksum);
}

}  // namespace

std::string report_line(const Setting& setting, const Report& report) {
  std::string line =
      setting.program + " variant=" + report.implementation + " " +
      grid_text(setting) +
      format(" processes=%d dims=%dx%d borders=", setting.processes,
             setting.dims[0], setting.dims[1]) +
      std::string(to_string(setting.borders)) +
      format(
          " iterations=%d seconds_per_iteration=%.6g seconds_min=%.6g"
          " seconds_max=%.6g batches=%d",
          report.iterations, report.seconds.median, report.seconds.min,
          report.seconds.max, report.seconds.batches) +
      (report.exchange_seconds > 0
           ? format(" exchange_seconds=%.6g", report.exchange_seconds)
           : std::string()) +
      format(" messages=%" PRId64 " bytes=%" PRId64 " traffic=%s",
             report.traffic.messages, report.traffic.bytes,
             report.traffic.measured ? "counted" : "model") +
      " algorithm=" + report.algorithm + " " +
      value_text(setting, report.value, report.checksum);
  if (!report.note.empty()) line += " note=\"" + report.note + "\"";
  line +=
      report.correct ? " result=correct" : " result=MISMATCH " + report.detail;
  return line;
}

std::string serial_line(const Setting& setting, int iterations, double value,
                        std::uint64_t checksum) {
  return setting.program + " variant=serial " + grid_text(setting) +
         format(" iterations=%d ", iterations) +
         value_text(setting, value, checksum);
}

std::string mapping_line(const Setting& setting, const std::string& graph,
                         bool reorder, const std::string& mapping) {
  return setting.program + " mapping graph=" + graph +
         " reorder=" + (reorder ? "yes" : "no") + " " + mapping;
}

}  // namespace halo
