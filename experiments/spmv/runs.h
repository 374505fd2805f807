// The SpMV experiment's implementations (spmv_main.cc lists them): each is
// one step, repeated and timed, and a check of its result against the
// serial reference. Forward steps compute y = A x with x's halo exchanged
// owners -> readers (forward_runs.cc); accumulate steps compute z = A^T w
// with partial sums sent readers -> owners, the same halo reversed
// (accumulate_runs.cc).
#ifndef ORTHOCOMM_EXPERIMENTS_SPMV_RUNS_H_
#define ORTHOCOMM_EXPERIMENTS_SPMV_RUNS_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "classic/comm/comm.h"
#include "experiments/spmv/problem.h"
#include "ortho/explain.h"

namespace spmv {

class Variant {
 public:
  explicit Variant(std::string name) : name_(std::move(name)) {}
  virtual ~Variant() = default;
  Variant(const Variant&) = delete;
  Variant& operator=(const Variant&) = delete;

  const std::string& name() const { return name_; }
  virtual void step() = 0;
  // Whether this process's result equals the reference: bit for bit for
  // y = A x (the same sums in the same order); for z = A^T w within
  // 1e-12 of the magnitude of each column's terms (the partial sums of the
  // processes add in another order than the serial sum).
  virtual bool correct(const Reference& reference) const = 0;
  // Whether the step is an accumulate (its messages go the reverse way).
  virtual bool accumulates() const = 0;
  // What ortho runs and why (ortho::explain), for the runs whose algorithm
  // ortho chooses; none for the others. Collective where a run agrees on
  // the block size it explains.
  virtual std::optional<ortho::Explanation> choice() const { return {}; }
  // Whether it runs on this graph: a forced algorithm that does not serve
  // its exchange here does not (alike on every process), and prints no
  // line.
  virtual bool runs_here() const { return true; }
  // Spoils one received entry of the next exchange, where any arrives, so
  // that the check can be seen to fail.
  void spoil() { spoil_ = true; }

 protected:
  // Whether this exchange is to be spoiled (once).
  bool take_spoil() { return std::exchange(spoil_, false); }

 private:
  std::string name_;
  bool spoil_ = false;
};

// The halo's graph communicator made by ortho (the forward direction:
// owners send to readers).
classic::Comm ortho_graph(const Problem& problem);

// The implementation named `name`, or null where there is none.
std::unique_ptr<Variant> make_forward(const std::string& name,
                                      const Problem& problem);
std::unique_ptr<Variant> make_accumulate(const std::string& name,
                                         const Problem& problem);

}  // namespace spmv

#endif  // ORTHOCOMM_EXPERIMENTS_SPMV_RUNS_H_
