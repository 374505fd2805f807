// A plan that holds its own derived datatypes, for operations that outlive
// the call that made them (non-blocking and persistent): MPI lets the user
// free a datatype while an operation that uses it is pending, or between a
// persistent request's init and its starts, and the operation must go on
// as if it had not been freed (MPI_Type_free: "any communication that is
// currently using this datatype will complete normally"). Internal to
// classic.
#ifndef ORTHOCOMM_CLASSIC_EXEC_INTERNAL_HELD_DATATYPES_H_
#define ORTHOCOMM_CLASSIC_EXEC_INTERNAL_HELD_DATATYPES_H_

#include <memory>

#include "classic/base/internal/inside_classic.h"
#include "classic/exec/plan.h"

namespace classic::internal {

// `plan` itself when every datatype in it is predefined; otherwise a copy
// whose derived datatypes are duplicates (MPI_Type_dup) that the copy owns
// and frees when it goes (while the Environment is active). Transport
// failures raise classic::Error naming `function`.
std::shared_ptr<const Plan> with_held_datatypes(
    std::shared_ptr<const Plan> plan, const char* function);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_EXEC_INTERNAL_HELD_DATATYPES_H_
