#!/usr/bin/env bash
# Installs the Debian 12 packages orthocomm builds with, if any are missing.
# Needs root (or sudo); does nothing when everything is already there.
#
#   tools/install_deps.sh           the build and test packages
#   tools/install_deps.sh --plots   also gnuplot (gnuplot-nox), for the
#                                   plots of tools/run.sh
set -euo pipefail

packages=(
  bazel-bootstrap bazel-rules-java        # Bazel 4.2.3, offline
  g++ openmpi-bin libopenmpi-dev          # compiler and transport
  libgtest-dev libgmock-dev libbenchmark-dev libeigen3-dev
)
for arg in "$@"; do
  case "$arg" in
    --plots) packages+=(gnuplot-nox) ;;   # tools/report.sh's PNG plots
    *) echo "usage: tools/install_deps.sh [--plots]" >&2; exit 2 ;;
  esac
done

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
    grep -q "install ok installed" || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=""
[[ "$(id -u)" == "0" ]] || sudo="sudo"
echo "install_deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
