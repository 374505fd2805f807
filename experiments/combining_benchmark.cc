// Message combining on Cartesian stencils against Open MPI's
// neighbourhood collectives: allgather, alltoall, alltoallw and allreduce
// (MPI_SUM on a block of ints) on periodic Moore and von Neumann stencils
// (2-d depth 1 and 2, 3-d depth 1), blocks of 4 B to 40 KB. alltoallw is
// the halo exchange's form (Figure 1): every block of n ints is one element
// of a derived datatype (MPI_Type_contiguous of n MPI_INT, count 1), one
// datatype handle per neighbour, at byte displacements (MPI_Aint)
// i * n * sizeof(int), the same layout as alltoall's. The stencils are made
// the orthocomm way: naming::cart_name on a duplicate of the world with
// classic::dims_create's dims, stencils::cart_neighbor_ranks of depth r,
// ortho::dist_graph_create_adjacent. Six variants per point, interleaved:
//   openmpi                    MPI_Neighbor_* on an Open MPI distributed
//                              graph of the same lists (allreduce: Open MPI
//                              has no neighbourhood allreduce, so
//                              MPI_Neighbor_allgather and a local sum;
//                              alltoallw: MPI_Neighbor_alltoallw);
//   openmpi_persistent         MPIX_Neighbor_*_init (Open MPI 4.1's
//                              pcollreq extension), each call start + wait;
//   ortho_direct               ortho, set_algorithm "direct";
//   ortho_combining            ortho, set_algorithm "<op>=combining" (absent
//                              where the table has no combining algorithm
//                              for the operation);
//   ortho_selected             ortho's default choice for the block size;
//   ortho_selected_persistent  ortho::<op>_init, classic::start + wait
//                              (its algorithm may differ from the blocking
//                              selection: alltoallw's combining pays a size
//                              exchange every blocking call but only once,
//                              at *_init, when persistent).
//
//   mpirun -np 4 bazel-out/k8-opt/bin/experiments/combining_benchmark
//       [--csv=out.csv] [--iterations=N] [--calls=N] [--blocks=B,B,...]
//       [--started_bytes=B]
//       [--benchmark_filter=REGEX]
//       [--benchmark_out=out.json --benchmark_out_format=json]
//   (mpirun --mca btl tcp,self ... for TCP loopback; benchmark names are
//   <operation>/<stencil>/<block bytes>/manual_time)
//
// Timing follows docs/design.md ("Measuring speed"): each benchmark iteration
// runs one batch of --calls calls of every variant, the order rotating
// from one iteration to the next; a batch begins with a barrier and its
// time per call is the maximum over ranks. A variant's time is the median
// of its batches. Counters (rank 0 reports):
//   <variant>_us       time per call;
//   <variant>_x        openmpi_us / <variant>_us for the ortho variants
//                      (speedup: > 1 is faster than Open MPI);
//   persistent_x       openmpi_persistent_us / ortho_selected_persistent_us;
//   selected_x_min, _max, persistent_x_min, _max  the range of those
//                      two speedups over the batches (every ratio of a batch
//                      of Open MPI's to one of ortho's: a range that holds 1
//                      says the difference is noise);
//   selected_*, selected_persistent_*, direct_*  messages, bytes (blocks
//                      times block bytes) and rounds per process per call of
//                      the selected algorithm (blocking, persistent) and of
//                      the direct one (ortho/algorithms/combining.h's
//                      Traffic; exact, machine-independent);
//   combining_selected, persistent_combining_selected  1 where the
//                      selection (blocking, persistent) runs combining.
// alltoallw's combining (combining.cc's exchange_blocks) first runs the
// alltoall schedule over one int64 per block (the size exchange: relays
// must learn the sizes of the blocks they forward), then the blocks along
// the same schedule. combining.h's Traffic counts the schedule once; this
// program counts a blocking combining alltoallw call as the schedule twice:
// 2x its messages and rounds, and its blocks' bytes plus 8 bytes per block
// of the size exchange. A persistent call pays the size exchange once, at
// alltoallw_init, which the per-call counters leave out.
// The label names the grid and the selected algorithm (and the persistent
// one where it differs). --csv=path writes one row per (operation, stencil,
// block, variant): the median time per call with the fastest and slowest
// batch (time_min_us, time_max_us) and the number of batches. Every
// variant's result is checked against Open MPI's once before the timing;
// the program exits 1 if one differed
// (tests/experiments:combining_benchmark_np*).
#include <benchmark/benchmark.h>
#include <mpi.h>
// After mpi.h, which it needs: MPIX_Neighbor_*_init (pcollreq).
#include <mpi-ext.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/exec/executor.h"
#include "classic/exec/mode.h"
#include "classic/graph/dist_graph.h"
#include "classic/p2p/request.h"
#include "classic/topology/dims_create.h"
#include "experiments/halo/spread.h"
#include "experiments/hand_posted.h"
#include "experiments/run_benchmarks.h"
#include "naming/cart_name.h"
#include "naming/geometry.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/operation.h"
#include "ortho/table.h"
#include "ortho/traffic.h"
#include "stencils/cart_neighbors.h"
#include "stencils/neighborhood.h"
#include "stencils/schedule.h"

namespace {

using classic::Comm;
using ortho::Operation;

enum class Variant {
  openmpi,
  openmpi_persistent,
  raw,
  raw_persistent,
  ortho_direct,
  ortho_combining,
  ortho_selected,
  ortho_selected_persistent,
};
constexpr int kVariantCount = 8;

constexpr std::array<Variant, kVariantCount> kVariants{
    Variant::openmpi,
    Variant::openmpi_persistent,
    Variant::raw,
    Variant::raw_persistent,
    Variant::ortho_direct,
    Variant::ortho_combining,
    Variant::ortho_selected,
    Variant::ortho_selected_persistent};

std::size_t index_of(Variant variant) {
  return static_cast<std::size_t>(variant);
}

const char* name_of(Variant variant) {
  switch (variant) {
    case Variant::openmpi:
      return "openmpi";
    case Variant::openmpi_persistent:
      return "openmpi_persistent";
    case Variant::raw:
      return "raw";
    case Variant::raw_persistent:
      return "raw_persistent";
    case Variant::ortho_direct:
      return "ortho_direct";
    case Variant::ortho_combining:
      return "ortho_combining";
    case Variant::ortho_selected:
      return "ortho_selected";
    case Variant::ortho_selected_persistent:
      return "ortho_selected_persistent";
  }
  return "";
}

// The counter stem of a variant ("<stem>_us", "<stem>_x").
const char* stem_of(Variant variant) {
  switch (variant) {
    case Variant::openmpi:
      return "openmpi";
    case Variant::openmpi_persistent:
      return "openmpi_persistent";
    case Variant::raw:
      return "raw";
    case Variant::raw_persistent:
      return "raw_persistent";
    case Variant::ortho_direct:
      return "direct";
    case Variant::ortho_combining:
      return "combining";
    case Variant::ortho_selected:
      return "selected";
    case Variant::ortho_selected_persistent:
      return "selected_persistent";
  }
  return "";
}

struct Stencil {
  const char* name;
  int ndims;
  stencils::Metric metric;
  int depth;
};

constexpr Stencil kStencils[] = {
    {"moore_2d_d1", 2, stencils::Metric::chebyshev, 1},
    {"von_neumann_2d_d1", 2, stencils::Metric::manhattan, 1},
    {"moore_2d_d2", 2, stencils::Metric::chebyshev, 2},
    {"von_neumann_2d_d2", 2, stencils::Metric::manhattan, 2},
    {"moore_3d_d1", 3, stencils::Metric::chebyshev, 1},
    {"von_neumann_3d_d1", 3, stencils::Metric::manhattan, 1},
};

constexpr Operation kOperations[] = {Operation::allgather, Operation::alltoall,
                                     Operation::alltoallw,
                                     Operation::allreduce};

// Flags of this program (handled before benchmark::Initialize).
struct Options {
  int iterations = 6;  // a multiple of 6 puts every variant in every place
  int calls = 10;      // calls per batch
  std::string csv;     // --csv=path: rank 0 writes the rows there
  // --blocks=B,B,...: block sizes in bytes (positive multiples of 4: blocks
  // are ints).
  std::vector<int> block_bytes{4, 40, 400, 4000, 40000};
};
Options options;

// Structure of one algorithm per process and call.
struct Structure {
  int messages = 0;
  long bytes = 0;
  int rounds = 0;
};

// One CSV row.
struct Row {
  std::string operation;
  std::string stencil;
  std::string dims;
  int block_bytes = 0;
  int repetition = 0;
  std::string variant;
  std::string algorithm;
  halo::Spread time_us;  // per call, over the batches
  double speedup = 0.0;
  Structure structure;
};
std::vector<Row> rows;

std::string dims_string(const std::vector<int>& dims) {
  std::string text;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += 'x';
    text += std::to_string(dims[i]);
  }
  return text;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// recv = the sum of the `blocks` blocks of `count` ints in `gathered` (the
// neighbourhood reduction of ortho::allreduce on a graph; with no block,
// recv stays as it was).
void sum_blocks(const std::vector<int>& gathered, int blocks, int count,
                std::vector<int>& recv) {
  if (blocks == 0) return;
  const auto n = static_cast<std::size_t>(count);
  std::copy(gathered.begin(), gathered.begin() + count, recv.begin());
  for (int b = 1; b < blocks; ++b) {
    const int* block = gathered.data() + static_cast<std::size_t>(b) * n;
    for (std::size_t i = 0; i < n; ++i) recv[i] += block[i];
  }
}

// One point of the comparison: the communicators, buffers and persistent
// requests of every variant.
class Point {
 public:
  Point(Operation operation, const Stencil& stencil, int block_bytes)
      : operation_(operation), count_(block_bytes / 4) {
    const Comm world = Comm::world();
    named_ = world.dup();
    dims_ = classic::dims_create(
        named_.size(),
        std::vector<int>(static_cast<std::size_t>(stencil.ndims), 0));
    const std::array<bool, 3> periods{true, true, true};
    naming::cart_name(
        named_, dims_,
        std::span<const bool>(periods.data(),
                              static_cast<std::size_t>(dims_.size())),
        naming::Order::row_major);
    const std::vector<int> ranks = stencils::cart_neighbor_ranks(
        named_, named_.rank(), stencil.metric, 1, stencil.depth);
    degree_ = static_cast<int>(ranks.size());
    ranks_ = ranks;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree_, ranks.data(),
                                   MPI_UNWEIGHTED, degree_, ranks.data(),
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &openmpi_);
    const auto graph = [&] {
      return ortho::dist_graph_create_adjacent(
          named_, ranks, classic::unweighted, ranks, classic::unweighted);
    };
    direct_ = graph();
    combining_ = graph();
    selected_ = graph();
    ortho::set_algorithm(direct_, "direct");
    const std::string spec =
        std::string(ortho::to_string(operation)) + "=combining";
    int available = 1;
    try {
      ortho::set_algorithm(combining_, spec);
    } catch (const classic::Error&) {
      available = 0;  // no combining algorithm for this operation here
    }
    MPI_Allreduce(MPI_IN_PLACE, &available, 1, MPI_INT, MPI_LAND,
                  MPI_COMM_WORLD);
    has_combining_ = available != 0;
    selected_name_ = std::string(ortho::selected_algorithm(
        selected_, operation, static_cast<std::size_t>(block_bytes)));
    selected_persistent_name_ = std::string(ortho::selected_algorithm(
        selected_, operation, static_cast<std::size_t>(block_bytes),
        classic::Mode::persistent));
    read_structure(block_bytes);
    make_buffers();
    make_persistent();
    hand_posted_ = make_hand_posted(Variant::raw, 2);
    hand_posted_persistent_ = make_hand_posted(Variant::raw_persistent, 3);
  }
  ~Point() {
    ortho_persistent_ = classic::Request();  // freed before its datatype
    hand_posted_.reset();
    hand_posted_persistent_.reset();
    if (openmpi_persistent_ != MPI_REQUEST_NULL) {
      MPI_Request_free(&openmpi_persistent_);
    }
    if (block_type_ != MPI_DATATYPE_NULL) MPI_Type_free(&block_type_);
    MPI_Comm_free(&openmpi_);
  }
  Point(const Point&) = delete;
  Point& operator=(const Point&) = delete;

  bool has(Variant variant) const {
    return variant != Variant::ortho_combining || has_combining_;
  }
  const std::vector<int>& dims() const { return dims_; }
  const std::string& selected_name() const { return selected_name_; }
  const std::string& selected_persistent_name() const {
    return selected_persistent_name_;
  }
  const Structure& selected_structure() const { return selected_structure_; }
  const Structure& selected_persistent_structure() const {
    return selected_persistent_structure_;
  }
  const Structure& direct_structure() const { return direct_structure_; }
  const Structure& combining_structure() const { return combining_structure_; }

  // The algorithm a variant runs, for the CSV.
  std::string algorithm_of(Variant variant) const {
    const std::string op(ortho::to_string(operation_));
    const std::string mpi_op =
        operation_ == Operation::allreduce ? "allgather" : op;
    const std::string sum = operation_ == Operation::allreduce ? "+sum" : "";
    switch (variant) {
      case Variant::openmpi:
        return "MPI_Neighbor_" + mpi_op + sum;
      case Variant::openmpi_persistent:
        return "MPIX_Neighbor_" + mpi_op + "_init" + sum;
      case Variant::raw:
        return "MPI_Irecv+MPI_Isend" + sum;
      case Variant::raw_persistent:
        return "MPI_Recv_init+MPI_Send_init" + sum;
      case Variant::ortho_direct:
        return "direct";
      case Variant::ortho_combining:
        return "combining";
      case Variant::ortho_selected:
        return selected_name_;
      case Variant::ortho_selected_persistent:
        return selected_persistent_name_;
    }
    return "";
  }
  // The structure of a variant's algorithm (Open MPI's neighbourhood
  // collectives send one message per edge, as direct does).
  Structure structure_of(Variant variant) const {
    switch (variant) {
      case Variant::ortho_combining:
        return combining_structure_;
      case Variant::ortho_selected:
        return selected_structure_;
      case Variant::ortho_selected_persistent:
        return selected_persistent_structure_;
      default:
        return direct_structure_;
    }
  }

  // One call of `variant`.
  void call(Variant variant) {
    const std::size_t v = index_of(variant);
    int* recv = recv_[v].data();
    const int* send = send_.data();
    const int n = count_;
    switch (variant) {
      case Variant::openmpi:
        switch (operation_) {
          case Operation::allgather:
            MPI_Neighbor_allgather(send, n, MPI_INT, recv, n, MPI_INT,
                                   openmpi_);
            break;
          case Operation::alltoall:
            MPI_Neighbor_alltoall(send, n, MPI_INT, recv, n, MPI_INT, openmpi_);
            break;
          case Operation::alltoallw:
            MPI_Neighbor_alltoallw(send, counts_.data(), displs_.data(),
                                   types_.data(), recv, counts_.data(),
                                   displs_.data(), types_.data(), openmpi_);
            break;
          default:
            MPI_Neighbor_allgather(send, n, MPI_INT, gathered_[0].data(), n,
                                   MPI_INT, openmpi_);
            sum_blocks(gathered_[0], degree_, n, recv_[v]);
            break;
        }
        break;
      case Variant::openmpi_persistent:
        MPI_Start(&openmpi_persistent_);
        MPI_Wait(&openmpi_persistent_, MPI_STATUS_IGNORE);
        if (operation_ == Operation::allreduce) {
          sum_blocks(gathered_[1], degree_, n, recv_[v]);
        }
        break;
      case Variant::raw:
        hand_posted_->run();
        if (operation_ == Operation::allreduce) {
          sum_blocks(gathered_[2], degree_, n, recv_[v]);
        }
        break;
      case Variant::raw_persistent:
        hand_posted_persistent_->start_and_wait();
        if (operation_ == Operation::allreduce) {
          sum_blocks(gathered_[3], degree_, n, recv_[v]);
        }
        break;
      case Variant::ortho_direct:
        ortho_call(direct_, recv);
        break;
      case Variant::ortho_combining:
        ortho_call(combining_, recv);
        break;
      case Variant::ortho_selected:
        ortho_call(selected_, recv);
        break;
      case Variant::ortho_selected_persistent:
        classic::start(ortho_persistent_);
        (void)classic::wait(ortho_persistent_);
        break;
    }
    benchmark::DoNotOptimize(recv);
    benchmark::ClobberMemory();
  }

  // Seconds per call over one batch of `calls`, the maximum over ranks.
  double batch(Variant variant, int calls) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (int i = 0; i < calls; ++i) call(variant);
    const double mine = (MPI_Wtime() - start) / calls;
    double slowest = 0.0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
  }

  // Runs every variant once and compares its result with Open MPI's;
  // the names of those that differ on some process (the same everywhere).
  std::string mismatches() {
    for (Variant variant : kVariants) {
      if (!has(variant)) continue;
      std::fill(recv_[index_of(variant)].begin(),
                recv_[index_of(variant)].end(), -1);
      call(variant);
    }
    const std::vector<int>& want = recv_[index_of(Variant::openmpi)];
    std::string names;
    for (Variant variant : kVariants) {
      int differs = has(variant) && recv_[index_of(variant)] != want ? 1 : 0;
      MPI_Allreduce(MPI_IN_PLACE, &differs, 1, MPI_INT, MPI_LOR,
                    MPI_COMM_WORLD);
      if (differs != 0)
        names += std::string(names.empty() ? "" : ", ") + name_of(variant);
    }
    return names;
  }

 private:
  void ortho_call(const Comm& comm, int* recv) {
    const int* send = send_.data();
    const int n = count_;
    switch (operation_) {
      case Operation::allgather:
        ortho::allgather(comm, send, n, MPI_INT, recv, n, MPI_INT);
        break;
      case Operation::alltoall:
        ortho::alltoall(comm, send, n, MPI_INT, recv, n, MPI_INT);
        break;
      case Operation::alltoallw:
        ortho::alltoallw(comm, send, counts(), displs(), types(), recv,
                         counts(), displs(), types());
        break;
      default:
        ortho::allreduce(comm, send, recv, n, MPI_INT, MPI_SUM);
        break;
    }
  }

  // alltoallw's per-neighbour arrays, `degree_` entries (the vectors hold
  // at least one, so that Open MPI never sees a null array).
  std::span<const int> counts() const {
    return {counts_.data(), static_cast<std::size_t>(degree_)};
  }
  std::span<const MPI_Aint> displs() const {
    return {displs_.data(), static_cast<std::size_t>(degree_)};
  }
  std::span<const MPI_Datatype> types() const {
    return {types_.data(), static_cast<std::size_t>(degree_)};
  }

  // The traffic of the selected, direct and combining algorithms
  // (ortho::traffic: exact, from the plans and schedules).
  void read_structure(int block_bytes) {
    const auto bytes = static_cast<std::size_t>(block_bytes);
    const auto structure = [&](const char* algorithm, classic::Mode mode) {
      const std::optional<ortho::Traffic> traffic =
          ortho::traffic(selected_, operation_, algorithm, bytes, mode);
      return traffic ? Structure{.messages = traffic->messages,
                                 .bytes = traffic->bytes,
                                 .rounds = traffic->rounds}
                     : Structure{};
    };
    direct_structure_ = structure("direct", classic::Mode::blocking);
    combining_structure_ = structure("combining", classic::Mode::blocking);
    combining_persistent_structure_ =
        structure("combining", classic::Mode::persistent);
    selected_structure_ = selected_name_ == "combining" ? combining_structure_
                                                        : direct_structure_;
    selected_persistent_structure_ = selected_persistent_name_ == "combining"
                                         ? combining_persistent_structure_
                                         : direct_structure_;
  }

  void make_buffers() {
    const auto n = static_cast<std::size_t>(count_);
    const auto degree = static_cast<std::size_t>(degree_);
    const bool exchange =
        operation_ == Operation::alltoall || operation_ == Operation::alltoallw;
    const std::size_t sent = exchange ? degree * n : n;
    const std::size_t received =
        operation_ == Operation::allreduce ? n : degree * n;
    const int rank = named_.rank();
    send_.resize(sent);
    for (std::size_t i = 0; i < sent; ++i) {
      send_[i] = rank * 7919 + static_cast<int>(i);
    }
    for (std::vector<int>& recv : recv_) recv.assign(received, -1);
    if (operation_ == Operation::allreduce) {
      for (std::vector<int>& gathered : gathered_) {
        gathered.assign(degree * n, -1);
      }
    }
    if (operation_ == Operation::alltoallw) {
      // A halo exchange's blocks: one element of a derived datatype each,
      // at byte displacements.
      MPI_Type_contiguous(count_, MPI_INT, &block_type_);
      MPI_Type_commit(&block_type_);
      const std::size_t slots = std::max<std::size_t>(degree, 1);
      counts_.assign(slots, 1);
      types_.assign(slots, block_type_);
      displs_.resize(slots);
      for (std::size_t i = 0; i < slots; ++i) {
        displs_[i] = static_cast<MPI_Aint>(i * n * sizeof(int));
      }
    }
  }

  // The floor for `variant`, receiving into its buffer (allreduce: into
  // gathered_[gathered], summed afterwards). Collective.
  std::unique_ptr<experiments::HandPosted> make_hand_posted(
      Variant variant, std::size_t gathered) {
    const auto n = static_cast<MPI_Aint>(count_);
    const auto degree = static_cast<std::size_t>(degree_);
    const bool exchange =
        operation_ == Operation::alltoall || operation_ == Operation::alltoallw;
    std::vector<MPI_Aint> at(degree);
    for (std::size_t i = 0; i < degree; ++i) {
      at[i] = static_cast<MPI_Aint>(i) * n * MPI_Aint{sizeof(int)};
    }
    const bool whole_blocks = operation_ == Operation::alltoallw;
    const int count = whole_blocks ? 1 : count_;
    const MPI_Datatype datatype = whole_blocks ? block_type_ : MPI_INT;
    experiments::HandBlocks<const void*> sends{
        send_.data(), exchange ? at : std::vector<MPI_Aint>(degree, 0), count,
        datatype};
    void* recv = operation_ == Operation::allreduce
                     ? gathered_[gathered].data()
                     : recv_[index_of(variant)].data();
    experiments::HandBlocks<void*> receives{recv, at, count, datatype};
    return std::make_unique<experiments::HandPosted>(
        MPI_COMM_WORLD, ranks_, ranks_, std::move(sends), std::move(receives));
  }

  // Collective, in the same order on every process.
  void make_persistent() {
    const int n = count_;
    const int* send = send_.data();
    int* mpix_recv = operation_ == Operation::allreduce
                         ? gathered_[1].data()
                         : recv_[index_of(Variant::openmpi_persistent)].data();
    if (operation_ == Operation::alltoall) {
      MPIX_Neighbor_alltoall_init(send, n, MPI_INT, mpix_recv, n, MPI_INT,
                                  openmpi_, MPI_INFO_NULL,
                                  &openmpi_persistent_);
    } else if (operation_ == Operation::alltoallw) {
      MPIX_Neighbor_alltoallw_init(send, counts_.data(), displs_.data(),
                                   types_.data(), mpix_recv, counts_.data(),
                                   displs_.data(), types_.data(), openmpi_,
                                   MPI_INFO_NULL, &openmpi_persistent_);
    } else {
      MPIX_Neighbor_allgather_init(send, n, MPI_INT, mpix_recv, n, MPI_INT,
                                   openmpi_, MPI_INFO_NULL,
                                   &openmpi_persistent_);
    }
    int* recv = recv_[index_of(Variant::ortho_selected_persistent)].data();
    switch (operation_) {
      case Operation::allgather:
        ortho_persistent_ = ortho::allgather_init(selected_, send, n, MPI_INT,
                                                  recv, n, MPI_INT);
        break;
      case Operation::alltoall:
        ortho_persistent_ =
            ortho::alltoall_init(selected_, send, n, MPI_INT, recv, n, MPI_INT);
        break;
      case Operation::alltoallw:
        ortho_persistent_ =
            ortho::alltoallw_init(selected_, send, counts(), displs(), types(),
                                  recv, counts(), displs(), types());
        break;
      default:
        ortho_persistent_ =
            ortho::allreduce_init(selected_, send, recv, n, MPI_INT, MPI_SUM);
        break;
    }
  }

  Operation operation_;
  int count_;  // ints per block
  int degree_ = 0;
  Comm named_;
  std::vector<int> dims_;
  MPI_Comm openmpi_ = MPI_COMM_NULL;
  Comm direct_;
  Comm combining_;
  Comm selected_;
  bool has_combining_ = false;
  std::string selected_name_;
  std::string selected_persistent_name_;
  Structure selected_structure_;
  Structure selected_persistent_structure_;
  Structure direct_structure_;
  Structure combining_structure_;
  Structure combining_persistent_structure_;
  std::vector<int> send_;
  std::array<std::vector<int>, kVariantCount> recv_;
  // allreduce: openmpi, openmpi_persistent, raw, raw_persistent.
  std::array<std::vector<int>, 4> gathered_;
  // alltoallw: the blocks' datatype and the per-neighbour arrays.
  MPI_Datatype block_type_ = MPI_DATATYPE_NULL;
  std::vector<int> counts_;
  std::vector<MPI_Aint> displs_;
  std::vector<MPI_Datatype> types_;
  MPI_Request openmpi_persistent_ = MPI_REQUEST_NULL;
  classic::Request ortho_persistent_;
  std::vector<int> ranks_;  // the neighbours: sources and destinations
  // The floor: direct's messages by hand (for raw and raw_persistent).
  std::unique_ptr<experiments::HandPosted> hand_posted_;
  std::unique_ptr<experiments::HandPosted> hand_posted_persistent_;
};

// Whether some point's result differed from Open MPI's: the exit status.
bool g_mismatch = false;

void BM_Combining(benchmark::State& state, Operation operation,
                  const Stencil& stencil) {
  const int block_bytes = static_cast<int>(state.range(0));
  Point point(operation, stencil, block_bytes);
  const std::string wrong = point.mismatches();
  if (!wrong.empty()) {
    g_mismatch = true;
    state.SkipWithError(("result differs from Open MPI's: " + wrong).c_str());
    return;
  }
  std::vector<Variant> active;
  for (Variant variant : kVariants) {
    if (point.has(variant)) active.push_back(variant);
  }
  for (Variant variant : active) (void)point.batch(variant, 1);  // warm up
  std::array<std::vector<double>, kVariantCount> seconds;
  std::size_t first = 0;
  for (auto _ : state) {
    for (std::size_t k = 0; k < active.size(); ++k) {
      const Variant variant = active[(first + k) % active.size()];
      seconds[index_of(variant)].push_back(point.batch(variant, options.calls));
    }
    first = (first + 1) % active.size();
    state.SetIterationTime(seconds[index_of(Variant::ortho_selected)].back());
  }

  std::array<double, kVariantCount> us{};
  std::array<halo::Spread, kVariantCount> spread{};
  for (Variant variant : active) {
    spread[index_of(variant)] = halo::spread_of(seconds[index_of(variant)]);
    us[index_of(variant)] = 1e6 * spread[index_of(variant)].median;
  }
  const double openmpi_us = us[index_of(Variant::openmpi)];
  for (Variant variant : active) {
    const std::string stem = stem_of(variant);
    state.counters[stem + "_us"] = us[index_of(variant)];
    if (variant != Variant::openmpi && variant != Variant::openmpi_persistent) {
      state.counters[stem + "_x"] = openmpi_us / us[index_of(variant)];
    }
  }
  state.counters["persistent_x"] =
      us[index_of(Variant::openmpi_persistent)] /
      us[index_of(Variant::ortho_selected_persistent)];
  // The ranges of the two speedups that matter most: every ratio of a batch
  // of Open MPI's to one of ortho's (a range that holds 1 is noise).
  const auto speedup_range = [&](const std::string& name, Variant openmpi,
                                 Variant ortho) {
    const halo::Spread range =
        halo::ratio_of(spread[index_of(openmpi)], spread[index_of(ortho)]);
    if (range.batches == 0) return;
    state.counters[name + "_min"] = range.min;
    state.counters[name + "_max"] = range.max;
  };
  speedup_range("selected_x", Variant::openmpi, Variant::ortho_selected);
  speedup_range("persistent_x", Variant::openmpi_persistent,
                Variant::ortho_selected_persistent);
  // The floor: ortho over the very messages it posts, as paired ratios of
  // the batches of one iteration (median, min and max; 1 = no overhead).
  const auto floor_ratio = [&](const std::string& name, Variant floor,
                               Variant ortho) {
    std::vector<double> ratios;
    const std::vector<double>& a = seconds[index_of(floor)];
    const std::vector<double>& b = seconds[index_of(ortho)];
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
      ratios.push_back(a[i] / b[i]);
    }
    if (ratios.empty()) return;
    state.counters[name] = median(ratios);
    state.counters[name + "_min"] =
        *std::min_element(ratios.begin(), ratios.end());
    state.counters[name + "_max"] =
        *std::max_element(ratios.begin(), ratios.end());
  };
  floor_ratio("direct_floor_x", Variant::raw, Variant::ortho_direct);
  if (point.selected_persistent_name() == "direct") {
    const bool reposted_faster =
        us[index_of(Variant::raw)] <= us[index_of(Variant::raw_persistent)];
    floor_ratio("persistent_floor_x",
                reposted_faster ? Variant::raw : Variant::raw_persistent,
                Variant::ortho_selected_persistent);
  }
  const Structure& selected = point.selected_structure();
  const Structure& direct = point.direct_structure();
  state.counters["selected_messages"] = selected.messages;
  state.counters["selected_bytes"] = static_cast<double>(selected.bytes);
  state.counters["selected_rounds"] = selected.rounds;
  const Structure& persistent = point.selected_persistent_structure();
  state.counters["selected_persistent_messages"] = persistent.messages;
  state.counters["selected_persistent_bytes"] =
      static_cast<double>(persistent.bytes);
  state.counters["selected_persistent_rounds"] = persistent.rounds;
  state.counters["direct_messages"] = direct.messages;
  state.counters["direct_bytes"] = static_cast<double>(direct.bytes);
  state.counters["direct_rounds"] = direct.rounds;
  state.counters["combining_selected"] =
      point.selected_name() == "combining" ? 1 : 0;
  state.counters["persistent_combining_selected"] =
      point.selected_persistent_name() == "combining" ? 1 : 0;
  std::string label = dims_string(point.dims()) + " " + point.selected_name();
  if (point.selected_persistent_name() != point.selected_name()) {
    label += ", persistent " + point.selected_persistent_name();
  }
  state.SetLabel(label);

  if (options.csv.empty() || classic::Environment::world_rank() != 0) return;
  const std::string op(ortho::to_string(operation));
  int repetition = 0;
  for (const Row& row : rows) {
    if (row.operation == op && row.stencil == stencil.name &&
        row.block_bytes == block_bytes &&
        row.variant == name_of(Variant::openmpi)) {
      ++repetition;
    }
  }
  for (Variant variant : active) {
    rows.push_back({.operation = op,
                    .stencil = stencil.name,
                    .dims = dims_string(point.dims()),
                    .block_bytes = block_bytes,
                    .repetition = repetition,
                    .variant = name_of(variant),
                    .algorithm = point.algorithm_of(variant),
                    .time_us = {.median = us[index_of(variant)],
                                .min = 1e6 * spread[index_of(variant)].min,
                                .max = 1e6 * spread[index_of(variant)].max,
                                .batches = spread[index_of(variant)].batches},
                    .speedup = openmpi_us / us[index_of(variant)],
                    .structure = point.structure_of(variant)});
  }
}

void register_benchmarks() {
  for (Operation operation : kOperations) {
    for (const Stencil& stencil : kStencils) {
      const std::string name =
          std::string(ortho::to_string(operation)) + "/" + stencil.name;
      benchmark::internal::Benchmark* benchmark = benchmark::RegisterBenchmark(
          name.c_str(), [operation, &stencil](benchmark::State& state) {
            BM_Combining(state, operation, stencil);
          });
      // Fixed iteration counts: every rank must run exactly the same loop.
      benchmark->UseManualTime()
          ->Iterations(options.iterations)
          ->Unit(benchmark::kMicrosecond);
      for (int bytes : options.block_bytes) benchmark->Arg(bytes);
    }
  }
}

// The btl list ("self,vader") as one CSV field: its commas become '+'.
std::string csv_field(std::string text) {
  std::replace(text.begin(), text.end(), ',', '+');
  return text;
}

void write_csv(const std::string& path) {
  std::ofstream out(path);
  if (!out) {
    std::fprintf(stderr, "combining_benchmark: cannot write %s\n",
                 path.c_str());
    return;
  }
  const char* btl = std::getenv("OMPI_MCA_btl");
  out << "operation,stencil,dims,processes,btl,block_bytes,repetition,"
         "variant,algorithm,time_us,speedup_vs_openmpi,messages,bytes,"
         "rounds,time_min_us,time_max_us,batches\n";
  for (const Row& row : rows) {
    out << row.operation << ',' << row.stencil << ',' << row.dims << ','
        << classic::Environment::world_size() << ','
        << csv_field(btl != nullptr ? btl : "default") << ',' << row.block_bytes
        << ',' << row.repetition << ',' << row.variant << ',' << row.algorithm
        << ',' << row.time_us.median << ',' << row.speedup << ','
        << row.structure.messages << ',' << row.structure.bytes << ','
        << row.structure.rounds << ',' << row.time_us.min << ','
        << row.time_us.max << ',' << row.time_us.batches << '\n';
  }
}

// The block sizes of --blocks=B,B,...; empty where one is no positive
// multiple of 4 up to 16 MiB.
std::vector<int> parse_blocks(std::string_view list) {
  std::vector<int> sizes;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    const std::string item(list.substr(0, comma));
    char* end = nullptr;
    const long bytes = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || bytes <= 0 || bytes % 4 != 0 ||
        bytes > (long{1} << 24)) {
      return {};
    }
    sizes.push_back(static_cast<int>(bytes));
    list = comma == std::string_view::npos ? std::string_view{}
                                           : list.substr(comma + 1);
  }
  return sizes;
}

// Takes this program's flags out of argv; the first malformed one's
// message, or "" where all are well formed.
std::string parse_options(int& argc, char** argv) {
  int kept = 1;
  std::string error;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto number = [&](std::string_view prefix, int& value) {
      if (!arg.starts_with(prefix)) return false;
      value = std::atoi(std::string(arg.substr(prefix.size())).c_str());
      if (value <= 0 && error.empty()) {
        error = std::string(prefix) + ": '" +
                std::string(arg.substr(prefix.size())) + "' must be > 0";
      }
      return true;
    };
    if (arg.starts_with("--csv=")) {
      options.csv = std::string(arg.substr(6));
    } else if (arg.starts_with("--blocks=")) {
      options.block_bytes = parse_blocks(arg.substr(9));
      if (options.block_bytes.empty() && error.empty()) {
        error = "--blocks=: '" + std::string(arg.substr(9)) +
                "' must list block sizes in bytes, each a positive multiple "
                "of 4 up to 16777216, separated by commas";
      }
    } else if (arg.starts_with("--started_bytes=")) {
      // Persistent operations start transport persistent requests for
      // messages of at least this many bytes (classic/exec/executor.h).
      const std::string value(arg.substr(16));
      char* end = nullptr;
      const long bytes = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || bytes < 0) {
        if (error.empty()) {
          error = "--started_bytes=: '" + value + "' must be a number >= 0";
        }
      } else {
        classic::internal::set_started_limit(bytes);
      }
    } else if (number("--iterations=", options.iterations) ||
               number("--calls=", options.calls)) {
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  argv[argc] = nullptr;
  return error;
}

}  // namespace

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv);
  const bool root = classic::Environment::world_rank() == 0;
  if (const std::string error = parse_options(argc, argv); !error.empty()) {
    if (root) std::fprintf(stderr, "combining_benchmark: %s\n", error.c_str());
    return 1;
  }
  if (!root) {
    // Only rank 0 writes --benchmark_out: the others must not even open it.
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
      if (!std::string_view(argv[i]).starts_with("--benchmark_out")) {
        argv[kept++] = argv[i];
      }
    }
    argc = kept;
    argv[argc] = nullptr;
  }
  benchmark::Initialize(&argc, argv);
  register_benchmarks();
  if (root) {
    std::printf(
        "combining_benchmark: %d processes, %d iterations of %d calls\n",
        classic::Environment::world_size(), options.iterations, options.calls);
  }
  experiments::run_benchmarks(root);
  if (root && !options.csv.empty()) write_csv(options.csv);
  benchmark::Shutdown();
  // Exit 1 on every process where a result differed (mpirun then fails).
  return g_mismatch ? 1 : 0;
}
