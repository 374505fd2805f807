// Wisdom (ortho/internal/wisdom.h, ORTHO_WISDOM): the file format against
// hand-written lines; a tuning's decision round-trips through the file, so
// that a second communicator of the same structure runs the saved winner
// without measuring a single call (the injected clock is never asked),
// blocking and persistent, with results equal to Open MPI's; a foreign, a
// truncated or a corrupt file, or one written for another structure, gives
// a warning (where it is damaged) and the measurement, never a crash or a
// wrong result; a foreign file is left as it was.
#include "ortho/internal/wisdom.h"

#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "ortho/collectives.h"
#include "ortho/explain.h"
#include "ortho/internal/tuning.h"
#include "tests/ortho/graph/graph_testing.h"
#include "tests/ortho/graph/tuning_testing.h"

namespace {

using classic::Comm;
using classic::Mode;
using ortho::Operation;
using ortho::internal::WisdomEntry;
using ortho_graph_testing::Graph;
using ortho_graph_testing::OpenMpiGraph;
using ortho_graph_testing::Random;
using ortho_tuning_testing::alltoall_calls;
using ortho_tuning_testing::alltoallv_starts;
using ortho_tuning_testing::graph_with_edges;
using ortho_tuning_testing::kBlock;

constexpr std::string_view kLine =
    "00000000000000ff alltoall blocking 4 direct,mpi,combining mpi "
    "0.000125,5e-05,0.0003";

std::string contents(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
}

// A path every process agrees on (process 0's temporary directory and pid).
std::string shared_path(const Comm& world, const std::string& name) {
  std::vector<char> text(256, '\0');
  if (world.rank() == 0) {
    const char* dir = std::getenv("TEST_TMPDIR");
    const std::string path = std::string(dir ? dir : "/tmp") + "/wisdom_" +
                             std::to_string(::getpid()) + "_" + name;
    std::copy(path.begin(), path.end(), text.begin());
  }
  classic::bcast(world, text, 0);
  return text.data();
}

TEST(WisdomFormat, ALineRoundTripsAndMalformedLinesAreRefused) {
  const auto entry = ortho::internal::parse_wisdom_entry(kLine);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->key.digest, 255u);
  EXPECT_EQ(entry->key.operation, Operation::alltoall);
  EXPECT_EQ(entry->key.mode, Mode::blocking);
  EXPECT_EQ(entry->key.band, 4);
  EXPECT_EQ(entry->key.candidates,
            (std::vector<std::string>{"direct", "mpi", "combining"}));
  EXPECT_EQ(entry->winner, "mpi");
  EXPECT_EQ(entry->seconds, (std::vector<double>{0.000125, 5e-05, 0.0003}));
  EXPECT_EQ(ortho::internal::format_wisdom_entry(*entry), kLine);

  for (const std::string_view bad : {
           "",
           "00000000000000ff alltoall blocking 4 direct,mpi mpi",  // short
           "00000000000000ff alltoall blocking 4 direct,mpi node_aware 1,2",
           "0ff alltoall blocking 4 direct,mpi mpi 1,2",
           "00000000000000fg alltoall blocking 4 direct,mpi mpi 1,2",
           "00000000000000ff alltoal blocking 4 direct,mpi mpi 1,2",
           "00000000000000ff alltoall nonblocking 4 direct,mpi mpi 1,2",
           "00000000000000ff alltoall blocking -1 direct,mpi mpi 1,2",
           "00000000000000ff alltoall blocking 4 direct,mpi mpi 1",
           "00000000000000ff alltoall blocking 4 direct,mpi mpi 1,-2",
           "00000000000000ff alltoall blocking 4 direct,mpi mpi 1,nan",
           "00000000000000ff alltoall blocking 4 direct,,mpi mpi 1,2,3",
           "00000000000000ff alltoall blocking 4 direct,mpi mpi 0.000125,5e-",
       }) {
    const std::string_view truncated = bad;
    EXPECT_FALSE(ortho::internal::parse_wisdom_entry(truncated).has_value())
        << "'" << bad << "'";
  }
}

TEST(WisdomFile, DamageGivesWarningsAndKeepsWhatIsIntact) {
  const Comm world = Comm::world();
  if (world.rank() != 0) return;  // local files
  const std::string path = shared_path(Comm::self(), "format");

  // Missing: usable, empty, quiet.
  std::remove(path.c_str());
  auto wisdom = ortho::internal::read_wisdom(path);
  EXPECT_TRUE(wisdom.usable);
  EXPECT_TRUE(wisdom.entries.empty());
  EXPECT_TRUE(wisdom.warnings.empty());

  // Foreign: unusable, one warning, and appending leaves it as it was.
  write(path, "P3\n2 2 255\n");
  wisdom = ortho::internal::read_wisdom(path);
  EXPECT_FALSE(wisdom.usable);
  ASSERT_EQ(wisdom.warnings.size(), 1u);
  EXPECT_NE(wisdom.warnings[0].find(path), std::string::npos);
  const auto entry = *ortho::internal::parse_wisdom_entry(kLine);
  EXPECT_FALSE(ortho::internal::append_wisdom(path, entry).empty());
  EXPECT_EQ(contents(path), "P3\n2 2 255\n");

  // Truncated in its last line: the whole lines, a warning for the rest.
  const std::string whole(kLine);
  write(path, "orthocomm-wisdom 1\n" + whole + "\n" + whole.substr(0, 30));
  wisdom = ortho::internal::read_wisdom(path);
  EXPECT_TRUE(wisdom.usable);
  EXPECT_EQ(wisdom.entries.size(), 1u);
  ASSERT_EQ(wisdom.warnings.size(), 1u);
  EXPECT_NE(wisdom.warnings[0].find("line 3"), std::string::npos);

  // Appending replaces the entry of the same key and keeps the others.
  auto other = entry;
  other.key.band = 9;
  EXPECT_EQ(ortho::internal::append_wisdom(path, other), "");
  auto replaced = entry;
  replaced.winner = "direct";
  EXPECT_EQ(ortho::internal::append_wisdom(path, replaced), "");
  wisdom = ortho::internal::read_wisdom(path);
  EXPECT_TRUE(wisdom.warnings.empty());
  ASSERT_EQ(wisdom.entries.size(), 2u);
  const WisdomEntry* found = ortho::internal::find_wisdom(wisdom, entry.key);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->winner, "direct");
  EXPECT_NE(ortho::internal::find_wisdom(wisdom, other.key), nullptr);
  std::remove(path.c_str());
}

class Wisdom : public ::testing::Test {
 protected:
  void TearDown() override {
    ortho::internal::set_tuning_clock_for_testing(nullptr);
    unsetenv("ORTHO_WISDOM");
  }

  // Injects `fastest` as the fastest algorithm, counting the runs timed.
  void inject(const std::string& fastest) {
    timed_runs_ = 0;
    ortho::internal::set_tuning_clock_for_testing(
        [this, fastest](std::string_view algorithm, double) {
          if (algorithm == ortho::internal::kBarrierClockName) return 0.0;
          ++timed_runs_;
          return algorithm == fastest ? 1e-6 : 1e-3;
        });
  }

  std::atomic<int> timed_runs_{0};
};

// Where the first communicator measured mpi fastest, the second (same
// structure, a clock that would now pick direct) runs mpi from the file.
TEST_F(Wisdom, ADecisionRoundTripsAndTheSecondRunMeasuresNothing) {
  const Comm world = Comm::world();
  const std::string path = shared_path(world, "round_trip");
  if (world.rank() == 0) std::remove(path.c_str());
  classic::barrier(world);
  setenv("ORTHO_WISDOM", path.c_str(), 1);
  Random shared(0x3153d0u + static_cast<unsigned>(world.size()));
  const Graph graph = graph_with_edges(shared, world.size());
  SCOPED_TRACE(graph.name());
  for (const char* fastest : {"mpi", "direct"}) {
    inject(fastest);
    const Comm comm = ortho_graph_testing::make_comm(graph, world);
    const OpenMpiGraph reference(comm);
    alltoall_calls(comm, reference, graph, 11);
    alltoallv_starts(comm, reference, graph, 12);
    const ortho::Explanation blocking =
        ortho::explain(comm, Operation::alltoall, kBlock * sizeof(int));
    const ortho::Explanation persistent = ortho::explain(
        comm, Operation::alltoallv, 2 * sizeof(int), Mode::persistent);
    EXPECT_EQ(blocking.selected, "mpi") << ortho::to_string(blocking);
    EXPECT_EQ(persistent.selected, "mpi") << ortho::to_string(persistent);
    if (std::string_view(fastest) == "mpi") {
      EXPECT_GT(timed_runs_, 0);
      EXPECT_EQ(blocking.reason.rfind("measured: fastest", 0), 0u);
    } else {
      EXPECT_EQ(timed_runs_, 0) << "measured although the file had it";
      EXPECT_EQ(blocking.reason.rfind("measured (ORTHO_WISDOM)", 0), 0u)
          << ortho::to_string(blocking);
      EXPECT_EQ(persistent.reason.rfind("measured (ORTHO_WISDOM)", 0), 0u)
          << ortho::to_string(persistent);
    }
  }
  if (world.rank() == 0) {
    const auto wisdom = ortho::internal::read_wisdom(path);
    EXPECT_TRUE(wisdom.warnings.empty());
    EXPECT_EQ(wisdom.entries.size(), 2u);  // alltoall, alltoallv_init
    std::remove(path.c_str());
  }
}

// Damaged files and a file of another structure: measured, right results.
TEST_F(Wisdom, ADamagedOrForeignFileFallsBackToMeasuring) {
  const Comm world = Comm::world();
  Random shared(0x5ad0u + static_cast<unsigned>(world.size()));
  const Graph graph = graph_with_edges(shared, world.size());
  SCOPED_TRACE(graph.name());
  const std::string whole(kLine);
  struct Case {
    const char* name;
    std::string text;
    bool rewritten;  // whether tuning may add to it
    bool warns;      // whether rank 0 says so on stderr
  };
  const Case cases[] = {
      {"foreign", "#!/bin/sh\nrm -rf /\n", false, true},
      {"truncated", "orthocomm-wisdom 1\n" + whole.substr(0, 40), true, true},
      {"corrupt", "orthocomm-wisdom 1\n\x01\x02\xff garbage\n" + whole, true,
       true},
      {"another structure", "orthocomm-wisdom 1\n" + whole + "\n", true, false},
      {"binary", std::string("\0\0\0\xff", 4), false, true},
  };
  int index = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    // A file of its own per case: a warning is printed once per text.
    const std::string path =
        shared_path(world, "damaged_" + std::to_string(index++));
    if (world.rank() == 0) write(path, c.text);
    classic::barrier(world);
    setenv("ORTHO_WISDOM", path.c_str(), 1);
    inject("direct");
    if (world.rank() == 0) ::testing::internal::CaptureStderr();
    const Comm comm = ortho_graph_testing::make_comm(graph, world);
    const OpenMpiGraph reference(comm);
    alltoall_calls(comm, reference, graph, 21);
    if (world.rank() == 0) {
      // Rank 0 reads the file; it warns once, naming it.
      const std::string printed = ::testing::internal::GetCapturedStderr();
      const std::string warning = "ortho: ORTHO_WISDOM file " + path;
      const std::size_t first = printed.find(warning);
      EXPECT_EQ(first != std::string::npos, c.warns) << printed;
      if (first != std::string::npos) {
        EXPECT_EQ(printed.find(warning, first + 1), std::string::npos)
            << "warned more than once: " << printed;
      }
    }
    const ortho::Explanation e =
        ortho::explain(comm, Operation::alltoall, kBlock * sizeof(int));
    EXPECT_EQ(e.selected, "direct") << ortho::to_string(e);
    EXPECT_EQ(e.reason.rfind("measured: fastest", 0), 0u)
        << ortho::to_string(e);
    EXPECT_GT(timed_runs_, 0);
    if (world.rank() == 0) {
      if (c.rewritten) {
        const auto wisdom = ortho::internal::read_wisdom(path);
        EXPECT_TRUE(wisdom.usable);
        EXPECT_GE(wisdom.entries.size(), 1u);
      } else {
        EXPECT_EQ(contents(path), c.text) << "a foreign file was changed";
      }
      std::remove(path.c_str());
    }
    classic::barrier(world);
  }
}

}  // namespace
