#!/usr/bin/env bash
# Runs the 10,000-communicator construction loop (and the rest of comm_test)
# under AddressSanitizer with LeakSanitizer on, at 2 and 4 processes, and
# fails on any leak not made inside the transport (tools/lsan_transport.supp).
# Usage: bash tools/leak_check.sh [extra bazel test targets...]
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(//tests/classic/comm:comm_test_np2 //tests/classic/comm:comm_test_np4)
fi
# A separate output base keeps the sanitizer build from evicting the normal
# one (LEAK_CHECK_OUTPUT_BASE to choose another, e.g. for a second checkout).
# Open MPI unloads its components at finalize, which leaves their leaks
# without a module name to suppress them by; keep them loaded.
exec bazel --output_base="${LEAK_CHECK_OUTPUT_BASE:-${HOME}/.cache/bazel_asan}" test --config=asan \
  --test_env=OMPI_MCA_mca_base_component_disable_dlclose=1 \
  --test_env=ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0:malloc_context_size=40 \
  --test_env=LSAN_OPTIONS="suppressions=${root}/tools/lsan_transport.supp:print_suppressions=0" \
  --test_output=errors "${targets[@]}"
