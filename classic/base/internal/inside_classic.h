// The boundary of classic: every header in an internal/ folder of classic
// includes this one, which compiles only inside classic's own targets (see
// classic/defs.bzl). Outside classic, use the public headers.
#ifndef ORTHOCOMM_CLASSIC_BASE_INTERNAL_INSIDE_CLASSIC_H_
#define ORTHOCOMM_CLASSIC_BASE_INTERNAL_INSIDE_CLASSIC_H_

#ifndef ORTHOCOMM_INSIDE_CLASSIC
#error "this is an internal header of classic; include classic's public headers"
#endif

#endif  // ORTHOCOMM_CLASSIC_BASE_INTERNAL_INSIDE_CLASSIC_H_
