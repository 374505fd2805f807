// Sparse matrix-vector products as sparse codes run them: y = A x with A
// read from a Matrix Market file, its rows and columns split into
// contiguous blocks over the processes (halo_plan.h), and each iteration's
// halo exchange of x (every entry a process needs from another) a
// neighbourhood alltoallv on a graph communicator of the halo's edges.
// Implementations, interleaved in batches of 10 iterations:
//   openmpi                    MPI_Neighbor_alltoallv on Open MPI's graph
//   raw                        the same messages posted by hand (the floor)
//   ortho-direct               ortho::alltoallv forced direct
//   ortho-selected             ortho::alltoallv as ortho selects it
//   ortho-selected-persistent  ortho::alltoallv_init, started per iteration
// An iteration exchanges the halo, computes y over the process's rows and
// then the next x: y scaled by the largest absolute row sum for a square
// matrix (a power iteration), x / 2 + 1/4 for a rectangular one. Every
// process checks its final y and the sum of its y over the iterations bit
// for bit against a serial run of the same iterations with Eigen's product
// of the whole matrix (the same sums in the same order).
//
//   mpirun -np P spmv --matrix=PATH [--iterations=N] [--variant=LIST]
//                     [--corrupt=VARIANT]
//
// --corrupt=VARIANT spoils one received entry of that implementation's
// first exchange on every process that receives any, so that the check can
// be seen to fail.
//
// Rank 0 prints one line per implementation: spmv variant=V matrix=NAME
// rows=R columns=C processes=P iterations=N seconds_per_iteration=S
// seconds_min=S seconds_max=S batches=B messages=M bytes=B result=correct
// (or result=MISMATCH; the program then exits 1). messages and bytes: sent
// per iteration by the busiest process.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "classic/base/environment.h"
#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "experiments/progress.h"
#include "experiments/run_benchmarks.h"
#include "experiments/spmv/halo_plan.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/table.h"

namespace spmv {
namespace {

constexpr int kBatch = 10;

struct Options {
  std::string matrix;
  int iterations = 100;
  std::vector<std::string> variants = {"openmpi", "raw", "ortho-direct",
                                       "ortho-selected",
                                       "ortho-selected-persistent"};
  std::string corrupt;
};

// What every implementation shares: the matrix, the blocks, this
// process's halo and the iteration's arithmetic.
struct Problem {
  Matrix a;
  std::vector<int> row_begins;
  std::vector<int> column_begins;
  int rank = 0;
  HaloPlan plan;
  std::vector<int> slots;
  double scale = 1;  // the largest absolute row sum (square matrices)
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls;

  bool square() const { return a.rows() == a.cols(); }
  int own_columns() const {
    const auto p = static_cast<std::size_t>(rank);
    return column_begins[p + 1] - column_begins[p];
  }
  // x's next own entries from this iteration's.
  void next_x(std::vector<double>& x, const std::vector<double>& y) const {
    if (square()) {
      for (std::size_t i = 0; i < x.size(); ++i) x[i] = y[i] / scale;
    } else {
      for (double& value : x) value = value / 2 + 0.25;
    }
  }
  // x's first entries: a function of the global column.
  std::vector<double> first_x() const {
    std::vector<double> x(static_cast<std::size_t>(own_columns()));
    for (std::size_t i = 0; i < x.size(); ++i) {
      const int column =
          column_begins[static_cast<std::size_t>(rank)] + static_cast<int>(i);
      x[i] = 1 + (column % 7) * 0.125;
    }
    return x;
  }
};

// One implementation's run: its own x, y and sum, and its exchange.
class Run {
 public:
  Run(std::string name, const Problem& problem)
      : name_(std::move(name)), problem_(problem), x_(problem.first_x()) {
    send_.resize(static_cast<std::size_t>(std::accumulate(
        problem.sendcounts.begin(), problem.sendcounts.end(), 0)));
    values_.resize(
        static_cast<std::size_t>(problem.own_columns()) +
        static_cast<std::size_t>(std::accumulate(problem.recvcounts.begin(),
                                                 problem.recvcounts.end(), 0)));
  }
  virtual ~Run() = default;
  const std::string& name() const { return name_; }

  // One iteration: pack, exchange, multiply, next x.
  void step() {
    std::size_t at = 0;
    const int first =
        problem_.column_begins[static_cast<std::size_t>(problem_.rank)];
    for (const std::vector<int>& columns : problem_.plan.send_columns) {
      for (const int column : columns) {
        send_[at++] = x_[static_cast<std::size_t>(column - first)];
      }
    }
    std::copy(x_.begin(), x_.end(), values_.begin());
    exchange(send_, std::span<double>(values_).subspan(x_.size()));
    if (spoil_ && values_.size() > x_.size()) values_[x_.size()] += 1;
    spoil_ = false;
    y_ = local_product(problem_.a, problem_.row_begins, problem_.rank,
                       problem_.slots, values_);
    for (const double value : y_) sum_ += value;
    problem_.next_x(x_, y_);
  }
  const std::vector<double>& y() const { return y_; }
  double sum() const { return sum_; }
  void spoil() { spoil_ = true; }

 protected:
  virtual void exchange(const std::vector<double>& send,
                        std::span<double> recv) = 0;
  const Problem& problem() const { return problem_; }

 private:
  std::string name_;
  const Problem& problem_;
  std::vector<double> x_, send_, values_, y_;
  double sum_ = 0;
  bool spoil_ = false;
};

// The floor: the same messages posted by hand (MPI_Irecv from every
// source, MPI_Isend to every destination, one MPI_Waitall) on a duplicate
// of the world.
class HandPostedRun final : public Run {
 public:
  explicit HandPostedRun(const Problem& problem) : Run("raw", problem) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
  }
  ~HandPostedRun() override { MPI_Comm_free(&comm_); }

 private:
  void exchange(const std::vector<double>& send,
                std::span<double> recv) override {
    const Problem& p = problem();
    requests_.clear();
    for (std::size_t i = 0; i < p.plan.sources.size(); ++i) {
      MPI_Request& request = requests_.emplace_back();
      MPI_Irecv(recv.data() + p.rdispls[i], p.recvcounts[i], MPI_DOUBLE,
                p.plan.sources[i], 0, comm_, &request);
    }
    for (std::size_t i = 0; i < p.plan.destinations.size(); ++i) {
      MPI_Request& request = requests_.emplace_back();
      MPI_Isend(send.data() + p.sdispls[i], p.sendcounts[i], MPI_DOUBLE,
                p.plan.destinations[i], 0, comm_, &request);
    }
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(),
                MPI_STATUSES_IGNORE);
  }
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<MPI_Request> requests_;
};

class OpenMpiRun final : public Run {
 public:
  explicit OpenMpiRun(const Problem& problem) : Run("openmpi", problem) {
    const HaloPlan& plan = problem.plan;
    MPI_Dist_graph_create_adjacent(
        MPI_COMM_WORLD, static_cast<int>(plan.sources.size()),
        plan.sources.data(), MPI_UNWEIGHTED,
        static_cast<int>(plan.destinations.size()), plan.destinations.data(),
        MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph_);
  }
  ~OpenMpiRun() override { MPI_Comm_free(&graph_); }

 private:
  void exchange(const std::vector<double>& send,
                std::span<double> recv) override {
    const Problem& p = problem();
    MPI_Neighbor_alltoallv(send.data(), p.sendcounts.data(), p.sdispls.data(),
                           MPI_DOUBLE, recv.data(), p.recvcounts.data(),
                           p.rdispls.data(), MPI_DOUBLE, graph_);
  }
  MPI_Comm graph_ = MPI_COMM_NULL;
};

classic::Comm ortho_graph(const Problem& problem) {
  return ortho::dist_graph_create_adjacent(
      classic::Comm::world(), problem.plan.sources, classic::unweighted,
      problem.plan.destinations, classic::unweighted);
}

class OrthoRun final : public Run {
 public:
  OrthoRun(std::string name, const Problem& problem, const char* algorithm)
      : Run(std::move(name), problem), graph_(ortho_graph(problem)) {
    if (algorithm != nullptr) ortho::set_algorithm(graph_, algorithm);
  }

 private:
  void exchange(const std::vector<double>& send,
                std::span<double> recv) override {
    const Problem& p = problem();
    ortho::alltoallv(graph_, send, p.sendcounts, p.sdispls, recv, p.recvcounts,
                     p.rdispls);
  }
  classic::Comm graph_;
};

// The persistent request binds its buffers: it exchanges from and into
// buffers of its own, copied around each start.
class PersistentRun final : public Run {
 public:
  explicit PersistentRun(const Problem& problem)
      : Run("ortho-selected-persistent", problem),
        graph_(ortho_graph(problem)),
        send_(static_cast<std::size_t>(std::accumulate(
            problem.sendcounts.begin(), problem.sendcounts.end(), 0))),
        recv_(static_cast<std::size_t>(std::accumulate(
            problem.recvcounts.begin(), problem.recvcounts.end(), 0))),
        request_(ortho::alltoallv_init(graph_, send_, problem.sendcounts,
                                       problem.sdispls, recv_,
                                       problem.recvcounts, problem.rdispls)) {}

 private:
  void exchange(const std::vector<double>& send,
                std::span<double> recv) override {
    std::copy(send.begin(), send.end(), send_.begin());
    classic::start(request_);
    (void)classic::wait(request_);
    std::copy(recv_.begin(), recv_.end(), recv.begin());
  }
  classic::Comm graph_;
  std::vector<double> send_, recv_;
  classic::Request request_;
};

Problem make_problem(const Options& options, int rank, int size) {
  Problem problem;
  problem.a = read_matrix(options.matrix);
  problem.rank = rank;
  problem.row_begins = blocks(static_cast<int>(problem.a.rows()), size);
  problem.column_begins = blocks(static_cast<int>(problem.a.cols()), size);
  problem.plan =
      halo_plan(problem.a, problem.row_begins, problem.column_begins, rank);
  problem.slots = entry_slots(problem.a, problem.row_begins,
                              problem.column_begins, rank, problem.plan);
  for (int row = 0; row < problem.a.rows(); ++row) {
    double sum = 0;
    for (Matrix::InnerIterator it(problem.a, row); it; ++it) {
      sum += std::abs(it.value());
    }
    problem.scale = std::max(problem.scale, sum);
  }
  const auto counts = [](const std::vector<std::vector<int>>& lists,
                         std::vector<int>& sizes, std::vector<int>& displs) {
    int at = 0;
    for (const std::vector<int>& list : lists) {
      sizes.push_back(static_cast<int>(list.size()));
      displs.push_back(at);
      at += static_cast<int>(list.size());
    }
  };
  counts(problem.plan.send_columns, problem.sendcounts, problem.sdispls);
  counts(problem.plan.receive_columns, problem.recvcounts, problem.rdispls);
  return problem;
}

// The serial run on this process: Eigen's product of the whole matrix;
// this process's final rows of y and the sum of its rows over the
// iterations.
struct Reference {
  std::vector<double> y;
  double sum = 0;
};
Reference serial(const Problem& problem, int iterations) {
  const auto p = static_cast<std::size_t>(problem.rank);
  Eigen::VectorXd x(problem.a.cols());
  for (int column = 0; column < problem.a.cols(); ++column) {
    x[column] = 1 + (column % 7) * 0.125;
  }
  Reference reference;
  Eigen::VectorXd y;
  for (int k = 0; k < iterations; ++k) {
    y = problem.a * x;
    for (int row = problem.row_begins[p]; row < problem.row_begins[p + 1];
         ++row) {
      reference.sum += y[row];
    }
    if (problem.square()) {
      x = y / problem.scale;
    } else {
      for (int column = 0; column < x.size(); ++column) {
        x[column] = x[column] / 2 + 0.25;
      }
    }
  }
  for (int row = problem.row_begins[p]; row < problem.row_begins[p + 1];
       ++row) {
    reference.y.push_back(y.size() > 0 ? y[row] : 0.0);
  }
  return reference;
}

std::unique_ptr<Run> make_run(const std::string& name, const Problem& problem) {
  if (name == "openmpi") return std::make_unique<OpenMpiRun>(problem);
  if (name == "raw") return std::make_unique<HandPostedRun>(problem);
  if (name == "ortho-direct") {
    return std::make_unique<OrthoRun>(name, problem, "alltoallv=direct");
  }
  if (name == "ortho-selected") {
    return std::make_unique<OrthoRun>(name, problem, nullptr);
  }
  if (name == "ortho-selected-persistent") {
    return std::make_unique<PersistentRun>(problem);
  }
  return nullptr;
}

std::string parse(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.starts_with("--matrix=")) {
      options.matrix = arg.substr(9);
    } else if (arg.starts_with("--iterations=")) {
      options.iterations = std::atoi(arg.c_str() + 13);
      if (options.iterations <= 0) return "--iterations: a positive number";
    } else if (arg.starts_with("--corrupt=")) {
      options.corrupt = arg.substr(10);
    } else if (arg.starts_with("--variant=")) {
      options.variants.clear();
      std::string list = arg.substr(10);
      for (std::size_t begin = 0; begin <= list.size();) {
        const std::size_t end = std::min(list.find(',', begin), list.size());
        options.variants.push_back(list.substr(begin, end - begin));
        begin = end + 1;
      }
    } else {
      return "unknown argument '" + arg + "'";
    }
  }
  if (options.matrix.empty()) return "--matrix=PATH is required";
  return {};
}

int run(int argc, char** argv) {
  Options options;
  const int rank = classic::Environment::world_rank();
  const int size = classic::Environment::world_size();
  if (const std::string error = parse(argc, argv, options); !error.empty()) {
    if (rank == 0) std::fprintf(stderr, "spmv: %s\n", error.c_str());
    return 2;
  }
  progress::start(rank, size);
  const Problem problem = make_problem(options, rank, size);
  std::vector<std::unique_ptr<Run>> runs;
  for (const std::string& name : options.variants) {
    runs.push_back(make_run(name, problem));
    if (runs.back() == nullptr) {
      if (rank == 0)
        std::fprintf(stderr, "spmv: no variant '%s'\n", name.c_str());
      return 2;
    }
    if (name == options.corrupt) runs.back()->spoil();
  }
  std::vector<std::vector<double>> seconds(runs.size());
  for (int done = 0, round = 0; done < options.iterations;
       done += kBatch, ++round) {
    const int steps = std::min(kBatch, options.iterations - done);
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const std::size_t i = (k + static_cast<std::size_t>(round)) % runs.size();
      Run& run = *runs[i];
      seconds[i].push_back(experiments::slowest_seconds_per_call(
          run.name(), steps, [&] { run.step(); }));
    }
  }
  const Reference reference = serial(problem, options.iterations);
  int traffic[2] = {
      static_cast<int>(problem.plan.destinations.size()),
      static_cast<int>(8 * std::accumulate(problem.sendcounts.begin(),
                                           problem.sendcounts.end(), 0))};
  MPI_Allreduce(MPI_IN_PLACE, traffic, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const std::string name =
      options.matrix.substr(options.matrix.find_last_of('/') + 1);
  bool all_correct = true;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const double sum = runs[i]->sum();
    int correct = runs[i]->y().size() == reference.y.size() &&
                  std::memcmp(runs[i]->y().data(), reference.y.data(),
                              reference.y.size() * sizeof(double)) == 0 &&
                  std::memcmp(&sum, &reference.sum, sizeof(double)) == 0;
    MPI_Allreduce(MPI_IN_PLACE, &correct, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    all_correct = all_correct && correct != 0;
    std::vector<double> sorted = seconds[i];
    std::sort(sorted.begin(), sorted.end());
    if (rank == 0) {
      std::printf(
          "spmv variant=%s matrix=%s rows=%d columns=%d processes=%d "
          "iterations=%d seconds_per_iteration=%g seconds_min=%g "
          "seconds_max=%g batches=%zu messages=%d bytes=%d result=%s\n",
          runs[i]->name().c_str(), name.c_str(),
          static_cast<int>(problem.a.rows()),
          static_cast<int>(problem.a.cols()), size, options.iterations,
          sorted[sorted.size() / 2], sorted.front(), sorted.back(),
          sorted.size(), traffic[0], traffic[1],
          correct != 0 ? "correct" : "MISMATCH");
    }
  }
  return all_correct ? 0 : 1;
}

}  // namespace
}  // namespace spmv

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv,
                                   classic::UncaughtErrors::report_and_abort);
  return spmv::run(argc, argv);
}
