#!/usr/bin/env bash
# Installs orthocomm into a temporary prefix and uses it as a user would:
# every installed header compiles without the build's private defines, no
# internal header is installed, and each program in examples/ builds with
# its Makefile (pkg-config) and its CMakeLists.txt (find_package), runs
# correctly at 1 and 4 processes, and also links against liborthocomm.a.
# Run by tools/test.sh after `bazel test`; exits non-zero on a failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
source tests/harness/mpirun_flags.sh

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

fail() { echo "install_examples: $*" >&2; exit 1; }

# The tests' build (bazel test has built the library unoptimised): what is
# checked here is the installation and the programs built against it, not
# the library's speed, and an optimised build would take minutes more.
bash tools/install.sh --prefix "$prefix" --compilation_mode=fastbuild "$@"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

# Only public headers, and each compiles on its own terms.
if find "$prefix/include" -path '*/internal/*' | grep -q .; then
  fail "internal headers were installed"
fi
(cd "$prefix/include" && find . -name '*.h' | sed 's|^\./||' | sort) |
  sed 's|.*|#include "&"|' > "$work/all_headers.cc"
# shellcheck disable=SC2046
mpicxx $(pkg-config --cflags orthocomm) -Wall -Wextra -Werror -fsyntax-only \
  "$work/all_headers.cc" || fail "the installed headers do not compile"

# The output a correct run prints: life's expected/npN.txt, heat's
# "result=correct".
check_output() {
  local example="$1" np="$2" output="$3"
  if [[ -f "examples/$example/expected/np$np.txt" ]]; then
    diff -u "examples/$example/expected/np$np.txt" "$output" ||
      fail "$example at $np processes printed something else"
  else
    grep -q 'result=correct' "$output" ||
      fail "$example at $np processes: $(cat "$output")"
  fi
}

run_example() {
  local example="$1" binary="$2" np="$3"
  local job="$work/job"
  mkdir -p "$job"
  mpirun_flags "$np" "$job" 120
  mpirun "${MPIRUN_FLAGS[@]}" "$binary" > "$work/output.txt" ||
    fail "$binary at $np processes exited with $?"
  check_output "$example" "$np" "$work/output.txt"
  echo "install_examples: $binary at $np processes: correct"
}

for dir in examples/*/; do
  example="$(basename "$dir")"
  [[ -f "$dir/Makefile" && -f "$dir/CMakeLists.txt" ]] || continue
  copy="$work/$example"
  cp -r "$dir" "$copy"
  make -C "$copy" -s || fail "make of $example failed"
  cmake -S "$copy" -B "$copy/build" -DCMAKE_PREFIX_PATH="$prefix" \
    > "$work/cmake.log" || { cat "$work/cmake.log"; fail "cmake of $example failed"; }
  cmake --build "$copy/build" > "$work/cmake.log" ||
    { cat "$work/cmake.log"; fail "cmake --build of $example failed"; }
  # shellcheck disable=SC2046
  mpicxx -std=c++20 -O2 -DOMPI_SKIP_MPICXX -I"$prefix/include" \
    -o "$copy/${example}_static" "$copy/$example.cc" \
    "$prefix/lib/liborthocomm.a" $(pkg-config --static --libs-only-l orthocomm |
      sed 's/-lorthocomm//') || fail "static link of $example failed"
  for np in 1 4; do
    run_example "$example" "$copy/$example" "$np"
    run_example "$example" "$copy/build/$example" "$np"
  done
  run_example "$example" "$copy/${example}_static" 4
done
cd "$root"
echo "install_examples: passed"
