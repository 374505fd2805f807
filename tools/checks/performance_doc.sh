#!/usr/bin/env bash
# docs/performance.md is what tools/performance_doc.sh generates from the
# results under docs/results/ (nobody edited the tables by hand).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/performance_doc.sh --check
echo "performance_doc: docs/performance.md is up to date"
