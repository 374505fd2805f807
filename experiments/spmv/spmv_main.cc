// Sparse matrix-vector products as sparse codes run them: A read from a
// Matrix Market file, its rows and columns split into contiguous blocks
// over the processes (halo_plan.h), each process's halo (the entries of x
// it needs from others) the edges of a graph communicator.
//
// Forward: y = A x, each iteration's halo exchange of x a neighbourhood
// alltoallv from owners to readers. An iteration exchanges the halo,
// computes y over the process's rows and then the next x (problem.h).
//   openmpi                    MPI_Neighbor_alltoallv on Open MPI's graph
//   openmpi-persistent         MPIX_Neighbor_alltoallv_init, started per
//                              iteration
//   raw                        the same messages posted by hand (the floor)
//   ortho-direct               ortho::alltoallv forced direct
//   ortho-node-aware           forced node_aware (sizes exchanged per call)
//   ortho-common-neighbours    forced common_neighbours (likewise)
//   ortho-spread-relays        forced spread_relays (sizes exchanged per
//                              call, within the hosts)
//   ortho-mpi                  forced mpi: Open MPI's MPI_Neighbor_alltoallv
//                              called through ortho (ortho's own cost per
//                              call, beside the openmpi line)
//   ortho-selected             ortho::alltoallv as ortho selects it
//   ortho-selected-persistent  ortho::alltoallv_init, started per iteration
// Every process checks its final y and the sum of its y over the
// iterations bit for bit against a serial run of the same iterations with
// Eigen's product of the whole matrix (the same sums in the same order).
//
// Accumulate: z = A^T w, partial sums sent back from readers to owners
// along the same halo reversed (accumulate_runs.cc lists the
// implementations: Open MPI on a second, transposed communicator, the
// floor, ortho::reverse of the one graph, blocking and persistent, and
// each algorithm that runs it forced), each iteration the whole product; the
// final z checked against Eigen's A^T w within 1e-12 of each column's
// magnitude.
//
// Implementations run interleaved in batches of 10 iterations, after
// untimed first iterations that cover ortho's tuning.
//
//   mpirun -np P spmv --matrix=PATH [--partition=blocks|metis]
//                     [--placement=identity|bytes|messages] [--iterations=N]
//                     [--seconds=S] [--variant=LIST] [--corrupt=VARIANT]
//
// --iterations: timed iterations of each implementation (default 100);
// --seconds: at least that long for each, on average over them (the
// number of iterations then taken from the first batches' times, alike on
// every process), so that a short exchange gets enough batches for a
// median that holds to a few per cent.
//
// --partition: rows and columns in contiguous blocks of the file's order
// (the default), or METIS k-way parts of a square matrix's graph
// (partition.h; the matrix and the serial reference then reordered).
//
// --placement: part q on world rank q only (identity, the default), or
// also the parts placed on the hosts by ortho's Reorder::yes (placement.h:
// Scotch where it lowers the weight between hosts), each edge weighing its
// bytes (bytes) or 1 (messages): every implementation then runs on both,
// interleaved, its lines saying placement=identity or the placement's
// name. Rank 0 first prints: spmv mapping matrix=NAME processes=P
// hosts=H weights=bytes|messages placement=scotch|kept kept_because=WHY
// identity_messages_between_hosts=M messages_between_hosts=M
// identity_bytes_between_hosts=B bytes_between_hosts=B (per exchange, all
// processes together).
//
// --corrupt=VARIANT spoils one received entry of that implementation's
// first exchange (an accumulate's every exchange: each computes z afresh)
// on every process that receives any, so that the check can be seen to
// fail.
//
// Rank 0 prints one line per implementation that runs (a forced
// algorithm that does not serve the reverse on this graph prints none): spmv
// variant=V matrix=NAME rows=R columns=C processes=P partition=D placement=L
// iterations=N seconds_per_iteration=S seconds_min=S seconds_max=S
// [paired_p10=R paired_p90=R] batches=B
// messages=M bytes=B [ran="ALGORITHM (REASON)" measured_us="A=T ..."]
// result=correct (or
// result=MISMATCH; the program then exits 1). paired_p10 and paired_p90:
// the 10th and 90th percentile of the implementation's batch times over
// Open MPI's (openmpi, or accumulate-openmpi for an accumulate) in the
// same round, where that ran; for a placed run, over the same
// implementation's by slot. messages and bytes: sent per
// iteration by the busiest process; ran, for ortho-selected and
// accumulate-reverse: what the blocking call runs and why (ortho::explain,
// after the tuning calls); measured_us, where tuning measured: each
// candidate's time per call at the slowest process, as the tuning agreed
// on it (to be read beside the loops' times).
// Before them, per distribution, what each of ortho's algorithms would send
// (traffic_report.h: spmv traffic ... lines).
// A file that cannot be read, or METIS asked to split a rectangular
// matrix, ends the program with a message and exit status 2.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "classic/base/environment.h"
#include "experiments/progress.h"
#include "experiments/run_benchmarks.h"
#include "experiments/spmv/placement.h"
#include "experiments/spmv/problem.h"
#include "experiments/spmv/runs.h"
#include "experiments/spmv/timing.h"
#include "experiments/spmv/traffic_report.h"

namespace spmv {
namespace {

struct Options {
  std::string matrix;
  int iterations = 100;
  double seconds = 0;
  std::vector<std::string> variants = {"openmpi",
                                       "openmpi-persistent",
                                       "raw",
                                       "ortho-direct",
                                       "ortho-node-aware",
                                       "ortho-common-neighbours",
                                       "ortho-spread-relays",
                                       "ortho-mpi",
                                       "ortho-selected",
                                       "ortho-selected-persistent",
                                       "accumulate-openmpi",
                                       "accumulate-raw",
                                       "accumulate-reverse",
                                       "accumulate-persistent",
                                       "accumulate-direct",
                                       "accumulate-node-aware",
                                       "accumulate-common-neighbours",
                                       "accumulate-spread-relays"};
  std::string corrupt;
  Distribution distribution = Distribution::blocks;
  std::string placement = "identity";
};

std::string parse(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.starts_with("--matrix=")) {
      options.matrix = arg.substr(9);
    } else if (arg.starts_with("--iterations=")) {
      options.iterations = std::atoi(arg.c_str() + 13);
      if (options.iterations <= 0) return "--iterations: a positive number";
    } else if (arg.starts_with("--seconds=")) {
      options.seconds = std::atof(arg.c_str() + 10);
      if (!(options.seconds > 0)) {
        return "--seconds: a positive number of seconds, not '" +
               arg.substr(10) + "'";
      }
    } else if (arg == "--partition=blocks") {
      options.distribution = Distribution::blocks;
    } else if (arg == "--partition=metis") {
      options.distribution = Distribution::metis;
    } else if (arg.starts_with("--partition=")) {
      return "--partition: blocks or metis, not '" + arg.substr(12) + "'";
    } else if (arg == "--placement=identity" || arg == "--placement=bytes" ||
               arg == "--placement=messages") {
      options.placement = arg.substr(12);
    } else if (arg.starts_with("--placement=")) {
      return "--placement: identity, bytes or messages, not '" +
             arg.substr(12) + "'";
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

std::string matrix_name(const std::string& path) {
  return path.substr(path.find_last_of('/') + 1);
}

void print_mapping(const Options& options, const ortho::MappingReport& report,
                   std::int64_t identity_bytes, std::int64_t bytes, int rank,
                   int size) {
  if (rank != 0) return;
  const ortho::HostTraffic identity = report.identity.value_or(report.traffic);
  std::printf(
      "spmv mapping matrix=%s processes=%d hosts=%d weights=%s placement=%s "
      "kept_because=\"%s\" identity_messages_between_hosts=%lld "
      "messages_between_hosts=%lld identity_bytes_between_hosts=%lld "
      "bytes_between_hosts=%lld\n",
      matrix_name(options.matrix).c_str(), size, report.hosts,
      options.placement.c_str(), report.mapped ? "scotch" : "kept",
      ortho::to_string(report.kept_because),
      static_cast<long long>(identity.edges),
      static_cast<long long>(report.traffic.edges),
      static_cast<long long>(identity_bytes), static_cast<long long>(bytes));
}

// Freed after the implementations (declared before them).
struct FreeComm {
  MPI_Comm comm = MPI_COMM_NULL;
  FreeComm() = default;
  FreeComm(const FreeComm&) = delete;
  FreeComm& operator=(const FreeComm&) = delete;
  ~FreeComm() {
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

// The placed setup of `identity`'s problem. Collective.
Setup placed_setup(const Options& options, const Problem& identity,
                   FreeComm& placed_comm, int rank, int size) {
  const std::int64_t identity_bytes = bytes_between_hosts(identity);
  Placed placed = place(identity, options.placement == "bytes");
  placed_comm.comm = placed.comm;
  Setup setup{options.placement, identity};
  if (placed.part != rank) {
    setup.problem =
        make_problem(options.matrix, options.distribution, placed.part, size);
  }
  setup.problem.comm = placed.comm;
  setup.problem.processes = placed.processes;
  print_mapping(options, placed.report, identity_bytes,
                bytes_between_hosts(setup.problem), rank, size);
  return setup;
}

// Every implementation on every setup, or an empty list for an unknown
// name.
std::vector<Timed> implementations(const Options& options,
                                   const std::vector<Setup>& setups) {
  std::vector<Timed> runs;
  for (const Setup& setup : setups) {
    for (const std::string& name : options.variants) {
      std::unique_ptr<Variant> run = make_forward(name, setup.problem);
      if (run == nullptr) run = make_accumulate(name, setup.problem);
      if (run == nullptr) return {};
      if (!run->runs_here()) continue;
      if (name == options.corrupt) run->spoil();
      runs.push_back({std::move(run), &setup, {}});
    }
  }
  return runs;
}

// Checks and prints every implementation's line; whether all are correct.
// The fields that say what ortho ran and why: ran="ALGORITHM (REASON)",
// and where tuning measured, measured_us="ALGORITHM=MICROSECONDS ...".
std::string ran_field(const ortho::Explanation& why) {
  std::string field = "ran=\"" + why.selected + " (" + why.reason + ")\" ";
  std::string measured;
  for (const ortho::Explanation::Offered& offered : why.offered) {
    if (!offered.measured_ns) continue;
    char time[32];
    std::snprintf(time, sizeof time, "%.1f", *offered.measured_ns / 1e3);
    measured += (measured.empty() ? "" : " ") + offered.algorithm + "=" + time;
  }
  if (!measured.empty()) field += "measured_us=\"" + measured + "\" ";
  return field;
}

bool report(const Options& options, std::vector<Timed>& runs, int rank,
            int size) {
  // Per setup, the serial reference and per direction the busiest
  // process's messages and bytes per step.
  std::map<const Setup*, Reference> references;
  std::map<const Setup*, std::array<int, 4>> traffic;
  const auto messages = [](const std::vector<int>& counts) {
    return static_cast<int>(std::count_if(counts.begin(), counts.end(),
                                          [](int count) { return count > 0; }));
  };
  for (const Timed& timed : runs) {
    const Problem& p = timed.setup->problem;
    if (references.contains(timed.setup)) continue;
    references[timed.setup] =
        serial(p, experiments::kTuningCalls + options.iterations);
    std::array<int, 4>& sent = traffic[timed.setup];
    sent = {messages(p.sendcounts), 8 * p.sent_entries(),
            messages(p.recvcounts), 8 * p.halo_columns()};
    MPI_Allreduce(MPI_IN_PLACE, sent.data(), 4, MPI_INT, MPI_MAX,
                  MPI_COMM_WORLD);
  }
  const std::vector<std::string> spreads = paired_spreads(runs);
  bool all_correct = true;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    Timed& timed = runs[k];
    int correct = timed.run->correct(references[timed.setup]) ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &correct, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    all_correct = all_correct && correct != 0;
    const int* sent =
        traffic[timed.setup].data() + (timed.run->accumulates() ? 2 : 0);
    std::sort(timed.seconds.begin(), timed.seconds.end());
    const Problem& p = timed.setup->problem;
    const std::optional<ortho::Explanation> why = timed.run->choice();
    if (rank != 0) continue;
    const std::string ran = why ? ran_field(*why) : std::string();
    std::printf(
        "spmv variant=%s matrix=%s rows=%d columns=%d processes=%d "
        "partition=%s placement=%s iterations=%d seconds_per_iteration=%g "
        "seconds_min=%g seconds_max=%g %sbatches=%zu messages=%d bytes=%d "
        "%sresult=%s\n",
        timed.run->name().c_str(), matrix_name(options.matrix).c_str(),
        static_cast<int>(p.a.rows()), static_cast<int>(p.a.cols()), size,
        options.distribution == Distribution::metis ? "metis" : "blocks",
        timed.setup->placement.c_str(), options.iterations,
        timed.seconds[timed.seconds.size() / 2], timed.seconds.front(),
        timed.seconds.back(), spreads[k].c_str(), timed.seconds.size(), sent[0],
        sent[1], ran.c_str(), correct != 0 ? "correct" : "MISMATCH");
  }
  return all_correct;
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
  // Implementations keep references into their setup: no reallocation.
  std::vector<Setup> setups;
  setups.reserve(2);
  setups.push_back({"identity", {}});
  try {
    setups[0].problem =
        make_problem(options.matrix, options.distribution, rank, size);
  } catch (const std::exception& error) {  // alike on every process
    if (rank == 0) std::fprintf(stderr, "%s\n", error.what());
    return 2;
  }
  FreeComm placed_comm;
  if (options.placement != "identity") {
    setups.push_back(
        placed_setup(options, setups[0].problem, placed_comm, rank, size));
  }
  std::vector<Timed> runs = implementations(options, setups);
  if (runs.empty()) {
    if (rank == 0) std::fprintf(stderr, "spmv: an unknown --variant\n");
    return 2;
  }
  for (const Setup& setup : setups) {
    print_traffic(setup.problem, matrix_name(options.matrix), setup.placement);
  }
  options.iterations = measure(runs, options.iterations, options.seconds);
  return report(options, runs, rank, size) ? 0 : 1;
}

}  // namespace
}  // namespace spmv

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv,
                                   classic::UncaughtErrors::report_and_abort);
  return spmv::run(argc, argv);
}
