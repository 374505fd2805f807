// The boundary of ortho: every internal header of ortho (ortho/internal/
// and ortho/algorithms/) includes this one, which compiles only inside
// ortho's own targets and its white-box tests (see ortho/defs.bzl).
// Outside ortho, use the public headers.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_INSIDE_ORTHO_H_
#define ORTHOCOMM_ORTHO_INTERNAL_INSIDE_ORTHO_H_

#ifndef ORTHOCOMM_INSIDE_ORTHO
#error "this is an internal header of ortho; include ortho's public headers"
#endif

#endif  // ORTHOCOMM_ORTHO_INTERNAL_INSIDE_ORTHO_H_
