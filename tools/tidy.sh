#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy) over orthocomm's library sources, or over the
# files given. Needs clang-tidy and Open MPI's headers (found as the build
# finds them, through mpicxx --showme).
# Usage: bash tools/tidy.sh [FILE.cc ...]
set -euo pipefail
cd "$(dirname "$0")/.."
mpicxx="${ORTHOCOMM_MPICXX:-mpicxx}"
includes=()
for dir in $("${mpicxx}" --showme:incdirs); do includes+=(-isystem "${dir}"); done
# Eigen, for the experiments that use it.
if command -v pkg-config >/dev/null && pkg-config --exists eigen3; then
  for flag in $(pkg-config --cflags-only-I eigen3); do
    includes+=(-isystem "${flag#-I}")
  done
fi
# Scotch and the header saying whether it was found, as the build's
# repository holds them (after a build; otherwise the system's).
scotch="$(bazel info output_base 2>/dev/null)/external/scotch"
if [[ -f "${scotch}/have_scotch.h" ]]; then
  includes+=(-isystem "${scotch}")
fi
files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
  mapfile -t files < <(find classic naming stencils ortho -name "*.cc" | sort)
fi
status=0
for file in "${files[@]}"; do
  defines=(-DOMPI_SKIP_MPICXX)
  # classic's own files may include its internal headers (classic/defs.bzl).
  [[ "${file}" == classic/* ]] && defines+=(-DORTHOCOMM_INSIDE_CLASSIC)
  # ortho's likewise (ortho/defs.bzl).
  [[ "${file}" == ortho/* ]] && defines+=(-DORTHOCOMM_INSIDE_ORTHO)
  # White-box tests and benchmarks elsewhere set the define in their BUILD
  # target (local_defines) where they include internal headers.
  grep -q '^#include "classic/.*internal/' "${file}" &&
    defines+=(-DORTHOCOMM_INSIDE_CLASSIC)
  # The simulator's headers hold ortho's internal route graphs.
  grep -q '^#include "\(ortho/\(algorithms\|internal\)\|experiments/simulate\)/' \
    "${file}" &&
    defines+=(-DORTHOCOMM_INSIDE_ORTHO)
  clang-tidy --quiet "${file}" -- -std=c++20 -I. "${includes[@]}" \
    "${defines[@]}" || status=1
done
exit "${status}"
