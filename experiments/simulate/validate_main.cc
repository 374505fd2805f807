// The simulator against what was measured here: predicts every measured
// point (points.h; tools/simulation_points.py writes them from the
// benchmarks' results folders) under a machine file's prices and tables
// predicted / measured per job and algorithm, with the median error and
// the share of points within 25 %, and how often the algorithm it predicts
// fastest is the one measured fastest; --worst=N lists the N points predicted
// worst (by |log(predicted / measured)|). With --fit=OUT it first fits the
// machine's prices to the points (fit.h), tables the fitted prediction and
// writes the fitted machine file to OUT.
//
// --holdout (with --fit) fits on every other point of each job and
// algorithm only and tables the others, which the fit did not see.
// --loop=C predicts each point as a call of a loop of C calls (loop.h: as
// the benchmarks time their calls, in batches after a barrier) in place of
// one call's rounds in turn (predict.h).
//
//   validate --machine=FILE --points=CSV [--fit=OUT [--holdout]] [--loop=C]
//            [--worst=N]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "experiments/simulate/fit.h"
#include "experiments/simulate/machine.h"
#include "experiments/simulate/points.h"

namespace {

struct Arguments {
  std::string machine;
  std::string points;
  std::string fit;
  int worst = 0;
  int loop_calls = 0;
  bool holdout = false;
};

// The whole number >= 1 after an option's '=' at `from`.
int whole_number(const std::string& argument, std::size_t from) {
  const std::string value = argument.substr(from);
  std::size_t end = 0;
  int number = 0;
  try {
    number = std::stoi(value, &end);
  } catch (const std::exception&) {
    end = 0;
  }
  if (end == 0 || end != value.size() || number < 1) {
    throw std::invalid_argument("validate: " + argument + ": '" + value +
                                "' is not a whole number >= 1");
  }
  return number;
}

Arguments arguments_of(int argc, char** argv) {
  Arguments arguments;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.starts_with("--machine=")) {
      arguments.machine = argument.substr(10);
    } else if (argument.starts_with("--points=")) {
      arguments.points = argument.substr(9);
    } else if (argument.starts_with("--fit=")) {
      arguments.fit = argument.substr(6);
    } else if (argument.starts_with("--loop=")) {
      arguments.loop_calls = whole_number(argument, 7);
    } else if (argument == "--holdout") {
      arguments.holdout = true;
    } else if (argument.starts_with("--worst=")) {
      arguments.worst = whole_number(argument, 8);
    } else {
      throw std::invalid_argument("validate: unknown argument '" + argument +
                                  "'");
    }
  }
  if (arguments.machine.empty() || arguments.points.empty()) {
    throw std::invalid_argument(
        "usage: validate --machine=FILE --points=CSV [--fit=OUT [--holdout]] "
        "[--loop=C] [--worst=N]");
  }
  if (arguments.holdout && arguments.fit.empty()) {
    throw std::invalid_argument("validate: --holdout needs --fit=OUT");
  }
  return arguments;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

void print_table(const std::vector<simulate::PreparedPoint>& points,
                 const simulate::Machine& machine) {
  std::map<std::pair<std::string, std::string>, std::vector<double>> ratios;
  for (const simulate::PreparedPoint& point : points) {
    const double ratio =
        simulate::predicted_us(point, machine) / point.point->measured_us;
    const std::string algorithm(simulate::name_of(point.point->algorithm));
    ratios[{point.point->setting(), algorithm}].push_back(ratio);
    ratios[{"all", algorithm}].push_back(ratio);
    ratios[{"all", "all"}].push_back(ratio);
  }
  std::printf(
      "| job | algorithm | points | predicted / measured, median (least - "
      "greatest) | median error | within 25 %% |\n"
      "| --- | --- | ---: | ---: | ---: | ---: |\n");
  for (const auto& [key, values] : ratios) {
    std::vector<double> errors;
    int within = 0;
    for (const double ratio : values) {
      errors.push_back(std::abs(ratio - 1));
      within += std::abs(ratio - 1) <= 0.25 ? 1 : 0;
    }
    std::printf("| %s | %s | %zu | %.2f (%.2f - %.2f) | %.0f %% | %.0f %% |\n",
                key.first.c_str(), key.second.c_str(), values.size(),
                median(values), *std::min_element(values.begin(), values.end()),
                *std::max_element(values.begin(), values.end()),
                100 * median(errors),
                100.0 * within / static_cast<double>(values.size()));
  }
}

void print_worst(const std::vector<simulate::PreparedPoint>& points,
                 const simulate::Machine& machine, int worst) {
  std::vector<std::pair<double, const simulate::PreparedPoint*>> ranked;
  ranked.reserve(points.size());
  for (const simulate::PreparedPoint& point : points) {
    ranked.emplace_back(
        std::abs(std::log(simulate::predicted_us(point, machine) /
                          point.point->measured_us)),
        &point);
  }
  std::sort(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  ranked.resize(std::min(ranked.size(), static_cast<std::size_t>(worst)));
  std::printf(
      "\n| job | workload | operation | block B | algorithm | "
      "measured us | predicted us |\n"
      "| --- | --- | --- | ---: | --- | ---: | ---: |\n");
  for (const auto& [error, point] : ranked) {
    const simulate::MeasuredPoint& p = *point->point;
    std::printf(
        "| %s | %s | %s | %zu | %s | %.1f | %.1f |\n", p.setting().c_str(),
        p.workload.c_str(), std::string(simulate::name_of(p.operation)).c_str(),
        p.block_bytes, std::string(simulate::name_of(p.algorithm)).c_str(),
        p.measured_us, simulate::predicted_us(*point, machine));
  }
}

// The choice the prediction makes: per measured point (job, workload,
// operation, block size, results folder; repeated measurements of an
// algorithm by their median), whether the algorithm predicted fastest is
// the one measured fastest, and what its measured time is over the
// fastest's; per job, as tools/model_error.py tables ortho's cost model.
void print_choices(const std::vector<simulate::PreparedPoint>& points,
                   const simulate::Machine& machine) {
  struct Candidate {
    double predicted = 0;
    std::vector<double> measured;
  };
  std::map<std::vector<std::string>, std::map<std::string, Candidate>> at;
  for (const simulate::PreparedPoint& point : points) {
    const simulate::MeasuredPoint& p = *point.point;
    Candidate& candidate = at[{p.setting(), p.source, p.workload,
                               std::string(simulate::name_of(p.operation)),
                               std::to_string(p.block_bytes)}]
                             [std::string(simulate::name_of(p.algorithm))];
    candidate.predicted = simulate::predicted_us(point, machine);
    candidate.measured.push_back(p.measured_us);
  }
  std::map<std::string, std::vector<double>> losses;
  for (const auto& [key, candidates] : at) {
    if (candidates.size() < 2) continue;
    const Candidate* pick = nullptr;
    double fastest = 0;
    for (const auto& [name, candidate] : candidates) {
      if (pick == nullptr || candidate.predicted < pick->predicted) {
        pick = &candidate;
      }
      const double measured = median(candidate.measured);
      if (fastest == 0 || measured < fastest) fastest = measured;
    }
    losses[key[0]].push_back(median(pick->measured) / fastest);
  }
  std::printf(
      "\n| job | points with a choice | predicted fastest is the fastest | "
      "pick / fastest, median (greatest) |\n| --- | ---: | ---: | ---: |\n");
  for (const auto& [job, ratios] : losses) {
    const auto right = std::count(ratios.begin(), ratios.end(), 1.0);
    std::printf("| %s | %zu | %td | %.2f (%.2f) |\n", job.c_str(),
                ratios.size(), right, median(ratios),
                *std::max_element(ratios.begin(), ratios.end()));
  }
}

void write_machine(const std::string& path, simulate::Machine m,
                   const Arguments& arguments) {
  const std::string model = arguments.loop_calls > 0
                                ? "as calls of loops of " +
                                      std::to_string(arguments.loop_calls) +
                                      " calls (--loop)"
                                : "as one call's rounds";
  m.name = "fitted to " + arguments.points;
  std::ofstream out(path);
  out << simulate::machine_file_text(
      m, "Fitted by experiments/simulate:validate --fit to the points of\n" +
             arguments.points + ", predicted " + model +
             "\n(coordinate descent on log prices, then Levenberg-Marquardt "
             "steps).");
  if (!out) throw std::runtime_error("validate: cannot write " + path);
}

int run(const Arguments& arguments) {
  simulate::Machine machine = simulate::load_machine(arguments.machine);
  std::ifstream file(arguments.points);
  if (!file) throw std::runtime_error(arguments.points + ": cannot be read");
  const std::vector<simulate::MeasuredPoint> measured =
      simulate::read_points(file, arguments.points);
  const std::vector<simulate::PreparedPoint> points =
      simulate::prepare(measured, machine, arguments.loop_calls);
  std::printf("# %zu points of %s; machine: %s (%s)\n\n", points.size(),
              arguments.points.c_str(), machine.name.c_str(),
              arguments.machine.c_str());
  print_table(points, machine);
  if (arguments.fit.empty()) {
    print_choices(points, machine);
    print_worst(points, machine, arguments.worst);
  }
  if (!arguments.fit.empty() && arguments.holdout) {
    // Every other point of each job and algorithm, so that each is on
    // both sides.
    std::vector<simulate::PreparedPoint> fitted_on;
    std::vector<simulate::PreparedPoint> held_out;
    std::map<std::pair<std::string, std::string>, int> seen;
    for (const simulate::PreparedPoint& point : points) {
      const int n =
          seen[{point.point->setting(),
                std::string(simulate::name_of(point.point->algorithm))}]++;
      (n % 2 == 0 ? fitted_on : held_out).push_back(point);
    }
    machine = simulate::fit_machine(fitted_on, machine);
    write_machine(arguments.fit, machine, arguments);
    std::printf(
        "\n# fitted on %zu points (written to %s); the %zu held out:\n\n",
        fitted_on.size(), arguments.fit.c_str(), held_out.size());
    print_table(held_out, machine);
    return 0;
  }
  if (!arguments.fit.empty()) {
    machine = simulate::fit_machine(points, machine);
    write_machine(arguments.fit, machine, arguments);
    std::printf("\n# fitted (written to %s)\n\n", arguments.fit.c_str());
    print_table(points, machine);
    print_choices(points, machine);
    print_worst(points, machine, arguments.worst);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(arguments_of(argc, argv));
  } catch (const std::exception& error) {
    std::cerr << error.what() << "\n";
    return 1;
  }
}
