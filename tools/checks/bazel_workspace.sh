#!/usr/bin/env bash
# A Bazel workspace outside this one that uses orthocomm as the README says:
# examples/bazel/{WORKSPACE,BUILD,bazelrc}.example with /path/to/orthocomm
# replaced by this checkout, building examples/life/life.cc against
# @orthocomm//:orthocomm and running it at 4 processes. Its own output base
# is removed afterwards. Run by tools/test.sh after `bazel test`.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
source tests/harness/mpirun_flags.sh

work="$(mktemp -d)"
scratch="$work/my_project"
bazel=(bazel --output_base="$work/output_base")
cleanup() {
  (cd "$scratch" 2>/dev/null && "${bazel[@]}" shutdown >/dev/null 2>&1) || true
  chmod -R u+w "$work" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$scratch"
for file in WORKSPACE BUILD bazelrc; do
  target="$file"
  [[ "$file" == bazelrc ]] && target=.bazelrc
  sed "s|/path/to/orthocomm|$root|g" "examples/bazel/$file.example" \
    > "$scratch/$target"
done
cp examples/life/life.cc "$scratch/"
# Debian's /etc/bazel/bazelrc turns sandbox debugging on, which floods the
# log; compiling outside the sandbox takes half the time (see .bazelrc).
cat >> "$scratch/.bazelrc" <<'RC'
build --nosandbox_debug
build --strategy=CppCompile=local --strategy=CppArchive=local
build --strategy=CppLink=local
RC

(cd "$scratch" && "${bazel[@]}" build //:life)
mkdir -p "$work/job"
mpirun_flags 4 "$work/job" 120
(cd "$scratch" && mpirun "${MPIRUN_FLAGS[@]}" bazel-bin/life) > "$work/out.txt"
diff -u examples/life/expected/np4.txt "$work/out.txt"
echo "bazel_workspace: passed"
