#include "classic/collectives/internal/checked_call.h"

#include <exception>
#include <stdexcept>

namespace classic::internal {

CheckedCall::CheckedCall(const Comm& comm, const char* function)
    : comm_(&comm),
      active_(checked()),
      exceptions_(std::uncaught_exceptions()) {
  facts_.function = function;
}

CheckedCall::~CheckedCall() {
  if (!active_ || agreed_ || std::uncaught_exceptions() <= exceptions_) return;
  // This process raised an argument error (now propagating): it takes its
  // part so that the others raise, and its own error goes on.
  try {
    agree_on_call(*comm_, facts_,
                  std::make_exception_ptr(std::logic_error("argument error")));
  } catch (...) {  // NOLINT(bugprone-empty-catch): the first error goes on
  }
}

void CheckedCall::agree() {
  if (!active_ || agreed_) return;
  agreed_ = true;
  agree_on_call(*comm_, facts_, nullptr);
}

}  // namespace classic::internal
