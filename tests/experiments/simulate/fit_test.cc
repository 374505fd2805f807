// The simulator's measured points and fit: a points file read and its
// malformed lines rejected with line and field named; the fit recovering
// prices from points that a known machine predicts.
#include "experiments/simulate/fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "experiments/simulate/points.h"

namespace {

using simulate::PointsFileError;

const char kHeader[] =
    "nodes,ppn,placement,workload,operation,block_bytes,algorithm,"
    "measured_us,source\n";

std::vector<simulate::MeasuredPoint> read(const std::string& text) {
  std::istringstream in(text);
  return simulate::read_points(in, "p.csv");
}

std::string error_of(const std::string& text) {
  try {
    read(text);
  } catch (const PointsFileError& error) {
    return error.what();
  }
  return "";
}

TEST(SimulatePoints, ReadsPoints) {
  const auto points = read(
      std::string(kHeader) +
      "4,4,round_robin,stencil:moore3d_1,allgather,40,combining,12.5,r1\r\n"
      "1,8,slot,graph:er_0.1_s1,alltoall,4,node_aware,3,r2\n"
      "4,4,slot,matrix:metis:data/a b.mtx,alltoallv,8,spread_relays,7,r3\n");
  ASSERT_EQ(points.size(), 3U);
  EXPECT_EQ(points[0].shape.nodes, 4);
  EXPECT_EQ(points[0].shape.processes_per_node, 4);
  EXPECT_EQ(points[0].shape.placement, simulate::Placement::round_robin);
  EXPECT_EQ(points[0].workload, "stencil:moore3d_1");
  EXPECT_EQ(points[0].operation, simulate::Operation::allgather);
  EXPECT_EQ(points[0].block_bytes, 40U);
  EXPECT_EQ(points[0].algorithm, simulate::Algorithm::combining);
  EXPECT_DOUBLE_EQ(points[0].measured_us, 12.5);
  EXPECT_EQ(points[0].source, "r1");
  EXPECT_EQ(points[0].setting(), "4 x 4, round robin");
  EXPECT_EQ(points[1].setting(), "1 x 8, slot");
  EXPECT_EQ(points[1].algorithm, simulate::Algorithm::node_aware);
  EXPECT_EQ(points[2].workload, "matrix:metis:data/a b.mtx");
  EXPECT_EQ(points[2].operation, simulate::Operation::alltoallv);
  EXPECT_EQ(points[2].algorithm, simulate::Algorithm::spread_relays);
}

TEST(SimulatePoints, RejectsMalformedLines) {
  const std::string h = kHeader;
  EXPECT_EQ(error_of(""), "p.csv: empty (no header)");
  EXPECT_EQ(error_of("nodes,ppn\n"),
            "p.csv:1: the header is not '" + h.substr(0, h.size() - 1) + "'");
  EXPECT_EQ(error_of(h + "4,4,slot,graph:g,allgather,4,direct,1\n"),
            "p.csv:2: 8 fields, not 9");
  EXPECT_EQ(error_of(h + "0,4,slot,graph:g,allgather,4,direct,1,r\n"),
            "p.csv:2: nodes = '0' is not a positive number");
  EXPECT_EQ(error_of(h + "4,4,block,graph:g,allgather,4,direct,1,r\n"),
            "p.csv:2: placement = 'block' is not slot or round_robin");
  EXPECT_EQ(error_of(h + "4,4,slot,stencil:moore9d,allgather,4,direct,1,r\n"),
            "p.csv:2: workload = 'stencil:moore9d' is not stencil:NAME (a "
            "stencil the simulator knows), graph:NAME or "
            "matrix:blocks|metis:FILE");
  for (const std::string& matrix : std::vector<std::string>{
           "matrix:a.mtx", "matrix:rcb:a.mtx", "matrix:metis:"}) {
    std::string line = h;
    line.append("4,4,slot,").append(matrix).append(",alltoallv,8,direct,1,r\n");
    std::string expected = "p.csv:2: workload = '";
    expected.append(matrix).append(
        "' is not stencil:NAME (a stencil the simulator knows), "
        "graph:NAME or matrix:blocks|metis:FILE");
    EXPECT_EQ(error_of(line), expected);
  }
  EXPECT_EQ(error_of(h + "4,4,slot,graph:g,bcast,4,direct,1,r\n"),
            "p.csv:2: operation = 'bcast' is not allgather, alltoall, "
            "allgatherv or alltoallv");
  EXPECT_EQ(error_of(h + "4,4,slot,graph:g,allgather,4,mpi,1,r\n"),
            "p.csv:2: algorithm = 'mpi' is not direct, combining, node_aware, "
            "common_neighbours or spread_relays");
  EXPECT_EQ(error_of(h + "4,4,slot,graph:g,allgather,4,direct,nan,r\n"),
            "p.csv:2: measured_us = 'nan' is not a positive number");
}

simulate::Machine true_machine() {
  simulate::Machine machine;
  machine.cores_per_node = 4;
  machine.within = {.latency_ns = 2000,
                    .message_ns = 300,
                    .byte_ns = 0.2,
                    .receive_message_ns = 100,
                    .receive_byte_ns = 0.1,
                    .eager_bytes = 4096,
                    .rendezvous_ns = 5000};
  machine.within_spanning_latency_ns = 9000;
  machine.between = {.latency_ns = 30000,
                     .message_ns = 8000,
                     .byte_ns = 1.5,
                     .receive_message_ns = 3000,
                     .receive_byte_ns = 0.5,
                     .eager_bytes = 65536,
                     .rendezvous_ns = 40000};
  return machine;
}

// Points that `machine` predicts exactly: every algorithm the validation
// fits, on a stencil and a graph, on one node and on four, blocks of 4 B
// to 400 KB.
std::vector<simulate::MeasuredPoint> points_of(
    const simulate::Machine& machine) {
  std::vector<simulate::MeasuredPoint> points;
  for (const simulate::Shape shape :
       {simulate::Shape{.nodes = 1, .processes_per_node = 8},
        simulate::Shape{.nodes = 4,
        .processes_per_node = 4,
        .placement = simulate::Placement::round_robin}}) {
    for (const char* workload : {"stencil:moore2d_1", "graph:er_0.3_s2"}) {
      for (const simulate::Algorithm algorithm : simulate::kAlgorithms) {
        if (algorithm == simulate::Algorithm::combining &&
            std::string(workload).starts_with("graph")) {
          continue;
        }
        for (const std::size_t block : {4, 400, 4000, 40000, 400000}) {
          points.push_back({.shape = shape,
                            .workload = workload,
                            .operation = simulate::Operation::alltoall,
                            .block_bytes = block,
                            .algorithm = algorithm,
                            .measured_us = 1,
                            .source = "made"});
        }
      }
    }
  }
  for (simulate::MeasuredPoint& point : points) {
    const std::vector<simulate::MeasuredPoint> one = {point};
    point.measured_us =
        simulate::predicted_us(simulate::prepare(one, machine).at(0), machine);
  }
  return points;
}

TEST(SimulateFit, RecoversTheTimesOfAKnownMachine) {
  const simulate::Machine truth = true_machine();
  const std::vector<simulate::MeasuredPoint> points = points_of(truth);
  simulate::Machine start = truth;
  start.within.latency_ns *= 3;
  start.within.message_ns /= 2;
  start.between.byte_ns *= 4;
  start.between.message_ns = 0;
  start.within_spanning_latency_ns = 500;
  const auto prepared = simulate::prepare(points, start);
  const double before = simulate::squared_log_error(prepared, start);
  const simulate::Machine fitted = simulate::fit_machine(prepared, start);
  EXPECT_LT(simulate::squared_log_error(prepared, fitted), before / 1e6);
  for (const simulate::PreparedPoint& point : prepared) {
    EXPECT_NEAR(
        simulate::predicted_us(point, fitted) / point.point->measured_us, 1.0,
        0.01)
        << point.point->workload << " " << point.point->block_bytes;
  }
  // What the fit leaves alone.
  EXPECT_EQ(fitted.cores_per_node, truth.cores_per_node);
  EXPECT_DOUBLE_EQ(fitted.within.eager_bytes, truth.within.eager_bytes);
}

// An SpMV halo's iteration in a loop holds its local product: points that
// a machine with a known price per multiply-add predicts (a matrix's halo
// on one node and on four, beside a stencil's exchanges, which have no
// product) give that price back from a start 4 times off.
TEST(SimulateFit, RecoversTheProductOfAnSpMVIteration) {
  simulate::Machine truth = true_machine();
  truth.multiply_add_ns = 4;
  std::vector<simulate::MeasuredPoint> points;
  for (const simulate::Shape shape :
       {simulate::Shape{.nodes = 1, .processes_per_node = 8},
        simulate::Shape{.nodes = 4, .processes_per_node = 4}}) {
    for (const simulate::Algorithm algorithm :
         {simulate::Algorithm::direct, simulate::Algorithm::node_aware}) {
      points.push_back(
          {.shape = shape,
           .workload = "matrix:metis:experiments/spmv/data/dwt_162.mtx",
           .operation = simulate::Operation::alltoallv,
           .block_bytes = 8,
           .algorithm = algorithm,
           .measured_us = 1,
           .source = "made"});
      for (const std::size_t block : {4, 4000}) {
        points.push_back({.shape = shape,
                          .workload = "stencil:moore2d_1",
                          .operation = simulate::Operation::alltoall,
                          .block_bytes = block,
                          .algorithm = algorithm,
                          .measured_us = 1,
                          .source = "made"});
      }
    }
  }
  constexpr int kLoopCalls = 10;
  for (simulate::MeasuredPoint& point : points) {
    const std::vector<simulate::MeasuredPoint> one = {point};
    point.measured_us = simulate::predicted_us(
        simulate::prepare(one, truth, kLoopCalls).at(0), truth);
  }
  simulate::Machine start = truth;
  start.multiply_add_ns = 1;
  const auto prepared = simulate::prepare(points, start, kLoopCalls);
  // The product is a part of the iteration the start prices wrong.
  EXPECT_GT(simulate::squared_log_error(prepared, start), 1e-3);
  const simulate::Machine fitted = simulate::fit_machine(prepared, start);
  EXPECT_NEAR(fitted.multiply_add_ns, 4, 0.04);
  for (const simulate::PreparedPoint& point : prepared) {
    EXPECT_NEAR(
        simulate::predicted_us(point, fitted) / point.point->measured_us, 1.0,
        0.01)
        << point.point->workload << " " << point.point->block_bytes;
  }
}

TEST(SimulateFit, NamesAPointWhoseAlgorithmCannotRun) {
  const std::vector<simulate::MeasuredPoint> points = {
      {.shape = {.nodes = 2, .processes_per_node = 2},
       .workload = "graph:er_0.5_s1",
       .operation = simulate::Operation::alltoall,
       .block_bytes = 8,
       .algorithm = simulate::Algorithm::combining,
       .measured_us = 1,
       .source = "made"}};
  EXPECT_THROW(simulate::prepare(points, true_machine()),
               std::invalid_argument);
}

}  // namespace
