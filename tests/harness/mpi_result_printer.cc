#include "tests/harness/mpi_result_printer.h"

#include <cstdio>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

namespace orthocomm_test {
namespace {

std::string full_name(const testing::TestInfo& test_info) {
  return std::string(test_info.test_suite_name()) + "." + test_info.name();
}

// The failure messages this process recorded for one test.
std::string local_failures(const testing::TestResult& result) {
  std::ostringstream out;
  for (int i = 0; i < result.total_part_count(); ++i) {
    const testing::TestPartResult& part = result.GetTestPartResult(i);
    if (!part.failed()) continue;
    out << (part.file_name() ? part.file_name() : "unknown") << ":"
        << part.line_number() << ": Failure\n"
        << part.message() << "\n";
  }
  return out.str();
}

std::string join(const std::vector<int>& values) {
  std::string text;
  for (int value : values) {
    if (!text.empty()) text += ", ";
    text += std::to_string(value);
  }
  return text;
}

}  // namespace

MpiResultPrinter::MpiResultPrinter(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

void MpiResultPrinter::OnTestProgramStart(const testing::UnitTest& unit_test) {
  if (rank_ != 0) return;
  std::printf("[==========] Running %d tests from %d test suites on %d %s.\n",
              unit_test.test_to_run_count(),
              unit_test.test_suite_to_run_count(), size_,
              size_ == 1 ? "process" : "processes");
  std::fflush(stdout);
}

void MpiResultPrinter::OnTestStart(const testing::TestInfo& test_info) {
  if (rank_ != 0) return;
  std::printf("[ RUN      ] %s\n", full_name(test_info).c_str());
  std::fflush(stdout);
}

MpiResultPrinter::Combined MpiResultPrinter::combine(
    const testing::TestInfo& test_info) const {
  const testing::TestResult& result = *test_info.result();
  const int local_state = result.Failed() ? 2 : result.Skipped() ? 1 : 0;
  const std::string text = local_failures(result);

  std::vector<int> states(rank_ == 0 ? size_ : 0);
  MPI_Gather(&local_state, 1, MPI_INT, states.data(), 1, MPI_INT, 0, comm_);
  const int length = static_cast<int>(text.size());
  std::vector<int> lengths(rank_ == 0 ? size_ : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm_);
  std::vector<int> displacements(lengths.size(), 0);
  if (!lengths.empty()) {
    std::exclusive_scan(lengths.begin(), lengths.end(), displacements.begin(),
                        0);
  }
  std::string all_text(
      rank_ == 0 ? std::accumulate(lengths.begin(), lengths.end(), 0) : 0,
      '\0');
  MPI_Gatherv(text.data(), length, MPI_CHAR, all_text.data(), lengths.data(),
              displacements.data(), MPI_CHAR, 0, comm_);

  Combined combined{Outcome::passed, {}, {}};
  if (rank_ != 0) return combined;
  bool all_skipped = true;
  for (int r = 0; r < size_; ++r) {
    if (states[r] == 2) {
      combined.failed_ranks.push_back(r);
      combined.report += "[rank " + std::to_string(r) + "] " +
                         all_text.substr(displacements[r], lengths[r]);
    }
    all_skipped = all_skipped && states[r] == 1;
  }
  combined.outcome = !combined.failed_ranks.empty() ? Outcome::failed
                     : all_skipped                  ? Outcome::skipped
                                                    : Outcome::passed;
  return combined;
}

void MpiResultPrinter::OnTestEnd(const testing::TestInfo& test_info) {
  const Combined combined = combine(test_info);
  if (rank_ != 0) return;  // rank 0 keeps the tally and prints
  const std::string name = full_name(test_info);
  const long long ms =
      static_cast<long long>(test_info.result()->elapsed_time());
  switch (combined.outcome) {
    case Outcome::passed:
      ++passed_;
      std::printf("[       OK ] %s (%lld ms)\n", name.c_str(), ms);
      break;
    case Outcome::skipped:
      ++skipped_;
      std::printf("[  SKIPPED ] %s (%lld ms)\n", name.c_str(), ms);
      break;
    case Outcome::failed:
      failed_tests_.push_back(name);
      std::printf("%s[  FAILED  ] %s on rank(s) %s (%lld ms)\n",
                  combined.report.c_str(), name.c_str(),
                  join(combined.failed_ranks).c_str(), ms);
      break;
  }
  std::fflush(stdout);
}

void MpiResultPrinter::OnTestProgramEnd(const testing::UnitTest& unit_test) {
  if (rank_ != 0) return;
  std::printf("[==========] %d tests ran on %d %s. (%lld ms total)\n",
              unit_test.test_to_run_count(), size_,
              size_ == 1 ? "process" : "processes",
              static_cast<long long>(unit_test.elapsed_time()));
  std::printf("[  PASSED  ] %d tests.\n", passed_);
  if (skipped_ > 0) std::printf("[  SKIPPED ] %d tests.\n", skipped_);
  if (!failed_tests_.empty()) {
    std::printf("[  FAILED  ] %zu tests, listed below:\n",
                failed_tests_.size());
    for (const std::string& name : failed_tests_) {
      std::printf("[  FAILED  ] %s\n", name.c_str());
    }
  }
  std::fflush(stdout);
}

}  // namespace orthocomm_test
