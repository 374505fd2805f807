#include "experiments/simulate/fit.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "experiments/simulate/predict.h"

namespace simulate {
namespace {

// The prices a fit moves, by address in a machine.
std::vector<double*> fitted_prices(Machine& machine) {
  return {&machine.copy_byte_ns,
          &machine.switch_ns,
          &machine.within.latency_ns,
          &machine.within.message_ns,
          &machine.within.byte_ns,
          &machine.within.rendezvous_ns,
          &machine.within.receive_message_ns,
          &machine.within.receive_byte_ns,
          &machine.between.latency_ns,
          &machine.between.message_ns,
          &machine.between.byte_ns,
          &machine.between.rendezvous_ns,
          &machine.between.receive_message_ns,
          &machine.between.receive_byte_ns};
}

// Multiplicative steps, coarse to fine.
constexpr double kSteps[] = {2.0, 1.4, 1.15, 1.05, 1.01};
// A price at zero cannot be scaled: it starts here (ns, or ns a byte).
constexpr double kLeastStart = 0.01;
constexpr int kMostSweepsPerStep = 50;

}  // namespace

std::vector<PreparedPoint> prepare(std::span<const MeasuredPoint> points,
                                   const Machine& machine) {
  std::vector<PreparedPoint> prepared;
  prepared.reserve(points.size());
  for (const MeasuredPoint& point : points) {
    const Workload workload = workload_of(point);
    const auto split_eager = static_cast<std::size_t>(
        point.shape.nodes > 1 ? machine.between.eager_bytes
                              : machine.within.eager_bytes);
    std::optional<Exchange> sent =
        exchange(workload, point.algorithm, point.operation, point.block_bytes,
                 split_eager);
    if (!sent) {
      throw std::invalid_argument(
          "simulate::prepare: " + std::string(name_of(point.algorithm)) +
          " does not run on " + point.workload);
    }
    prepared.push_back({&point, std::move(*sent), workload.graph.host_of_rank});
  }
  return prepared;
}

double predicted_us(const PreparedPoint& point, const Machine& machine) {
  return predict(point.exchange, point.node_of_rank, machine).ns / 1000;
}

double squared_log_error(std::span<const PreparedPoint> points,
                         const Machine& machine) {
  double sum = 0;
  for (const PreparedPoint& point : points) {
    const double ratio =
        predicted_us(point, machine) / point.point->measured_us;
    const double error = std::log(std::max(ratio, 1e-9));
    sum += error * error;
  }
  return sum;
}

Machine fit_machine(std::span<const PreparedPoint> points, Machine start) {
  Machine machine = std::move(start);
  for (double* price : fitted_prices(machine)) {
    *price = std::max(*price, kLeastStart);
  }
  double best = squared_log_error(points, machine);
  for (const double step : kSteps) {
    for (int sweep = 0; sweep < kMostSweepsPerStep; ++sweep) {
      bool improved = false;
      for (double* price : fitted_prices(machine)) {
        for (const double factor : {step, 1 / step}) {
          const double kept = *price;
          *price = kept * factor;
          const double error = squared_log_error(points, machine);
          if (error < best) {
            best = error;
            improved = true;
          } else {
            *price = kept;
          }
        }
      }
      if (!improved) break;
    }
  }
  return machine;
}

}  // namespace simulate
