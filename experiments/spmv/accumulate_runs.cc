// The accumulate steps of the SpMV experiment (runs.h): z = A^T w, each
// process's partial sums for other processes' columns sent back to their
// owners (accumulate.h) along the halo reversed:
//   accumulate-openmpi   MPI_Neighbor_alltoallv on a second graph
//                        communicator with the lists swapped (what codes
//                        do today: one communicator per direction)
//   accumulate-raw       the same messages posted by hand (the floor)
//   accumulate-reverse   ortho::alltoallv on ortho::reverse of the halo's
//                        graph (one communicator, both directions)
//   accumulate-direct, accumulate-node-aware, accumulate-common-neighbours,
//   accumulate-spread-relays
//                        the same with that algorithm forced (the best of
//                        them is what the selection is held against)
//   accumulate-persistent  the same, ortho::alltoallv_init
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "experiments/spmv/accumulate.h"
#include "experiments/spmv/runs.h"
#include "ortho/collectives.h"
#include "ortho/explain.h"
#include "ortho/reverse.h"
#include "ortho/table.h"

namespace spmv {
namespace {

// One implementation: the partial sums, their exchange, the sum.
class Accumulate : public Variant {
 public:
  Accumulate(std::string name, const Problem& problem)
      : Variant(std::move(name)),
        problem_(problem),
        w_(problem.own_w()),
        received_(static_cast<std::size_t>(problem.sent_entries())) {}

  void step() override {
    const Problem& p = problem_;
    std::vector<double> sums =
        partial_sums(p.a, p.row_begins, p.rank, p.slots, p.own_columns(),
                     p.halo_columns(), w_);
    const auto own = static_cast<std::ptrdiff_t>(p.own_columns());
    const std::span<const double> back(
        sums.data() + own, sums.size() - static_cast<std::size_t>(own));
    exchange(back, received_);
    // Each step computes z afresh: a spoiled implementation stays spoiled.
    spoiled_ = take_spoil() || spoiled_;
    if (spoiled_ && !received_.empty()) received_[0] += 1;
    sums.resize(static_cast<std::size_t>(own));
    z_ = accumulated(std::move(sums), p.plan, p.first_column(), received_);
  }

  bool correct(const Reference& reference) const override {
    if (z_.size() != reference.z.size()) return false;
    for (std::size_t i = 0; i < z_.size(); ++i) {
      if (!(std::abs(z_[i] - reference.z[i]) <=
            1e-12 * reference.z_magnitude[i])) {
        return false;
      }
    }
    return true;
  }
  bool accumulates() const override { return true; }

 protected:
  // Sends `back` (packed as the forward exchange receives: by source) to
  // the halo's sources and receives into `received` (packed as the forward
  // exchange sends: by destination) from its destinations.
  virtual void exchange(std::span<const double> back,
                        std::vector<double>& received) = 0;
  const Problem& problem() const { return problem_; }

 private:
  const Problem& problem_;
  std::vector<double> w_;
  std::vector<double> received_;
  std::vector<double> z_;
  bool spoiled_ = false;
};

class HandPostedAccumulate final : public Accumulate {
 public:
  explicit HandPostedAccumulate(const Problem& problem)
      : Accumulate("accumulate-raw", problem) {
    MPI_Comm_dup(problem.comm, &comm_);
  }
  ~HandPostedAccumulate() override { MPI_Comm_free(&comm_); }

 private:
  void exchange(std::span<const double> back,
                std::vector<double>& received) override {
    const Problem& p = problem();
    requests_.clear();
    for (std::size_t i = 0; i < p.plan.destinations.size(); ++i) {
      MPI_Request& request = requests_.emplace_back();
      MPI_Irecv(received.data() + p.sdispls[i], p.sendcounts[i], MPI_DOUBLE,
                p.plan.destinations[i], 0, comm_, &request);
    }
    for (std::size_t i = 0; i < p.plan.sources.size(); ++i) {
      MPI_Request& request = requests_.emplace_back();
      MPI_Isend(back.data() + p.rdispls[i], p.recvcounts[i], MPI_DOUBLE,
                p.plan.sources[i], 0, comm_, &request);
    }
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(),
                MPI_STATUSES_IGNORE);
  }
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<MPI_Request> requests_;
};

class OpenMpiAccumulate final : public Accumulate {
 public:
  explicit OpenMpiAccumulate(const Problem& problem)
      : Accumulate("accumulate-openmpi", problem) {
    const HaloPlan& plan = problem.plan;
    MPI_Dist_graph_create_adjacent(
        problem.comm, static_cast<int>(plan.destinations.size()),
        plan.destinations.data(), MPI_UNWEIGHTED,
        static_cast<int>(plan.sources.size()), plan.sources.data(),
        MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &transposed_);
  }
  ~OpenMpiAccumulate() override { MPI_Comm_free(&transposed_); }

 private:
  void exchange(std::span<const double> back,
                std::vector<double>& received) override {
    const Problem& p = problem();
    MPI_Neighbor_alltoallv(back.data(), p.recvcounts.data(), p.rdispls.data(),
                           MPI_DOUBLE, received.data(), p.sendcounts.data(),
                           p.sdispls.data(), MPI_DOUBLE, transposed_);
  }
  MPI_Comm transposed_ = MPI_COMM_NULL;
};

// The selection where `algorithm` is null, else that algorithm forced (on
// the graph: an override applies to its reverse) where it serves the
// reverse (node_aware, and common_neighbours and spread_relays along its
// graph, do across hosts only: on one host node_aware is direct's
// messages).
class ReverseAccumulate final : public Accumulate {
 public:
  ReverseAccumulate(std::string name, const Problem& problem,
                    const char* algorithm)
      : Accumulate(std::move(name), problem),
        graph_(ortho_graph(problem)),
        chosen_(algorithm == nullptr) {
    if (algorithm == nullptr) return;
    const ortho::Explanation reverse =
        ortho::explain(ortho::reverse(graph_), ortho::Operation::alltoallv, 0,
                       classic::Mode::blocking);
    runs_here_ =
        std::any_of(reverse.offered.begin(), reverse.offered.end(),
                    [algorithm](const ortho::Explanation::Offered& offered) {
                      return offered.algorithm == algorithm;
                    });
    if (runs_here_) {
      ortho::set_algorithm(graph_, std::string("alltoallv=") + algorithm);
    }
  }

  // The blocking reverse alltoallv's choice (its price at 0 bytes, or what
  // tuning measured on the first calls).
  std::optional<ortho::Explanation> choice() const override {
    if (!chosen_) return {};
    return ortho::explain(ortho::reverse(graph_), ortho::Operation::alltoallv,
                          0, classic::Mode::blocking);
  }
  bool runs_here() const override { return runs_here_; }

 private:
  void exchange(std::span<const double> back,
                std::vector<double>& received) override {
    const Problem& p = problem();
    ortho::alltoallv(ortho::reverse(graph_), back, p.recvcounts, p.rdispls,
                     std::span<double>(received), p.sendcounts, p.sdispls);
  }

  classic::Comm graph_;
  bool chosen_;
  bool runs_here_ = true;
};

// The persistent request binds its buffers: it sends from and receives
// into buffers of its own, copied around each start.
class PersistentReverseAccumulate final : public Accumulate {
 public:
  explicit PersistentReverseAccumulate(const Problem& problem)
      : Accumulate("accumulate-persistent", problem),
        graph_(ortho_graph(problem)),
        back_(static_cast<std::size_t>(problem.halo_columns())),
        received_(static_cast<std::size_t>(problem.sent_entries())),
        request_(ortho::alltoallv_init(
            ortho::reverse(graph_), std::span<const double>(back_),
            problem.recvcounts, problem.rdispls, std::span<double>(received_),
            problem.sendcounts, problem.sdispls)) {}

 private:
  void exchange(std::span<const double> back,
                std::vector<double>& received) override {
    std::copy(back.begin(), back.end(), back_.begin());
    classic::start(request_);
    (void)classic::wait(request_);
    std::copy(received_.begin(), received_.end(), received.begin());
  }
  classic::Comm graph_;
  std::vector<double> back_, received_;
  classic::Request request_;
};

}  // namespace

std::unique_ptr<Variant> make_accumulate(const std::string& name,
                                         const Problem& problem) {
  if (name == "accumulate-openmpi") {
    return std::make_unique<OpenMpiAccumulate>(problem);
  }
  if (name == "accumulate-raw") {
    return std::make_unique<HandPostedAccumulate>(problem);
  }
  if (name == "accumulate-reverse") {
    return std::make_unique<ReverseAccumulate>(name, problem, nullptr);
  }
  // Each of ortho's algorithms that runs alltoallv in reverse, forced.
  for (const char* algorithm :
       {"direct", "node_aware", "common_neighbours", "spread_relays"}) {
    std::string forced = std::string("accumulate-") + algorithm;
    std::replace(forced.begin(), forced.end(), '_', '-');
    if (name == forced) {
      return std::make_unique<ReverseAccumulate>(name, problem, algorithm);
    }
  }
  if (name == "accumulate-persistent") {
    return std::make_unique<PersistentReverseAccumulate>(problem);
  }
  return nullptr;
}

}  // namespace spmv
