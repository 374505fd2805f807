#include "classic/base/op.h"

#include "classic/base/error.h"
#include "classic/base/internal/transport_error.h"

namespace classic {

bool op_commutative(MPI_Op op, std::string_view function) {
  if (op == MPI_OP_NULL) {
    throw Error(ErrorClass::op, function, "op is MPI_OP_NULL");
  }
  int commutative = 0;
  transport::check_code(MPI_Op_commutative(op, &commutative), function);
  return commutative != 0;
}

}  // namespace classic
