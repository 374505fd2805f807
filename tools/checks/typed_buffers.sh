#!/usr/bin/env bash
# Typed buffers a user gets wrong get one short error: a non-contiguous
# range (std::list) and a temporary container each fail to compile with
# orthocomm's own message in at most 40 lines of diagnostics, in classic and
# in ortho. (That vectors, arrays, C arrays and spans compile and work is
# tested by the buffer_ranges_test targets.) Run by tools/test.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."

mpicxx="${ORTHOCOMM_MPICXX:-mpicxx}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "typed_buffers: $*" >&2; exit 1; }

# expect_error NAME MESSAGE BODY: BODY (inside a function of a Comm `comm`)
# must fail to compile with MESSAGE, briefly.
expect_error() {
  local name="$1" message="$2" body="$3"
  cat >"$work/$name.cc" <<CC
#include <list>
#include <vector>
#include "classic/collectives/collectives.h"
#include "ortho/collectives.h"
void call(const classic::Comm& comm) {
  $body
}
CC
  if "$mpicxx" -std=c++20 -I. -fsyntax-only "$work/$name.cc" \
      >"$work/$name.log" 2>&1; then
    fail "$name compiled: $body"
  fi
  grep -q "$message" "$work/$name.log" ||
    { cat "$work/$name.log" >&2; fail "$name: no '$message'"; }
  local lines errors
  lines=$(wc -l <"$work/$name.log")
  errors=$(grep -c "error:" "$work/$name.log")
  [[ $errors -eq 1 ]] ||
    { cat "$work/$name.log" >&2; fail "$name: $errors errors, not one"; }
  [[ $lines -le 40 ]] ||
    { cat "$work/$name.log" >&2; fail "$name: $lines lines of diagnostics"; }
  echo "typed_buffers: $name: one error, $lines lines"
}

expect_error ortho_list "a typed buffer must be contiguous" \
  'std::list<int> send{1}; std::vector<int> recv(1);
   ortho::allgather(comm, send, recv);'
expect_error classic_list "a typed buffer must be contiguous" \
  'std::list<int> send{1}; std::vector<int> recv(1);
   classic::allreduce(comm, send, recv, MPI_SUM);'
expect_error ortho_temporary "a typed buffer must outlive the call" \
  'std::vector<int> recv(1);
   (void)ortho::iallreduce(comm, std::vector<int>{1}, recv, MPI_SUM);'
expect_error classic_temporary "a typed buffer must outlive the call" \
  'std::vector<int> send{1};
   classic::allgather(comm, send, std::vector<int>(4));'
