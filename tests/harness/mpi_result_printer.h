// A GoogleTest listener that combines every test's result over all MPI
// processes and prints from rank 0 only.
#ifndef ORTHOCOMM_TESTS_HARNESS_MPI_RESULT_PRINTER_H_
#define ORTHOCOMM_TESTS_HARNESS_MPI_RESULT_PRINTER_H_

#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

namespace orthocomm_test {

// Every process must run the same tests in the same order (the usual case:
// same binary, same filter). A test fails if it fails on any process; rank 0
// prints the failure messages of every process, each marked with its rank.
class MpiResultPrinter : public testing::EmptyTestEventListener {
 public:
  // `comm` is a communicator private to the harness (a dup of the world).
  explicit MpiResultPrinter(MPI_Comm comm);

  void OnTestProgramStart(const testing::UnitTest& unit_test) override;
  void OnTestStart(const testing::TestInfo& test_info) override;
  void OnTestEnd(const testing::TestInfo& test_info) override;
  void OnTestProgramEnd(const testing::UnitTest& unit_test) override;

 private:
  enum class Outcome { passed, skipped, failed };
  struct Combined {
    Outcome outcome;
    std::vector<int> failed_ranks;
    std::string report;  // failure messages, rank by rank (rank 0 only)
  };

  Combined combine(const testing::TestInfo& test_info) const;

  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
  int passed_ = 0;
  int skipped_ = 0;
  std::vector<std::string> failed_tests_;
};

}  // namespace orthocomm_test

#endif  // ORTHOCOMM_TESTS_HARNESS_MPI_RESULT_PRINTER_H_
