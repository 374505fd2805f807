// The simulator (MPI-free): which of ortho's algorithms wins, and by how
// much, on a machine this one cannot run: a stencil, a sparse graph or a
// sparse matrix's halo on N nodes of P processes, each algorithm's real
// plans built for every process (exchange.h), their exact structure
// counted and their time predicted from a machine file's prices
// (predict.h). options.h gives the command line. Open MPI's neighbour
// collectives (coll/basic, libnbc) send one message per edge in one round, as
// direct does: the ratio column, an algorithm's time over direct's (below 1 is
// faster), is over them too.
//
// Prints one Markdown table per job size: per block size and algorithm the
// rounds, the busiest process's messages and bytes, the messages and bytes
// between nodes over the job, the bytes leaving the busiest node, the
// predicted time, what bounds its longest round, with --loop=C the time of
// a call in a loop of C calls (loop.h), and its ratio to direct's time (in
// the loop, with --loop). On stderr, how long the simulation took.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <span>
#include <string>
#include <vector>

#include "experiments/simulate/machine.h"
#include "experiments/simulate/options.h"
#include "experiments/simulate/report.h"
#include "experiments/simulate/workload.h"

namespace {

using simulate::Row;

const simulate::RoundTime& longest_round(const simulate::Prediction& p) {
  static const simulate::RoundTime kNone;
  const simulate::RoundTime* longest = &kNone;
  for (const simulate::RoundTime& round : p.rounds) {
    if (round.ns > longest->ns) longest = &round;
  }
  return *longest;
}

void print_rows(const std::vector<Row>& rows, std::size_t block) {
  const double direct_ns = rows.front().ns();
  for (const Row& row : rows) {
    std::printf(
        "| %zu | %s | %d | %d | %lld | %lld | %lld | %lld | %.2f | %s |", block,
        std::string(simulate::name_of(row.algorithm)).c_str(), row.rounds,
        row.busiest_messages, static_cast<long long>(row.busiest_bytes),
        static_cast<long long>(row.messages_between),
        static_cast<long long>(row.bytes_between),
        static_cast<long long>(row.busiest_node_out), row.prediction.ns / 1000,
        std::string(to_string(longest_round(row.prediction).bound)).c_str());
    if (row.loop_ns) std::printf(" %.2f |", *row.loop_ns / 1000);
    std::printf(" %.2f |\n", direct_ns > 0 ? row.ns() / direct_ns : 1.0);
  }
}

// One row of the summary: direct's time, every other algorithm's time over
// it ("-" where it does not run), and the fastest.
void print_summary_row(const std::vector<Row>& rows, int nodes, int processes,
                       std::size_t block) {
  const double direct_ns = rows.front().ns();
  std::printf("| %d | %d | %zu | %.2f |", nodes, processes, block,
              direct_ns / 1000);
  const Row* fastest = &rows.front();
  for (const simulate::Algorithm algorithm : simulate::kAlgorithms) {
    if (algorithm == simulate::Algorithm::direct) continue;
    const Row* found = nullptr;
    for (const Row& row : rows) {
      if (row.algorithm == algorithm) found = &row;
    }
    if (found == nullptr) {
      std::printf(" - |");
      continue;
    }
    std::printf(" %.2f |", found->ns() / direct_ns);
    if (found->ns() < fastest->ns()) fastest = found;
  }
  std::printf(" %s |\n",
              std::string(simulate::name_of(fastest->algorithm)).c_str());
}

int run(const simulate::Options& options) {
  const simulate::Machine machine = simulate::load_machine(options.machine);
  std::printf("# machine: %s (%s)\n", machine.name.c_str(),
              options.machine.c_str());
  if (options.loop_calls > 0) {
    std::printf("# times compared: a call of a loop of %d calls (--loop)\n",
                options.loop_calls);
  }
  const auto started = std::chrono::steady_clock::now();
  if (options.summary) {
    std::printf(
        "\n| nodes | processes | block B | direct us | combining | node_aware "
        "| common_neighbours | spread_relays | fastest |\n"
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
  }
  for (const int nodes : options.nodes) {
    const simulate::Shape shape{
        .nodes = nodes,
        .processes_per_node = options.processes_per_node,
        .placement = options.placement};
    const simulate::Workload workload = simulate::workload_of(options, shape);
    if (options.summary) {
      for (const std::size_t block : options.blocks) {
        print_summary_row(
            simulate::simulate_call(workload, options.operation, block, machine,
                                    nodes, options.loop_calls),
            nodes, shape.processes(), block);
      }
      continue;
    }
    std::printf(
        "\n## %s, %s, %d nodes x %d processes (%s)\n\n"
        "| block B | algorithm | rounds | messages (busiest) | bytes "
        "(busiest) | messages between nodes | bytes between nodes | bytes "
        "out of busiest node | predicted us | longest round bound by |%s "
        "time over direct's |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |%s "
        "--- |\n",
        workload.name.c_str(),
        std::string(simulate::name_of(options.operation)).c_str(), nodes,
        options.processes_per_node, workload.placed.c_str(),
        options.loop_calls > 0 ? " in a loop us |" : "",
        options.loop_calls > 0 ? " --- |" : "");
    for (const std::size_t block : options.blocks) {
      print_rows(simulate::simulate_call(workload, options.operation, block,
                                         machine, nodes, options.loop_calls),
                 block);
    }
  }
  const std::chrono::duration<double> took =
      std::chrono::steady_clock::now() - started;
  std::fprintf(stderr, "simulated in %.2f s\n", took.count());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  try {
    return run(simulate::parse_options(arguments));
  } catch (const simulate::OptionError& error) {
    std::cerr << error.what() << "\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "simulate: " << error.what() << "\n";
    return 1;
  }
}
