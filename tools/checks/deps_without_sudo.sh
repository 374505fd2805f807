#!/usr/bin/env bash
# tools/install_deps.sh on a machine that is not Debian and has no sudo,
# simulated: PATH holds the machine's commands except dpkg*, apt* and sudo,
# plus a sudo that always refuses. With the tools present it must exit 0
# without trying to install; without bazel, mpicxx or Eigen it must exit 1
# and name what is missing.
set -uo pipefail
cd "$(dirname "$0")/../.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "deps_without_sudo: $*" >&2; failures=$((failures + 1)); }

# A bin folder with every command of PATH but those left out, the first of
# each name as PATH finds it; linked in one call (a process per command
# takes seconds over a few thousand).
make_bin() {  # make_bin DIR LEFT_OUT_PATTERN
  local bin="$1" left_out="$2" dir file name
  local -A seen=()
  local targets=()
  mkdir -p "$bin"
  IFS=: read -ra dirs <<< "$PATH"
  for dir in "${dirs[@]}"; do
    for file in "$dir"/*; do
      name="${file##*/}"
      [[ -x "$file" && -z "${seen[$name]:-}" ]] || continue
      seen[$name]=1
      [[ "$name" =~ ^(dpkg.*|apt.*|sudo)$ ]] && continue
      [[ -n "$left_out" && "$name" =~ ^($left_out)$ ]] && continue
      targets+=("$file")
    done
  done
  ln -s -t "$bin" "${targets[@]}"
  printf '#!/bin/sh\necho "sudo: not permitted" >&2\nexit 1\n' > "$bin/sudo"
  chmod +x "$bin/sudo"
}

# run_case NAME LEFT_OUT EXPECTED_STATUS EXPECTED_TEXT [VAR=VALUE...]
run_case() {
  local name="$1" left_out="$2" expected="$3" text="$4"; shift 4
  local bin="$work/$name/bin"
  make_bin "$bin" "$left_out"
  env PATH="$bin" "$@" bash tools/install_deps.sh > "$work/$name/out" 2>&1
  local status=$?
  if [[ $status -ne $expected ]]; then
    fail "$name: exit $status, expected $expected: $(cat "$work/$name/out")"
  elif [[ -n "$text" ]] && ! grep -q "$text" "$work/$name/out"; then
    fail "$name: the message does not name '$text': $(cat "$work/$name/out")"
  elif grep -q 'installing' "$work/$name/out"; then
    fail "$name: tried to install: $(cat "$work/$name/out")"
  else
    echo "deps_without_sudo: $name: exit $status as expected"
  fi
}

run_case tools_present "" 0 ""
run_case without_bazel "bazel.*" 1 "Bazel >= 4"
run_case without_mpi "mpicxx.*|mpiCC.*|mpic\+\+.*" 1 "mpicxx"
run_case without_eigen "" 1 "Eigen >= 3.3" \
  ORTHOCOMM_EIGEN_INCLUDE="$work/no-eigen"

[[ $failures -eq 0 ]] && echo "deps_without_sudo: passed"
[[ $failures -eq 0 ]]
