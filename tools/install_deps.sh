#!/usr/bin/env bash
# Makes sure the tools orthocomm builds with are there. It looks for each
# one itself (not for packages), so any machine that has them passes:
#
#   Bazel >= 4            bazel on PATH, with Java rules at
#                         /usr/share/bazel/rules/java (Debian: bazel-rules-java)
#   a C++20 compiler      g++ (>= 10) or what CC names
#   an MPI                mpicxx and mpirun on PATH, or ORTHOCOMM_MPICXX
#   Eigen >= 3.3          pkg-config eigen3, or ORTHOCOMM_EIGEN_INCLUDE
#   GoogleTest, GoogleMock, Google Benchmark
#                         pkg-config gtest/benchmark, or /usr/include
#   METIS 5               metis.h (pkg-config metis's include dir, or
#                         /usr/include, or ORTHOCOMM_METIS_INCLUDE) and
#                         libmetis in the compiler's library path (the SpMV
#                         experiment's partitioning)
#   Scotch 7              scotch.h (/usr/include/scotch, or
#                         ORTHOCOMM_SCOTCH_INCLUDE) and libscotch: the
#                         mapping of general graphs (Reorder::yes). The
#                         build works without it (ortho/mapping.h)
#   pkg-config, make, cmake   (the installation check of tools/test.sh)
#   doxygen (--docs)      the API reference (tools/api_reference.sh, a check
#                         of tools/test.sh, which asks for it)
#   gnuplot (optional)    plots of tools/run.sh (--plots)
#
# Whatever is missing is installed only where that can be done: Debian or
# Ubuntu (apt-get, dpkg-query) as root or with working sudo. Elsewhere it
# prints what is missing and exits 1; with everything present it exits 0
# without asking for root.
#
#   tools/install_deps.sh           the build and test tools
#   tools/install_deps.sh --plots   also gnuplot
#   tools/install_deps.sh --docs    also doxygen
set -uo pipefail

plots=false
docs=false
for arg in "$@"; do
  case "$arg" in
    --plots) plots=true ;;
    --docs) docs=true ;;
    *) echo "usage: tools/install_deps.sh [--plots] [--docs]" >&2; exit 2 ;;
  esac
done

mpicxx="${ORTHOCOMM_MPICXX:-mpicxx}"

has_bazel() {
  command -v bazel >/dev/null || return 1
  local version major
  version=$(bazel --version 2>/dev/null)
  # Debian's bootstrapped Bazel 4.2.3 says "bazel no_version".
  [[ "$version" == "bazel no_version" ]] && return 0
  major=$(sed -nE 's/^bazel ([0-9]+).*/\1/p' <<< "$version")
  [[ -n "$major" && "$major" -ge 4 ]]
}
has_rules_java() { [[ -f /usr/share/bazel/rules/java/WORKSPACE ]]; }
has_compiler() { command -v "${CC:-g++}" >/dev/null || command -v g++ >/dev/null; }
has_mpi() {
  command -v "$mpicxx" >/dev/null &&
    [[ -x "$(dirname "$(command -v "$mpicxx")")/mpirun" ]]
}
has_eigen() {
  if [[ -n "${ORTHOCOMM_EIGEN_INCLUDE:-}" ]]; then
    [[ -f "$ORTHOCOMM_EIGEN_INCLUDE/Eigen/Core" ]]
  else
    command -v pkg-config >/dev/null && pkg-config --exists 'eigen3 >= 3.3'
  fi
}
has_header() {  # a header under pkg-config's include dir of $1, or /usr/include
  local dir=/usr/include
  if command -v pkg-config >/dev/null && pkg-config --exists "$1"; then
    dir=$(pkg-config --variable=includedir "$1")
  fi
  [[ -f "$dir/$2" ]]
}
has_gtest() { has_header gtest gtest/gtest.h && has_header gmock gmock/gmock.h; }
has_benchmark() { has_header benchmark benchmark/benchmark.h; }
has_metis() {
  if [[ -n "${ORTHOCOMM_METIS_INCLUDE:-}" ]]; then
    [[ -f "$ORTHOCOMM_METIS_INCLUDE/metis.h" ]]
  else
    has_header metis metis.h
  fi
}
has_scotch() {
  [[ -f "${ORTHOCOMM_SCOTCH_INCLUDE:-/usr/include/scotch}/scotch.h" ]]
}
has_command() { command -v "$1" >/dev/null; }

# need: probe, what a person needs, Debian packages.
missing_what=()
missing_packages=()
need() {
  local probe="$1" what="$2"; shift 2
  if ! $probe; then
    missing_what+=("$what")
    missing_packages+=("$@")
  fi
}
need has_bazel "Bazel >= 4 (bazel on PATH)" bazel-bootstrap
need has_rules_java "Bazel's Java rules at /usr/share/bazel/rules/java" \
  bazel-rules-java
need has_compiler "a C++20 compiler (g++ >= 10)" g++
need has_mpi "an MPI with mpicxx and mpirun (Open MPI; or set ORTHOCOMM_MPICXX)" \
  openmpi-bin libopenmpi-dev
need "has_command pkg-config" "pkg-config" pkg-config
need has_eigen "Eigen >= 3.3 (pkg-config eigen3, or set ORTHOCOMM_EIGEN_INCLUDE)" \
  libeigen3-dev
need has_gtest "GoogleTest and GoogleMock (headers and static libraries)" \
  libgtest-dev libgmock-dev
need has_benchmark "Google Benchmark" libbenchmark-dev
need has_metis "METIS 5 (metis.h; or set ORTHOCOMM_METIS_INCLUDE)" libmetis-dev
need has_scotch "Scotch 7 (scotch.h; or set ORTHOCOMM_SCOTCH_INCLUDE)" \
  libscotch-dev
need "has_command make" "make" make
need "has_command cmake" "CMake >= 3.16" cmake
if $docs; then
  need "has_command doxygen" "Doxygen (the API reference)" doxygen
fi
if $plots; then
  need "has_command gnuplot" "gnuplot (optional: plots)" gnuplot-nox
fi

[[ ${#missing_what[@]} -eq 0 ]] && exit 0

# Install only where it can be done: Debian's tools, and root or sudo that
# works without a password prompt.
sudo=()
can_install=false
if command -v apt-get >/dev/null && command -v dpkg-query >/dev/null; then
  if [[ "$(id -u)" == "0" ]]; then
    can_install=true
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    can_install=true
    sudo=(sudo -n)
  fi
fi

if $can_install; then
  echo "install_deps: installing ${missing_packages[*]}"
  if "${sudo[@]}" apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
        "${missing_packages[@]}"; then
    exit 0
  fi
  echo "install_deps: apt-get could not install ${missing_packages[*]}" >&2
fi

{
  echo "install_deps: orthocomm needs these, which were not found:"
  for what in "${missing_what[@]}"; do echo "  - $what"; done
  echo "install them (Debian packages: ${missing_packages[*]}), or put them"
  echo "on PATH / load their modules, and run again."
} >&2
exit 1
