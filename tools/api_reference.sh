#!/usr/bin/env bash
# Builds orthocomm's API reference with Doxygen (docs/Doxyfile) from the
# public headers (classic/, naming/, stencils/, ortho/ without internal/),
# their comments read through tools/doxygen_filter.py, into _build/api/html,
# and prints the path of its index.html. When Doxygen warns, it prints the
# warnings and exits 1 (they are also in _build/api/warnings.log).
#
#   tools/api_reference.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v doxygen >/dev/null; then
  echo "api_reference: no doxygen (bash tools/install_deps.sh --docs installs it)" >&2
  exit 1
fi

# The version of classic/base/version.h, shown on every page.
version_part() {
  sed -n "s/^#define ORTHOCOMM_VERSION_$1 \([0-9][0-9]*\)$/\1/p" \
    classic/base/version.h
}
version="$(version_part MAJOR).$(version_part MINOR).$(version_part PATCH)"
if [[ ! "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "api_reference: no version in classic/base/version.h" >&2
  exit 1
fi

rm -rf _build/api
mkdir -p _build/api
log=_build/api/warnings.log
# The interpreter itself, not a shim in front of it: Doxygen runs the
# filter once or more for every header.
python="$(python3 -c 'import sys; print(sys.executable)')" || {
  echo "api_reference: no python3 for tools/doxygen_filter.py" >&2
  exit 1
}
# QUIET (docs/Doxyfile): Doxygen writes nothing but its warnings and errors,
# to stderr.
status=0
ORTHOCOMM_PYTHON="$python" ORTHOCOMM_VERSION="$version" \
  doxygen docs/Doxyfile >/dev/null 2>"$log" ||
  status=$?
if [[ $status -ne 0 || -s "$log" ]]; then
  echo "api_reference: doxygen (exit $status) reported" \
    "$(grep -c . "$log") line(s) of warnings:" >&2
  sed "s|^$PWD/||" "$log" >&2
  exit 1
fi
echo "$PWD/_build/api/html/index.html"
