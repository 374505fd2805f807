#!/usr/bin/env bash
# Installs orthocomm for programs built outside this workspace:
#
#   tools/install.sh --prefix DIR [BAZEL_FLAGS...]
#
# builds the library with Bazel (-c opt) and writes
#   DIR/include/{classic,naming,stencils,ortho}/...   the public headers
#   DIR/lib/liborthocomm.so, DIR/lib/liborthocomm.a   the library
#   DIR/lib/pkgconfig/orthocomm.pc                    for pkg-config
#   DIR/lib/cmake/orthocomm/orthocommConfig*.cmake    for find_package
# Internal headers (classic's internal/ folders, private targets) are not
# installed. MPI is what `mpicxx` (or ORTHOCOMM_MPICXX) names, the same one
# the build used. Extra arguments go to `bazel build`.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: tools/install.sh --prefix DIR [BAZEL_FLAGS...]" >&2
  exit 2
}

prefix=""
bazel_flags=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --prefix) [[ $# -ge 2 ]] || usage; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    -h|--help) usage ;;
    *) bazel_flags+=("$1"); shift ;;
  esac
done
[[ -n "$prefix" ]] || usage
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"

mpicxx="${ORTHOCOMM_MPICXX:-mpicxx}"
if ! command -v "$mpicxx" >/dev/null; then
  echo "install: no MPI compiler wrapper '$mpicxx' (set ORTHOCOMM_MPICXX)" >&2
  exit 1
fi

echo "install: building orthocomm (bazel build -c opt)"
bazel build -c opt "${bazel_flags[@]}" //:liborthocomm_closure.so
execroot="$(bazel info -c opt "${bazel_flags[@]}" execution_root 2>/dev/null)"
bin="$(bazel info -c opt "${bazel_flags[@]}" bazel-bin 2>/dev/null)"

# Public headers: the hdrs and textual_hdrs of the public libraries under
# //:orthocomm. visible() keeps the targets a package outside the layers may
# use, which leaves out classic's internal targets and stencils' private
# ones.
headers=$(bazel query --output=label \
  'let libs = visible(//:liborthocomm_closure.so, kind("cc_library", deps(//:orthocomm))) in labels(hdrs, $libs) + labels(textual_hdrs, $libs)' \
  2>/dev/null | grep -E '^//(classic|naming|stencils|ortho)[/:]' |
  sed -e 's|^//||' -e 's|:|/|' | grep -v '/internal/' | sort -u)
[[ -n "$headers" ]] || { echo "install: no public headers found" >&2; exit 1; }

rm -rf "$prefix/include/classic" "$prefix/include/naming" \
  "$prefix/include/stencils" "$prefix/include/ortho"
for header in $headers; do
  install -D -m 644 "$header" "$prefix/include/$header"
done

# liborthocomm.a: every object of the closure's archives (extracted one
# archive at a time: two packages may have objects of the same name).
# liborthocomm.so: all of them, linked with the compiler mpicxx wraps.
mkdir -p "$prefix/lib/pkgconfig" "$prefix/lib/cmake/orthocomm"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
archive="$prefix/lib/liborthocomm.a"
rm -f "$archive"
count=0
while IFS= read -r line; do
  [[ "$line" == *.a ]] || continue
  count=$((count + 1))
  mkdir "$work/$count"
  # One archive's members are extracted by name: two of the same name (two
  # sources of one package with the same file name in different folders)
  # would leave one object out.
  duplicates=$(ar t "$execroot/$line" | sort | uniq -d)
  if [[ -n "$duplicates" ]]; then
    echo "install: $line holds two objects named $duplicates;" \
      "rename one of their sources" >&2
    exit 1
  fi
  (cd "$work/$count" && ar x "$execroot/$line")
  ar qc "$archive" "$work/$count"/*.o
done < "$bin/liborthocomm_closure.so-2.params"
[[ $count -gt 0 ]] || { echo "install: no archives to pack" >&2; exit 1; }
ranlib "$archive"

# What the archive calls beyond MPI: Scotch, where the build found it
# (ortho's mapping of general graphs; optional).
extra_libs=()
undefined="$(nm -u "$archive" 2>/dev/null)"  # whole: grep -q would cut nm off
if grep -q ' SCOTCH_' <<<"$undefined"; then
  extra_libs=(-lscotch -lscotcherr)
fi

mpi_link=()
for dir in $("$mpicxx" --showme:libdirs); do
  mpi_link+=("-L$dir" "-Wl,-rpath,$dir")
done
# The soname carries MAJOR.MINOR while MAJOR is 0 (a minor release may
# change the ABI), MAJOR alone from 1 on: liborthocomm.so.X.Y.Z is the file,
# the soname and liborthocomm.so link to it.
version_part() {
  sed -n "s/^#define ORTHOCOMM_VERSION_$1 \([0-9]*\)\$/\1/p" \
    classic/base/version.h
}
major=$(version_part MAJOR)
minor=$(version_part MINOR)
patch=$(version_part PATCH)
soname="liborthocomm.so.$major"
[[ "$major" == 0 ]] && soname="liborthocomm.so.$major.$minor"
real="liborthocomm.so.$major.$minor.$patch"
rm -f "$prefix"/lib/liborthocomm.so*
"$("$mpicxx" --showme:command)" -shared -o "$prefix/lib/$real" \
  -Wl,-soname,"$soname" -Wl,--whole-archive "$archive" \
  -Wl,--no-whole-archive "${mpi_link[@]}" -lmpi "${extra_libs[@]}"
chmod 755 "$prefix/lib/$real"
[[ "$soname" == "$real" ]] || ln -s "$real" "$prefix/lib/$soname"
ln -s "$real" "$prefix/lib/liborthocomm.so"

bash tools/install_config.sh "$prefix" "$mpicxx" "${extra_libs[*]}"
echo "install: $(echo "$headers" | wc -l) headers and liborthocomm.{so,a} in $prefix"
