// ortho's collectives with typed buffers (std::span<T>, the datatype
// inferred, counts from the spans as classic's typed collectives take
// them), in their three modes, and blocking overloads that return the
// received data by value. Semantics: ortho/collectives.h.
#ifndef ORTHOCOMM_ORTHO_TYPED_COLLECTIVES_H_
#define ORTHOCOMM_ORTHO_TYPED_COLLECTIVES_H_

#include "ortho/typed_by_value.h"   // IWYU pragma: export
#include "ortho/typed_call.h"       // IWYU pragma: export
#include "ortho/typed_exchange.h"   // IWYU pragma: export
#include "ortho/typed_reduction.h"  // IWYU pragma: export
#include "ortho/typed_rooted.h"     // IWYU pragma: export

#endif  // ORTHOCOMM_ORTHO_TYPED_COLLECTIVES_H_
