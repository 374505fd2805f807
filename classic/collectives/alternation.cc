// The alternation request: an operation that drives one alternative's
// operation per start (never activating it: the alternation is the one the
// completion functions see) and, where asked, a persistent allreduce begun
// with the start and completed after the run.
#include "classic/collectives/alternation.h"

#include <mpi.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "classic/base/error.h"
#include "classic/collectives/persistent_collectives.h"
#include "classic/p2p/internal/request_access.h"

namespace classic {
namespace {

using Operation = Request::Operation;

class AlternationOperation final : public Operation {
 public:
  AlternationOperation(std::vector<Request> alternatives,
                       std::shared_ptr<Alternation> alternation,
                       std::unique_ptr<double[]> sent,
                       std::unique_ptr<double[]> maxima, Request agreement,
                       const char* function)
      : alternatives_(std::move(alternatives)),
        alternation_(std::move(alternation)),
        sent_(std::move(sent)),
        maxima_(std::move(maxima)),
        agreement_(std::move(agreement)),
        function_(function) {}

  bool persistent() const noexcept override { return true; }

  void begin() override {
    if (!settled_) {
      if (const std::optional<std::size_t> winner = alternation_->settled()) {
        settle(checked(*winner));
      }
    }
    if (settled_) [[likely]] {
      running_ = true;
      run().begin();
      return;
    }
    const std::size_t index = checked(alternation_->next());
    const std::vector<double> values = alternation_->agree();
    const std::size_t size = alternation_->agreement_size();
    if (!values.empty() && values.size() != size) {
      throw Error(ErrorClass::arg, function_,
                  "the alternation asked to agree on " +
                      std::to_string(values.size()) + " values, not " +
                      std::to_string(size));
    }
    index_ = index;
    agreeing_ = !values.empty();
    if (agreeing_) {
      std::copy(values.begin(), values.end(), sent_.get());
      agreement().begin();
    }
    running_ = true;
    started_s_ = MPI_Wtime();
    run().begin();
  }

  std::span<MPI_Request> parts() override {
    return running_ || settled_ ? run().parts() : agreement().parts();
  }

  bool advance() override {
    if (settled_) [[likely]] {
      if (!run().advance()) return false;
      running_ = false;
      return true;
    }
    if (running_) {
      if (!run().advance()) return false;
      running_ = false;
      alternation_->ran(index_, MPI_Wtime() - started_s_);
      // With an agreement, its parts are waited for next.
      return !agreeing_;
    }
    if (!agreement().advance()) return false;
    agreeing_ = false;
    alternation_->agreed({maxima_.get(), alternation_->agreement_size()});
    return true;
  }

  void abandon() noexcept override {
    if (running_) run().abandon();
    if (agreeing_) agreement().abandon();
    running_ = agreeing_ = false;
  }

 private:
  // `index`, where it names an alternative.
  std::size_t checked(std::size_t index) const {
    if (index >= alternatives_.size()) {
      throw Error(ErrorClass::arg, function_,
                  "the alternation named alternative " + std::to_string(index) +
                      " of " + std::to_string(alternatives_.size()));
    }
    return index;
  }
  // From now on every start runs alternative `index` alone; the others and
  // the agreement (all inactive between starts) are freed.
  void settle(std::size_t index) {
    for (std::size_t i = 0; i < alternatives_.size(); ++i) {
      if (i != index) alternatives_[i] = Request();
    }
    agreement_ = Request();
    index_ = index;
    settled_ = true;
  }

  Operation& run() { return *RequestAccess::operation(alternatives_[index_]); }
  Operation& agreement() { return *RequestAccess::operation(agreement_); }

  std::vector<Request> alternatives_;
  std::shared_ptr<Alternation> alternation_;
  // The agreement's buffers: the persistent allreduce holds their address.
  std::unique_ptr<double[]> sent_;
  std::unique_ptr<double[]> maxima_;
  Request agreement_;
  const char* function_;
  std::size_t index_ = 0;
  bool running_ = false;   // the alternative's run has not completed
  bool agreeing_ = false;  // the agreement begun with it has not
  bool settled_ = false;   // every start runs alternatives_[index_] alone
  double started_s_ = 0;
};

}  // namespace

Request alternation_init(const Comm& comm, std::vector<Request> alternatives,
                         std::shared_ptr<Alternation> alternation,
                         const char* function) {
  if (alternatives.empty() || alternation == nullptr) {
    throw Error(
        ErrorClass::request, function,
        alternatives.empty() ? "no alternatives" : "the alternation is null");
  }
  for (std::size_t i = 0; i < alternatives.size(); ++i) {
    const Operation* op = RequestAccess::operation(alternatives[i]);
    if (op == nullptr || !op->persistent() || !alternatives[i].is_inactive()) {
      throw Error(ErrorClass::request, function,
                  "alternatives[" + std::to_string(i) +
                      "] is not an inactive persistent request");
    }
  }
  const std::size_t size =
      std::max<std::size_t>(alternation->agreement_size(), 1);
  auto sent = std::make_unique<double[]>(size);
  auto maxima = std::make_unique<double[]>(size);
  Request agreement =
      allreduce_init(comm, sent.get(), maxima.get(), static_cast<int>(size),
                     MPI_DOUBLE, MPI_MAX);
  return Request(
      std::make_unique<AlternationOperation>(
          std::move(alternatives), std::move(alternation), std::move(sent),
          std::move(maxima), std::move(agreement), function),
      comm);
}

}  // namespace classic
