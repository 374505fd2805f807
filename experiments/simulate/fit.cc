#include "experiments/simulate/fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "experiments/simulate/loop.h"
#include "experiments/simulate/predict.h"

namespace simulate {
namespace {

// The prices a fit moves, by address in a machine.
std::vector<double*> fitted_prices(Machine& machine) {
  return {&machine.copy_byte_ns,
          &machine.switch_ns,
          &machine.within.latency_ns,
          &machine.within.message_ns,
          &machine.within.peer_ns,
          &machine.within.byte_ns,
          &machine.within.rendezvous_ns,
          &machine.within.receive_message_ns,
          &machine.within.receive_byte_ns,
          &machine.within_spanning_latency_ns,
          &machine.between.latency_ns,
          &machine.between.message_ns,
          &machine.between.peer_ns,
          &machine.between.byte_ns,
          &machine.between.rendezvous_ns,
          &machine.between.receive_message_ns,
          &machine.between.receive_byte_ns,
          &machine.multiply_add_ns};
}

// Multiplicative steps, coarse to fine.
constexpr double kSteps[] = {2.0, 1.4, 1.15, 1.05, 1.01};
// A price at zero cannot be scaled: it starts here (ns, or ns a byte).
constexpr double kLeastStart = 0.01;
constexpr int kMostSweepsPerStep = 50;
constexpr int kMostPolishSteps = 200;

// log(predicted / measured) of every point.
Eigen::VectorXd log_errors(std::span<const PreparedPoint> points,
                           const Machine& machine) {
  Eigen::VectorXd errors(static_cast<Eigen::Index>(points.size()));
  for (std::size_t j = 0; j < points.size(); ++j) {
    const double ratio =
        predicted_us(points[j], machine) / points[j].point->measured_us;
    errors[static_cast<Eigen::Index>(j)] = std::log(std::max(ratio, 1e-9));
  }
  return errors;
}

// d(log error of each point) / d(price), by forward differences.
Eigen::MatrixXd jacobian(std::span<const PreparedPoint> points,
                         Machine& machine, const std::vector<double*>& prices,
                         const Eigen::VectorXd& errors) {
  Eigen::MatrixXd j(errors.size(), static_cast<Eigen::Index>(prices.size()));
  for (std::size_t i = 0; i < prices.size(); ++i) {
    const double kept = *prices[i];
    const double h = std::max(kept * 1e-4, 1e-6);
    *prices[i] = kept + h;
    j.col(static_cast<Eigen::Index>(i)) =
        (log_errors(points, machine) - errors) / h;
    *prices[i] = kept;
  }
  return j;
}

// Levenberg and Marquardt's damped Gauss-Newton steps from where the
// descent stopped, on the prices themselves (kept >= 0): the prices enter
// a prediction linearly where its bounds hold, so that these steps move
// several prices at once along a valley (a message's price at its sender
// against its receiver's) where the descent, one price at a time, stalls.
void polish(std::span<const PreparedPoint> points, Machine& machine) {
  const std::vector<double*> prices = fitted_prices(machine);
  double lambda = 1e-3;
  Eigen::VectorXd errors = log_errors(points, machine);
  for (int step = 0; step < kMostPolishSteps; ++step) {
    const Eigen::MatrixXd j = jacobian(points, machine, prices, errors);
    const Eigen::MatrixXd a = j.transpose() * j;
    const Eigen::VectorXd g = j.transpose() * errors;
    const double cost = errors.squaredNorm();
    bool moved = false;
    while (!moved && lambda < 1e12) {
      Eigen::MatrixXd damped = a;
      for (Eigen::Index i = 0; i < a.rows(); ++i) {
        damped(i, i) += lambda * std::max(a(i, i), 1e-12);
      }
      const Eigen::VectorXd delta = damped.ldlt().solve(-g);
      std::vector<double> kept;
      for (std::size_t i = 0; i < prices.size(); ++i) {
        kept.push_back(*prices[i]);
        *prices[i] =
            std::max(0.0, kept[i] + delta[static_cast<Eigen::Index>(i)]);
      }
      const Eigen::VectorXd trial = log_errors(points, machine);
      if (trial.squaredNorm() < cost) {
        errors = trial;
        lambda = std::max(lambda / 10, 1e-12);
        moved = true;
      } else {
        for (std::size_t i = 0; i < prices.size(); ++i) *prices[i] = kept[i];
        lambda *= 10;
      }
    }
    if (!moved || errors.squaredNorm() > cost * (1 - 1e-9)) return;
  }
}

}  // namespace

std::vector<PreparedPoint> prepare(std::span<const MeasuredPoint> points,
                                   const Machine& machine, int loop_calls) {
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
    prepared.push_back({.point = &point,
                        .exchange = std::move(*sent),
                        .node_of_rank = workload.graph.host_of_rank,
                        .loop_calls = loop_calls});
  }
  return prepared;
}

double predicted_us(const PreparedPoint& point, const Machine& machine) {
  if (point.loop_calls > 0) {
    return loop_ns(point.exchange, point.node_of_rank, machine,
                   point.loop_calls) /
           1000;
  }
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
  polish(points, machine);
  return machine;
}

}  // namespace simulate
