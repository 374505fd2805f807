// classic::alternation_init: each start runs the alternative the
// alternation names (two persistent allreduces of one buffer, MPI_SUM and
// MPI_MAX, whose results tell them apart), reports every run, and delivers
// the element-wise maximum over the processes of what it was asked to
// agree on; once settled, runs the one alternative alone; bad
// alternatives and a bad index raise.
#include "classic/collectives/alternation.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/nonblocking_collectives.h"
#include "classic/collectives/persistent_collectives.h"
#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "tests/testing/errors.h"

namespace classic {
namespace {

// Runs the alternatives of `script`, asks for an agreement at start
// `agree_at` on {rank, -rank}, and records what it hears.
class Scripted final : public Alternation {
 public:
  Scripted(std::vector<std::size_t> script, std::size_t agree_at, int rank)
      : script_(std::move(script)), agree_at_(agree_at), rank_(rank) {}

  std::size_t next() override { return script_[starts_++ % script_.size()]; }
  std::vector<double> agree() override {
    if (starts_ - 1 != agree_at_) return {};
    return {static_cast<double>(rank_), static_cast<double>(-rank_)};
  }
  void ran(std::size_t alternative, double seconds) override {
    ran_.push_back(alternative);
    EXPECT_GE(seconds, 0.0);
  }
  void agreed(std::span<const double> maxima) override {
    agreements_.emplace_back(maxima.begin(), maxima.end());
  }
  std::size_t agreement_size() const override { return 2; }

  std::vector<std::size_t> ran_;
  std::vector<std::vector<double>> agreements_;

 private:
  std::vector<std::size_t> script_;
  std::size_t agree_at_;
  int rank_;
  std::size_t starts_ = 0;
};

// The two alternatives: persistent allreduces of one int, MPI_SUM (index
// 0) and MPI_MAX (index 1), from `send` into `recv`.
std::vector<Request> sum_and_max(const Comm& comm, int* send, int* recv) {
  std::vector<Request> alternatives;
  alternatives.push_back(allreduce_init(comm, send, recv, 1, MPI_INT, MPI_SUM));
  alternatives.push_back(allreduce_init(comm, send, recv, 1, MPI_INT, MPI_MAX));
  return alternatives;
}

TEST(Alternation, EachStartRunsTheNamedAlternativeAndAgreementsAreMaxima) {
  const Comm world = Comm::world();
  const int size = world.size();
  const int rank = world.rank();
  int send = 0;
  int recv = 0;
  std::vector<Request> alternatives = sum_and_max(world, &send, &recv);
  const std::vector<std::size_t> script = {0, 1, 1, 0, 1, 0};
  auto scripted = std::make_shared<Scripted>(script, 2, rank);
  Request request = alternation_init(world, std::move(alternatives), scripted,
                                     "alternation_test");
  EXPECT_TRUE(request.is_inactive());
  const int sum = size * (size + 1) / 2;  // of rank + 1
  for (std::size_t n = 0; n < 2 * script.size(); ++n) {
    send = rank + 1;
    recv = -1;
    start(request);
    wait(request);
    EXPECT_EQ(recv, script[n % script.size()] == 0 ? sum : size)
        << "start " << n;
  }
  EXPECT_EQ(scripted->ran_.size(), 2 * script.size());
  for (std::size_t i = 0; i < scripted->ran_.size(); ++i) {
    EXPECT_EQ(scripted->ran_[i], script[i % script.size()]);
  }
  ASSERT_EQ(scripted->agreements_.size(), 1u);
  EXPECT_EQ(scripted->agreements_[0],
            (std::vector<double>{static_cast<double>(size - 1), 0.0}));
}

// Runs alternative 0 at the first `trials` starts, then settles on
// alternative 1: the request runs it alone from then on, asking nothing.
class Settling final : public Alternation {
 public:
  explicit Settling(std::size_t trials) : trials_(trials) {}

  std::size_t next() override {
    ++next_calls_;
    return 0;
  }
  std::vector<double> agree() override { return {}; }
  void ran(std::size_t alternative, double /*seconds*/) override {
    ran_.push_back(alternative);
  }
  void agreed(std::span<const double> /*maxima*/) override {}
  std::size_t agreement_size() const override { return 1; }
  std::optional<std::size_t> settled() const override {
    ++settled_calls_;
    if (ran_.size() < trials_) return std::nullopt;
    return settle_on_;
  }

  std::size_t settle_on_ = 1;
  std::vector<std::size_t> ran_;
  std::size_t next_calls_ = 0;
  mutable std::size_t settled_calls_ = 0;

 private:
  std::size_t trials_;
};

TEST(Alternation, ASettledAlternationRunsItsAlternativeAloneAskingNothing) {
  const Comm world = Comm::world();
  const int size = world.size();
  const int rank = world.rank();
  int send = 0;
  int recv = 0;
  std::vector<Request> alternatives = sum_and_max(world, &send, &recv);
  auto settling = std::make_shared<Settling>(3);
  Request request = alternation_init(world, std::move(alternatives), settling,
                                     "alternation_test");
  const int sum = size * (size + 1) / 2;  // of rank + 1
  for (int n = 0; n < 8; ++n) {
    send = rank + 1;
    recv = -1;
    start(request);
    wait(request);
    EXPECT_EQ(recv, n < 3 ? sum : size) << "start " << n;
  }
  // Three timed runs of the first; the fourth start settled, and nothing
  // was asked or reported after it.
  EXPECT_EQ(settling->ran_, (std::vector<std::size_t>{0, 0, 0}));
  EXPECT_EQ(settling->next_calls_, 3u);
  EXPECT_EQ(settling->settled_calls_, 4u);
  // The request stays persistent and inactive between starts.
  EXPECT_TRUE(request.is_inactive());
}

TEST(Alternation, SettlingOnNoAlternativeRaises) {
  const Comm world = Comm::world();
  int send = 1;
  int recv = 0;
  std::vector<Request> alternatives;
  alternatives.push_back(
      allreduce_init(world, &send, &recv, 1, MPI_INT, MPI_SUM));
  auto settling = std::make_shared<Settling>(0);
  settling->settle_on_ = 2;
  Request request =
      alternation_init(world, std::move(alternatives), settling, "h");
  orthocomm_test::expect_error([&] { start(request); }, ErrorClass::arg,
                               {"h:", "alternative 2 of 1"});
}

TEST(Alternation, BadAlternativesAndIndicesRaise) {
  const Comm world = Comm::world();
  int send = 1;
  int recv = 0;
  auto one = std::make_shared<Scripted>(std::vector<std::size_t>{0}, 99, 0);
  orthocomm_test::expect_error(
      [&] { (void)alternation_init(world, {}, one, "f"); }, ErrorClass::request,
      {"f:", "no alternatives"});
  std::vector<Request> pending;
  pending.push_back(iallreduce(world, &send, &recv, 1, MPI_INT, MPI_SUM));
  orthocomm_test::expect_error(
      [&] { (void)alternation_init(world, std::move(pending), one, "f"); },
      ErrorClass::request, {"alternatives[0]", "inactive persistent"});
  std::vector<Request> alternatives;
  alternatives.push_back(
      allreduce_init(world, &send, &recv, 1, MPI_INT, MPI_SUM));
  auto out_of_range =
      std::make_shared<Scripted>(std::vector<std::size_t>{3}, 99, 0);
  Request request =
      alternation_init(world, std::move(alternatives), out_of_range, "g");
  orthocomm_test::expect_error([&] { start(request); }, ErrorClass::arg,
                               {"g:", "alternative 3 of 1"});
}

}  // namespace
}  // namespace classic
