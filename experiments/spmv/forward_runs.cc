// The forward steps of the SpMV experiment (runs.h): y = A x, x's halo
// exchanged from its owners to the processes whose rows need it.
#include <mpi.h>
// After mpi.h: MPIX_Neighbor_alltoallv_init (Open MPI's pcollreq extension).
#include <mpi-ext.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "experiments/spmv/runs.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/explain.h"
#include "ortho/table.h"

namespace spmv {

classic::Comm ortho_graph(const Problem& problem) {
  return ortho::dist_graph_create_adjacent(
      problem.processes, problem.plan.sources, classic::unweighted,
      problem.plan.destinations, classic::unweighted);
}

namespace {

// Open MPI's graph communicator of the halo (forward: owners to readers).
MPI_Comm openmpi_graph(const Problem& problem) {
  const HaloPlan& plan = problem.plan;
  MPI_Comm graph = MPI_COMM_NULL;
  MPI_Dist_graph_create_adjacent(
      problem.comm, static_cast<int>(plan.sources.size()), plan.sources.data(),
      MPI_UNWEIGHTED, static_cast<int>(plan.destinations.size()),
      plan.destinations.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph);
  return graph;
}

// One implementation's run: its own x, y and sum, and its exchange.
class Run : public Variant {
 public:
  Run(std::string name, const Problem& problem)
      : Variant(std::move(name)), problem_(problem), x_(problem.first_x()) {
    send_.resize(static_cast<std::size_t>(problem.sent_entries()));
    values_.resize(static_cast<std::size_t>(problem.own_columns()) +
                   static_cast<std::size_t>(problem.halo_columns()));
  }

  // One iteration: pack, exchange, multiply, next x.
  void step() override {
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
    if (take_spoil() && values_.size() > x_.size()) values_[x_.size()] += 1;
    y_ = local_product(problem_.a, problem_.row_begins, problem_.rank,
                       problem_.slots, values_);
    for (const double value : y_) sum_ += value;
    problem_.next_x(x_, y_);
  }
  // Bit for bit: the serial run makes the same sums in the same order.
  // NOLINTBEGIN(bugprone-suspicious-memory-comparison)
  bool correct(const Reference& reference) const override {
    return y_.size() == reference.y.size() &&
           std::memcmp(y_.data(), reference.y.data(),
                       y_.size() * sizeof(double)) == 0 &&
           std::memcmp(&sum_, &reference.sum, sizeof(double)) == 0;
  }
  // NOLINTEND(bugprone-suspicious-memory-comparison)
  bool accumulates() const override { return false; }

 protected:
  virtual void exchange(const std::vector<double>& send,
                        std::span<double> recv) = 0;
  const Problem& problem() const { return problem_; }

 private:
  const Problem& problem_;
  std::vector<double> x_, send_, values_, y_;
  double sum_ = 0;
};

// The floor: the same messages posted by hand (MPI_Irecv from every
// source, MPI_Isend to every destination, one MPI_Waitall) on a duplicate
// of the processes.
class HandPostedRun final : public Run {
 public:
  explicit HandPostedRun(const Problem& problem) : Run("raw", problem) {
    MPI_Comm_dup(problem.comm, &comm_);
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
  explicit OpenMpiRun(const Problem& problem)
      : Run("openmpi", problem), graph_(openmpi_graph(problem)) {}
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

// Open MPI's persistent neighbourhood alltoallv (MPIX_Neighbor_alltoallv_init,
// the pcollreq extension), on buffers of its own copied around each start.
class OpenMpiPersistentRun final : public Run {
 public:
  explicit OpenMpiPersistentRun(const Problem& problem)
      : Run("openmpi-persistent", problem),
        send_(static_cast<std::size_t>(problem.sent_entries())),
        recv_(static_cast<std::size_t>(problem.halo_columns())),
        graph_(openmpi_graph(problem)) {
    MPIX_Neighbor_alltoallv_init(
        send_.data(), problem.sendcounts.data(), problem.sdispls.data(),
        MPI_DOUBLE, recv_.data(), problem.recvcounts.data(),
        problem.rdispls.data(), MPI_DOUBLE, graph_, MPI_INFO_NULL, &request_);
  }
  ~OpenMpiPersistentRun() override {
    MPI_Request_free(&request_);
    MPI_Comm_free(&graph_);
  }

 private:
  void exchange(const std::vector<double>& send,
                std::span<double> recv) override {
    std::copy(send.begin(), send.end(), send_.begin());
    MPI_Start(&request_);
    MPI_Wait(&request_, MPI_STATUS_IGNORE);
    std::copy(recv_.begin(), recv_.end(), recv.begin());
  }
  std::vector<double> send_, recv_;
  MPI_Comm graph_ = MPI_COMM_NULL;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

class OrthoRun final : public Run {
 public:
  OrthoRun(std::string name, const Problem& problem, const char* algorithm)
      : Run(std::move(name), problem),
        graph_(ortho_graph(problem)),
        chosen_(algorithm == nullptr) {
    if (algorithm != nullptr) ortho::set_algorithm(graph_, algorithm);
  }

  // The blocking alltoallv's choice (the v form goes by its price at 0
  // bytes, or by what tuning measured on the first calls).
  std::optional<ortho::Explanation> choice() const override {
    if (!chosen_) return {};
    return ortho::explain(graph_, ortho::Operation::alltoallv, 0,
                          classic::Mode::blocking);
  }

 private:
  void exchange(const std::vector<double>& send,
                std::span<double> recv) override {
    const Problem& p = problem();
    ortho::alltoallv(graph_, send, p.sendcounts, p.sdispls, recv, p.recvcounts,
                     p.rdispls);
  }
  classic::Comm graph_;
  bool chosen_;
};

// The persistent request binds its buffers: it exchanges from and into
// buffers of its own, copied around each start.
class PersistentRun final : public Run {
 public:
  explicit PersistentRun(const Problem& problem)
      : Run("ortho-selected-persistent", problem),
        graph_(ortho_graph(problem)),
        send_(static_cast<std::size_t>(problem.sent_entries())),
        recv_(static_cast<std::size_t>(problem.halo_columns())),
        request_(ortho::alltoallv_init(graph_, send_, problem.sendcounts,
                                       problem.sdispls, recv_,
                                       problem.recvcounts, problem.rdispls)) {}

  // What the request runs and why: the persistent choice at the largest
  // block any process sends, the size its processes agree on. Collective.
  std::optional<ortho::Explanation> choice() const override {
    int largest = 0;
    for (const int count : problem().sendcounts) {
      largest = std::max(largest, count);
    }
    MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return ortho::explain(graph_, ortho::Operation::alltoallv,
                          static_cast<std::size_t>(largest) * sizeof(double),
                          classic::Mode::persistent);
  }

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

}  // namespace

std::unique_ptr<Variant> make_forward(const std::string& name,
                                      const Problem& problem) {
  if (name == "openmpi") return std::make_unique<OpenMpiRun>(problem);
  if (name == "raw") return std::make_unique<HandPostedRun>(problem);
  if (name == "openmpi-persistent") {
    return std::make_unique<OpenMpiPersistentRun>(problem);
  }
  // Each of ortho's algorithms for alltoallv on graphs, forced.
  for (const char* algorithm :
       {"direct", "node_aware", "common_neighbours", "spread_relays", "mpi"}) {
    std::string forced = std::string("ortho-") + algorithm;
    std::replace(forced.begin(), forced.end(), '_', '-');
    if (name == forced) {
      return std::make_unique<OrthoRun>(
          name, problem, (std::string("alltoallv=") + algorithm).c_str());
    }
  }
  if (name == "ortho-selected") {
    return std::make_unique<OrthoRun>(name, problem, nullptr);
  }
  if (name == "ortho-selected-persistent") {
    return std::make_unique<PersistentRun>(problem);
  }
  return nullptr;
}

}  // namespace spmv
