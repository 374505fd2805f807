// Questions about a transport reduction operation (MPI_Op) that algorithms
// choosing an operand order need to ask.
#ifndef ORTHOCOMM_CLASSIC_BASE_OP_H_
#define ORTHOCOMM_CLASSIC_BASE_OP_H_

#include <mpi.h>

#include <string_view>

namespace classic {

// MPI_Op_commutative. ErrorClass::op naming `function` for MPI_OP_NULL or
// an op the transport rejects.
bool op_commutative(MPI_Op op, std::string_view function);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_BASE_OP_H_
