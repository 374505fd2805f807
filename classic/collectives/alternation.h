// A persistent request made of several persistent requests for one
// collective (its alternatives: the same operation by different
// algorithms), of which each start runs one: what a layer above needs to
// measure the alternatives on the caller's own calls and keep the fastest
// (ortho's tuning), with every run delivering the collective's result.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_ALTERNATION_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_ALTERNATION_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/p2p/request.h"

namespace classic {

// What decides, start by start, which alternative runs. Called by the
// request's start and completion functions, on the calling thread.
class Alternation {
 public:
  virtual ~Alternation() = default;
  // The alternative the start now beginning runs (an index into the
  // alternatives).
  virtual std::size_t next() = 0;
  // Values to agree on with this start: their element-wise maximum over
  // the communicator is delivered to agreed() when the run completes. Empty
  // for none; otherwise exactly agreement_size() values.
  virtual std::vector<double> agree() = 0;
  // The run of `alternative` begun by the last start completed `seconds`
  // after that start (as the completion function that saw it measured).
  virtual void ran(std::size_t alternative, double seconds) = 0;
  // The maxima asked for by agree(), before the completion returns.
  virtual void agreed(std::span<const double> maxima) = 0;
  // How many values an agreement carries (fixed for the request's life).
  virtual std::size_t agreement_size() const = 0;
  // The alternative that every start from now on runs, once there is one:
  // asked before each start until it names one, after which the request
  // runs that alternative alone, untimed, and calls nothing above (the
  // others and the agreement are freed then). A stencil loop's persistent
  // request then costs no more than its alternative's own.
  virtual std::optional<std::size_t> settled() const { return std::nullopt; }
};

// A persistent request on the intra-communicator `comm` whose starts each
// run one of `alternatives` (inactive persistent requests on comm, for the
// same collective call), as `alternation` decides. The agreement is begun
// with the start that asks for it, so it takes its place in comm's order of
// collectives exactly as that start does on every process; it completes
// with the run. Collective (a persistent allreduce for the agreement is
// made now). Errors (ErrorClass::request, naming `function`): no
// alternatives, or one that is not an inactive persistent request;
// ErrorClass::comm for a null, freed or inter-communicator. A start whose
// next() or settled() names no alternative raises ErrorClass::arg.
[[nodiscard]] Request alternation_init(const Comm& comm,
                                       std::vector<Request> alternatives,
                                       std::shared_ptr<Alternation> alternation,
                                       const char* function);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_ALTERNATION_H_
