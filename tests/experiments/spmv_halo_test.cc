// The SpMV experiment's MPI-free core: the Matrix Market reader against
// files written here (every field and symmetry the collection uses, and
// each way a file can be wrong), each process's halo against a brute-force
// count from the whole matrix, the distributed y = A x and z = A^T w,
// their exchanges simulated in memory, against Eigen's products, and
// METIS's partitions against contiguous blocks.
#include <gtest/gtest.h>

#include <Eigen/SparseCore>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "experiments/spmv/accumulate.h"
#include "experiments/spmv/halo_plan.h"
#include "experiments/spmv/matrix_market.h"
#include "experiments/spmv/partition.h"

namespace {

using spmv::Matrix;

std::string write_file(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path =
      std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// The message of the std::runtime_error that reading `text` raises.
std::string error_reading(const std::string& text) {
  const std::string path = write_file("bad.mtx", text);
  try {
    (void)spmv::read_matrix(path);
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

TEST(MatrixMarket, GeneralRealEntriesAsWritten) {
  const Matrix a = spmv::read_matrix(write_file(
      "general.mtx",
      "%%MatrixMarket matrix coordinate real general\n% a comment\n\n"
      "2 3 3\n1 1 1.5\n2 3 -2\n1 1 0.25\n"));
  ASSERT_EQ(a.rows(), 2);
  ASSERT_EQ(a.cols(), 3);
  EXPECT_EQ(a.coeff(0, 0), 1.75);  // repeated entries add up
  EXPECT_EQ(a.coeff(1, 2), -2);
  EXPECT_EQ(a.coeff(1, 0), 0);
  EXPECT_EQ(a.nonZeros(), 2);
}

TEST(MatrixMarket, SymmetricPatternAndIntegerFiles) {
  const Matrix symmetric = spmv::read_matrix(write_file(
      "symmetric.mtx",
      "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 4\n3 1 "
      "2\n2 2 5\n"));
  EXPECT_EQ(symmetric.coeff(2, 0), 2);
  EXPECT_EQ(symmetric.coeff(0, 2), 2);
  EXPECT_EQ(symmetric.coeff(0, 0), 4);  // the diagonal once
  EXPECT_EQ(symmetric.nonZeros(), 4);
  const Matrix pattern = spmv::read_matrix(write_file(
      "pattern.mtx",
      "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n2 1\n1 1\n"));
  EXPECT_EQ(pattern.coeff(1, 0), 1);
  EXPECT_EQ(pattern.coeff(0, 1), 1);
  EXPECT_EQ(pattern.coeff(0, 0), 1);
  const Matrix integer = spmv::read_matrix(write_file(
      "integer.mtx",
      "%%MatrixMarket matrix coordinate integer general\n1 2 1\n1 2 -7\n"));
  EXPECT_EQ(integer.coeff(0, 1), -7);
  const Matrix skew = spmv::read_matrix(write_file(
      "skew.mtx",
      "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3\n"));
  EXPECT_EQ(skew.coeff(1, 0), 3);
  EXPECT_EQ(skew.coeff(0, 1), -3);
}

TEST(MatrixMarket, EveryFaultIsNamedWithItsLine) {
  EXPECT_NE(error_reading("").find("cannot be read"), std::string::npos);
  EXPECT_NE(std::string([] {
              try {
                (void)spmv::read_matrix("/nonexistent/matrix.mtx");
              } catch (const std::runtime_error& error) {
                return std::string(error.what());
              }
              return std::string();
            }())
                .find("/nonexistent/matrix.mtx: cannot be read"),
            std::string::npos);
  EXPECT_NE(error_reading("%%MatrixMarket matrix array real general\n1 1\n1\n")
                .find("coordinate form"),
            std::string::npos);
  EXPECT_NE(
      error_reading("%%MatrixMarket matrix coordinate complex general\n1 1 1\n")
          .find("'complex'"),
      std::string::npos);
  EXPECT_NE(
      error_reading("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n")
          .find("'hermitian'"),
      std::string::npos);
  EXPECT_NE(error_reading("%%MatrixMarket matrix coordinate real general\n"
                          "2 two 1\n1 1 1\n")
                .find(":2: malformed size line"),
            std::string::npos);
  EXPECT_NE(error_reading("%%MatrixMarket matrix coordinate real general\n"
                          "2 2 2\n1 1 1\n2 x 1\n")
                .find(":4: malformed entry '2 x 1'"),
            std::string::npos);
  EXPECT_NE(error_reading("%%MatrixMarket matrix coordinate real general\n"
                          "2 2 1\n3 1 1\n")
                .find(":3: entry (3, 1) lies outside 2 x 2"),
            std::string::npos);
  EXPECT_NE(error_reading("%%MatrixMarket matrix coordinate real general\n"
                          "2 2 3\n1 1 1\n")
                .find("holds 1 entries, the size line declares 3"),
            std::string::npos);
  EXPECT_NE(error_reading("%%MatrixMarket matrix coordinate real general\n"
                          "2 2 1\n1 1 1\n2 2 2\n")
                .find(":4: holds more entries than the 1"),
            std::string::npos);
}

// Every matrix of the experiment's set reads with the size its README
// gives, its stored entries (mirrored where symmetric) all there.
TEST(MatrixMarket, EveryMatrixOfTheSetReads) {
  struct Expected {
    const char* file;
    int rows, columns, stored;
    bool symmetric;
  };
  const Expected set[] = {
      {"bcsstk01", 48, 48, 224, true},
      {"dwt_162", 162, 162, 672, true},
      {"west0132", 132, 132, 414, false},
      {"gams10a", 114, 171, 407, false},
      {"odepa400", 400, 400, 1201, false},
      {"D_10", 460, 816, 7614, false},
      {"SmaGri", 1059, 1059, 4919, false},
      {"can_1054", 1054, 1054, 6625, true},
      {"msc01050", 1050, 1050, 15103, true},
      {"lp_sctap2", 1090, 2500, 7334, false},
  };
  const char* runfiles = std::getenv("TEST_SRCDIR");
  ASSERT_NE(runfiles, nullptr) << "run under bazel test";
  for (const Expected& e : set) {
    SCOPED_TRACE(e.file);
    const Matrix a = spmv::read_matrix(std::string(runfiles) +
                                       "/orthocomm/experiments/spmv/data/" +
                                       e.file + ".mtx");
    EXPECT_EQ(a.rows(), e.rows);
    EXPECT_EQ(a.cols(), e.columns);
    // Repeated entries would add up; a symmetric file's off-diagonal ones
    // are mirrored.
    EXPECT_LE(a.nonZeros(), e.symmetric ? 2 * e.stored : e.stored);
    EXPECT_GE(a.nonZeros(), e.stored * 9 / 10);
    if (e.symmetric) {
      EXPECT_TRUE(a.isApprox(Matrix(a.transpose())));
    }
  }
}

// A random sparse matrix with small integer entries (every product and
// sum below is exact in double, so the distributed sums must equal
// Eigen's whatever their order).
Matrix random_matrix(std::mt19937& random, int rows, int columns) {
  std::uniform_int_distribution<int> value(-9, 9);
  std::bernoulli_distribution present(0.2);
  std::vector<Eigen::Triplet<double>> entries;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) {
      if (present(random)) entries.emplace_back(i, j, value(random));
    }
  }
  Matrix a(rows, columns);
  a.setFromTriplets(entries.begin(), entries.end());
  a.makeCompressed();
  return a;
}

class Distributed : public ::testing::TestWithParam<int> {};

TEST_P(Distributed, HaloProductAndAccumulateMatchTheWholeMatrix) {
  const int processes = GetParam();
  std::mt19937 random(1234u + static_cast<unsigned>(processes));
  for (int trial = 0; trial < 20; ++trial) {
    const int rows = std::uniform_int_distribution<int>(processes, 40)(random);
    const int columns = trial % 2 == 0 ? rows
                                       : std::uniform_int_distribution<int>(
                                             processes, 40)(random);
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(columns) +
                 " on " + std::to_string(processes) + ", trial " +
                 std::to_string(trial));
    const Matrix a = random_matrix(random, rows, columns);
    const std::vector<int> row_begins = spmv::blocks(rows, processes);
    const std::vector<int> column_begins = spmv::blocks(columns, processes);
    Eigen::VectorXd x(columns);
    for (int j = 0; j < columns; ++j) x[j] = 1 + j % 7;
    Eigen::VectorXd w(rows);
    for (int i = 0; i < rows; ++i) w[i] = spmv::w_of_row(i);
    const Eigen::VectorXd y = a * x;
    const Eigen::VectorXd z = a.transpose() * w;
    std::vector<spmv::HaloPlan> plans;
    for (int p = 0; p < processes; ++p) {
      plans.push_back(spmv::halo_plan(a, row_begins, column_begins, p));
    }
    // Brute force: what each process reads of each other's columns.
    std::vector<std::map<int, std::set<int>>> reads(
        static_cast<std::size_t>(processes));
    for (int i = 0; i < rows; ++i) {
      const int reader = spmv::owner(row_begins, i);
      for (Matrix::InnerIterator it(a, i); it; ++it) {
        const int owner =
            spmv::owner(column_begins, static_cast<int>(it.col()));
        if (owner != reader) {
          reads[static_cast<std::size_t>(reader)][owner].insert(
              static_cast<int>(it.col()));
        }
      }
    }
    for (int p = 0; p < processes; ++p) {
      const spmv::HaloPlan& plan = plans[static_cast<std::size_t>(p)];
      const auto& mine = reads[static_cast<std::size_t>(p)];
      ASSERT_EQ(plan.sources.size(), mine.size()) << "process " << p;
      for (std::size_t s = 0; s < plan.sources.size(); ++s) {
        const auto found = mine.find(plan.sources[s]);
        ASSERT_NE(found, mine.end());
        EXPECT_EQ(plan.receive_columns[s],
                  std::vector<int>(found->second.begin(), found->second.end()));
      }
      std::size_t sends = 0;
      for (int q = 0; q < processes; ++q) {
        const auto found = reads[static_cast<std::size_t>(q)].find(p);
        if (found == reads[static_cast<std::size_t>(q)].end()) continue;
        ASSERT_LT(sends, plan.destinations.size());
        EXPECT_EQ(plan.destinations[sends], q);
        EXPECT_EQ(plan.send_columns[sends],
                  std::vector<int>(found->second.begin(), found->second.end()));
        ++sends;
      }
      EXPECT_EQ(sends, plan.destinations.size());
    }
    // y = A x: each process's own x and, in the plan's order, its halo.
    // z = A^T w: the partial sums each process sends back, delivered to
    // their owners in each owner's order of destinations.
    std::vector<std::vector<double>> halo_sums(
        static_cast<std::size_t>(processes));
    std::vector<std::vector<int>> slots(static_cast<std::size_t>(processes));
    for (int p = 0; p < processes; ++p) {
      const auto at = static_cast<std::size_t>(p);
      const spmv::HaloPlan& plan = plans[at];
      std::vector<double> values;
      for (int j = column_begins[at]; j < column_begins[at + 1]; ++j) {
        values.push_back(x[j]);
      }
      int halo = 0;
      for (const std::vector<int>& list : plan.receive_columns) {
        for (const int j : list) values.push_back(x[j]);
        halo += static_cast<int>(list.size());
      }
      slots[at] = spmv::entry_slots(a, row_begins, column_begins, p, plan);
      const std::vector<double> local =
          spmv::local_product(a, row_begins, p, slots[at], values);
      for (int i = row_begins[at]; i < row_begins[at + 1]; ++i) {
        EXPECT_EQ(local[static_cast<std::size_t>(i - row_begins[at])], y[i])
            << "row " << i;
      }
      std::vector<double> own_w;
      for (int i = row_begins[at]; i < row_begins[at + 1]; ++i) {
        own_w.push_back(w[i]);
      }
      halo_sums[at] = spmv::partial_sums(
          a, row_begins, p, slots[at],
          column_begins[at + 1] - column_begins[at], halo, own_w);
    }
    for (int p = 0; p < processes; ++p) {
      const auto at = static_cast<std::size_t>(p);
      const spmv::HaloPlan& plan = plans[at];
      const int own = column_begins[at + 1] - column_begins[at];
      std::vector<double> received;
      for (std::size_t d = 0; d < plan.destinations.size(); ++d) {
        // What destination q computed for p's columns, in q's halo order.
        const int q = plan.destinations[d];
        const spmv::HaloPlan& theirs = plans[static_cast<std::size_t>(q)];
        std::size_t offset = static_cast<std::size_t>(
            column_begins[static_cast<std::size_t>(q) + 1] -
            column_begins[static_cast<std::size_t>(q)]);
        for (std::size_t s = 0; s < theirs.sources.size(); ++s) {
          if (theirs.sources[s] == p) {
            for (std::size_t k = 0; k < theirs.receive_columns[s].size(); ++k) {
              received.push_back(
                  halo_sums[static_cast<std::size_t>(q)][offset + k]);
            }
          }
          offset += theirs.receive_columns[s].size();
        }
      }
      std::vector<double> own_sums(halo_sums[at].begin(),
                                   halo_sums[at].begin() + own);
      const std::vector<double> got =
          spmv::accumulated(own_sums, plan, column_begins[at], received);
      for (int j = column_begins[at]; j < column_begins[at + 1]; ++j) {
        EXPECT_EQ(got[static_cast<std::size_t>(j - column_begins[at])], z[j])
            << "column " << j;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Processes, Distributed,
                         ::testing::Values(1, 2, 3, 5, 8));

// The 5-point Laplacian of a side x side grid, its rows shuffled: blocks
// of the shuffled order cut most edges, METIS's parts few.
Matrix shuffled_grid(int side, std::mt19937& random) {
  std::vector<int> label(static_cast<std::size_t>(side * side));
  for (std::size_t k = 0; k < label.size(); ++k) label[k] = static_cast<int>(k);
  std::shuffle(label.begin(), label.end(), random);
  std::vector<Eigen::Triplet<double>> entries;
  for (int r = 0; r < side; ++r) {
    for (int c = 0; c < side; ++c) {
      const int me = label[static_cast<std::size_t>(r * side + c)];
      entries.emplace_back(me, me, 4);
      if (r + 1 < side) {
        const int down = label[static_cast<std::size_t>((r + 1) * side + c)];
        entries.emplace_back(me, down, -1);
        entries.emplace_back(down, me, -1);
      }
      if (c + 1 < side) {
        const int right = label[static_cast<std::size_t>(r * side + c + 1)];
        entries.emplace_back(me, right, -1);
        entries.emplace_back(right, me, -1);
      }
    }
  }
  Matrix a(side * side, side * side);
  a.setFromTriplets(entries.begin(), entries.end());
  return a;
}

TEST(Partition, MetisPartsAreBlocksOfAPermutationThatCutLess) {
  std::mt19937 random(99);
  const Matrix a = shuffled_grid(16, random);
  for (const int processes : {1, 2, 4, 7}) {
    SCOPED_TRACE(std::to_string(processes) + " parts");
    const spmv::Partition parts = spmv::metis_parts(a, processes);
    std::vector<int> sorted = parts.order;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t k = 0; k < sorted.size(); ++k) {
      ASSERT_EQ(sorted[k], static_cast<int>(k)) << "not a permutation";
    }
    ASSERT_EQ(parts.begins.size(), static_cast<std::size_t>(processes) + 1);
    EXPECT_EQ(parts.begins.front(), 0);
    EXPECT_EQ(parts.begins.back(), 256);
    EXPECT_TRUE(std::is_sorted(parts.begins.begin(), parts.begins.end()));
    // METIS balances within a few per cent.
    for (int p = 0; p < processes; ++p) {
      const auto at = static_cast<std::size_t>(p);
      EXPECT_LE(parts.begins[at + 1] - parts.begins[at], 256 / processes + 12);
    }
    const std::int64_t metis = spmv::cut_edges(a, parts);
    const std::int64_t blocks =
        spmv::cut_edges(a, spmv::contiguous(256, processes));
    if (processes == 1) {
      EXPECT_EQ(metis, 0);
      EXPECT_EQ(blocks, 0);
    } else {
      // A 16 x 16 grid in p strips cuts 16 (p - 1) edges; shuffled blocks
      // cut about (1 - 1/p) of all 480.
      EXPECT_LE(metis, 16 * (processes - 1) + 24);
      EXPECT_GT(blocks, 2 * metis);
    }
    // The reordered matrix is P A P^T.
    const Matrix b = spmv::reordered(a, parts.order);
    for (int k = 0; k < 256; k += 17) {
      for (int l = 0; l < 256; l += 5) {
        EXPECT_EQ(b.coeff(k, l),
                  a.coeff(parts.order[static_cast<std::size_t>(k)],
                          parts.order[static_cast<std::size_t>(l)]));
      }
    }
  }
  EXPECT_THROW((void)spmv::metis_parts(Matrix(3, 4), 2), std::invalid_argument);
}

}  // namespace
