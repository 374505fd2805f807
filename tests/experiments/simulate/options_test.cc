// The simulator's command line: a full one read, and each bad option
// rejected with the option and its value named.
#include "experiments/simulate/options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using simulate::OptionError;
using simulate::parse_options;

std::string error_of(const std::vector<std::string>& arguments) {
  try {
    parse_options(arguments);
  } catch (const OptionError& error) {
    return error.what();
  }
  return "";
}

TEST(SimulateOptions, ReadsACommandLine) {
  const simulate::Options options = parse_options(std::vector<std::string>{
      "--machine=m.machine", "--stencil=moore3d_2", "--nodes=1,16,1024",
      "--ppn=64", "--placement=round_robin", "--operation=allgather",
      "--blocks=8,4096"});
  EXPECT_EQ(options.machine, "m.machine");
  ASSERT_TRUE(options.stencil);
  EXPECT_EQ(options.stencil->depth, 2);
  EXPECT_EQ(options.nodes, (std::vector<int>{1, 16, 1024}));
  EXPECT_EQ(options.processes_per_node, 64);
  EXPECT_EQ(options.placement, simulate::Placement::round_robin);
  EXPECT_EQ(options.operation, simulate::Operation::allgather);
  EXPECT_EQ(options.blocks, (std::vector<std::size_t>{8, 4096}));
  EXPECT_EQ(options.loop_calls, 0);
  EXPECT_EQ(parse_options(std::vector<std::string>{"--machine=m", "--graph=g",
                                                   "--nodes=2", "--ppn=2",
                                                   "--loop=10"})
                .loop_calls,
            10);
  EXPECT_EQ(parse_options(std::vector<std::string>{"--machine=m", "--graph=g",
                                                   "--nodes=2", "--ppn=2",
                                                   "--placement=mapped"})
                .placement,
            simulate::Placement::mapped);
}

TEST(SimulateOptions, RejectsBadValues) {
  const std::vector<std::string> base = {"--machine=m", "--graph=er_0.1_s1",
                                         "--nodes=2", "--ppn=4"};
  const auto with = [&base](const std::string& argument) {
    std::vector<std::string> arguments = base;
    arguments.push_back(argument);
    return error_of(arguments);
  };
  EXPECT_EQ(with("--nodes=2,0"),
            "simulate: --nodes=2,0: '0' is not a whole number in [1, 1048576]");
  EXPECT_EQ(with("--ppn=4,8"), "simulate: --ppn=4,8: one number of processes");
  EXPECT_EQ(with("--blocks=8,,16"),
            "simulate: --blocks=8,,16: '' is not a whole number in [1, "
            "1073741824]");
  EXPECT_EQ(with("--placement=block"),
            "simulate: --placement=block: not slot, round_robin or mapped");
  EXPECT_EQ(
      with("--operation=bcast"),
      "simulate: --operation=bcast: not allgather, alltoall, allgatherv or "
      "alltoallv");
  EXPECT_EQ(with("--stencil=moore5d"),
            "simulate: --stencil=moore5d: not moore2d, moore3d, vonneumann2d "
            "or vonneumann3d (\"_D\" for depth D)");
  EXPECT_EQ(with("--loop=0"),
            "simulate: --loop=0: '0' is not a whole number in [1, 1048576]");
  EXPECT_EQ(with("--loop=5,10"), "simulate: --loop=5,10: one number of calls");
  EXPECT_EQ(with("--speed=9"), "simulate: --speed=9: unknown option");
  EXPECT_EQ(with("-nodes=3"),
            "simulate: '-nodes=3' is not of the form --option=value");
  EXPECT_EQ(
      error_of({"--machine=m", "--graph=g", "--nodes=1048576", "--ppn=4096"}),
      "simulate: --nodes=1048576 x --ppn=4096 processes is more than "
      "an int holds");
}

// A matrix's halo is an alltoallv whose blocks are entries of 8 bytes
// unless told otherwise; its partition is the matrix's own unless named.
TEST(SimulateOptions, ReadsAMatrixWithItsDefaults) {
  const simulate::Options defaults = parse_options(std::vector<std::string>{
      "--machine=m", "--matrix=data/a.mtx", "--nodes=4", "--ppn=4"});
  EXPECT_EQ(defaults.matrix, "data/a.mtx");
  EXPECT_FALSE(defaults.partition);
  EXPECT_EQ(defaults.operation, simulate::Operation::alltoallv);
  EXPECT_EQ(defaults.blocks, (std::vector<std::size_t>{8}));
  const simulate::Options named = parse_options(std::vector<std::string>{
      "--machine=m", "--matrix=a.mtx", "--partition=blocks", "--nodes=4",
      "--ppn=4", "--operation=alltoallv", "--blocks=4,16"});
  EXPECT_EQ(named.partition, simulate::MatrixPartition::blocks);
  EXPECT_EQ(named.blocks, (std::vector<std::size_t>{4, 16}));
  EXPECT_EQ(error_of({"--machine=m", "--matrix=a.mtx", "--partition=rcb",
                      "--nodes=4", "--ppn=4"}),
            "simulate: --partition=rcb: not blocks or metis");
}

TEST(SimulateOptions, RejectsMissingOrClashingOptions) {
  EXPECT_EQ(error_of({"--graph=g", "--nodes=2", "--ppn=4"}),
            "simulate: --machine is missing");
  EXPECT_EQ(error_of({"--machine=m", "--nodes=2", "--ppn=4"}),
            "simulate: give one of --stencil, --graph and --matrix");
  EXPECT_EQ(error_of({"--machine=m", "--graph=g", "--stencil=moore2d",
                      "--nodes=2", "--ppn=4"}),
            "simulate: give one of --stencil, --graph and --matrix");
  EXPECT_EQ(error_of({"--machine=m", "--graph=g", "--matrix=a.mtx", "--nodes=2",
                      "--ppn=4"}),
            "simulate: give one of --stencil, --graph and --matrix");
  EXPECT_EQ(error_of({"--machine=m", "--graph=g", "--partition=metis",
                      "--nodes=2", "--ppn=4"}),
            "simulate: --partition partitions a --matrix");
  EXPECT_EQ(error_of({"--machine=m", "--matrix=a.mtx", "--nodes=2", "--ppn=4",
                      "--operation=allgatherv"}),
            "simulate: --operation=allgatherv: a --matrix's halo is an "
            "alltoallv");
  EXPECT_EQ(error_of({"--machine=m", "--graph=g", "--ppn=4"}),
            "simulate: --nodes is missing");
  EXPECT_EQ(error_of({"--machine=m", "--graph=g", "--nodes=2"}),
            "simulate: --ppn is missing");
}

}  // namespace
