"""ortho_library: a cc_library of ortho's own, allowed its internal headers.

Internal headers of ortho (ortho/internal/ and ortho/algorithms/) include
ortho/internal/inside_ortho.h, which fails to compile unless
ORTHOCOMM_INSIDE_ORTHO is defined. Only this macro defines it, and only for
the target's own sources (local_defines do not reach dependents); white-box
tests opt in with local_defines = INSIDE_ORTHO.
"""

load("@rules_cc//cc:defs.bzl", "cc_library")

INSIDE_ORTHO = ["ORTHOCOMM_INSIDE_ORTHO"]

def ortho_library(name, local_defines = [], **kwargs):
    cc_library(
        name = name,
        local_defines = local_defines + INSIDE_ORTHO,
        **kwargs
    )
