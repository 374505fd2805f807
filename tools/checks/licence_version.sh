#!/usr/bin/env bash
# The licence and the version as a user meets them: LICENSE is BSD-3-Clause
# and the README says so; an installation's version header, pkg-config file,
# CMake package and shared library's soname all carry the one version of
# classic/base/version.h; find_package accepts that version and refuses a
# newer one. Run by tools/test.sh after `bazel test`; exits non-zero on a
# failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "licence_version: $*" >&2; exit 1; }

grep -q "BSD 3-Clause License" LICENSE || fail "LICENSE is not BSD-3-Clause"
grep -q "BSD-3-Clause" README.md || fail "the README does not name the licence"
grep -q "^## $(sed -n 's/^#define ORTHOCOMM_VERSION_MAJOR //p' classic/base/version.h)\." \
  CHANGELOG.md || fail "CHANGELOG.md has no entry for this major version"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
# The tests' build (fastbuild), as install_examples installs it: what is
# checked here is names and versions, not speed, and -c opt would compile
# the library once more.
bash tools/install.sh --prefix "$prefix" --compilation_mode=fastbuild \
  >/dev/null

# The version as a program compiled against the installation sees it.
cat >"$work/version.cc" <<'CC'
#include <cstdio>
#include "classic/base/version.h"
int main() {
  std::printf("%d.%d.%d\n", ORTHOCOMM_VERSION_MAJOR, ORTHOCOMM_VERSION_MINOR,
              ORTHOCOMM_VERSION_PATCH);
}
CC
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2046
g++ -std=c++20 $(pkg-config --cflags-only-I orthocomm) "$work/version.cc" \
  -o "$work/version" || fail "classic/base/version.h is not installed"
header=$("$work/version")
pc=$(pkg-config --modversion orthocomm)
[[ "$header" == "$pc" ]] || fail "version.h says $header, orthocomm.pc $pc"

# The soname: liborthocomm.so.0.MINOR while MAJOR is 0.
major=${header%%.*}
rest=${header#*.}
minor=${rest%%.*}
expected="liborthocomm.so.$major"
[[ "$major" == 0 ]] && expected="liborthocomm.so.$major.$minor"
soname=$(readelf -d "$prefix/lib/liborthocomm.so" |
  sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[[ "$soname" == "$expected" ]] || fail "soname '$soname', expected '$expected'"
[[ -e "$prefix/lib/$soname" ]] || fail "no $soname in $prefix/lib"

# CMake: this version is found, a newer minor is not.
cmake_probe() {
  mkdir -p "$work/cmake-$1"
  cat >"$work/cmake-$1/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(probe CXX)
find_package(orthocomm $1 REQUIRED)
message(STATUS "orthocomm_VERSION=\${orthocomm_VERSION}")
CMAKE
  cmake -S "$work/cmake-$1" -B "$work/cmake-$1/build" \
    -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake-$1.log" 2>&1
}
cmake_probe "$major.$minor" || fail "find_package(orthocomm $major.$minor) failed"
grep -q "orthocomm_VERSION=$header" "$work/cmake-$major.$minor.log" ||
  fail "the CMake package does not say version $header"
if cmake_probe "$major.$((minor + 1))"; then
  fail "find_package(orthocomm $major.$((minor + 1))) accepted $header"
fi
echo "licence_version: BSD-3-Clause, version $header everywhere, soname $soname"
