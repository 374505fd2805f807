"""classic_library: a cc_library of classic's own, allowed its internal headers.

Internal headers of classic (the internal/ folders) include
classic/base/internal/inside_classic.h, which fails to compile unless
ORTHOCOMM_INSIDE_CLASSIC is defined. Only this macro defines it, and only for
the target's own sources (local_defines do not reach dependents), so a target
outside classic that includes an internal header does not build: Bazel itself
lets any dependent include any header of a transitive dependency.
"""

load("@rules_cc//cc:defs.bzl", "cc_library")

INSIDE_CLASSIC = ["ORTHOCOMM_INSIDE_CLASSIC"]

def classic_library(name, local_defines = [], **kwargs):
    cc_library(
        name = name,
        local_defines = local_defines + INSIDE_CLASSIC,
        **kwargs
    )
