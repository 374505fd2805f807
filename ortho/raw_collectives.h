// ortho's collectives with raw buffers ((pointer, count, MPI_Datatype), as
// in MPI). The function objects of ortho/forms_*.h take raw and typed
// buffers alike, so this header includes them all; ortho/collectives.h is
// the one public include. Semantics: ortho/collectives.h.
#ifndef ORTHOCOMM_ORTHO_RAW_COLLECTIVES_H_
#define ORTHOCOMM_ORTHO_RAW_COLLECTIVES_H_

#include "ortho/forms_exchange.h"   // IWYU pragma: export
#include "ortho/forms_reduction.h"  // IWYU pragma: export
#include "ortho/forms_rooted.h"     // IWYU pragma: export

#endif  // ORTHOCOMM_ORTHO_RAW_COLLECTIVES_H_
