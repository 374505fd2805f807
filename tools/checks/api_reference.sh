#!/usr/bin/env bash
# The API reference (tools/api_reference.sh): Doxygen builds it from the
# public headers without a single warning, no namespace internal has a page
# in it, and it shows the collectives' signatures: ortho's function objects
# and their class templates' call operators, classic's collectives (the
# typed non-blocking forms included, which come from a .inc) and ortho's
# graph constructor. Without doxygen it runs tools/install_deps.sh --docs first;
# where that cannot install it, it exits 77 (skipped). Run by tools/test.sh
# after `bazel test`; exits non-zero on a failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "api_reference: $*" >&2; exit 1; }

if ! command -v doxygen >/dev/null; then
  bash tools/install_deps.sh --docs >&2 || true
  if ! command -v doxygen >/dev/null; then
    echo "api_reference: no doxygen, and it cannot be installed here" >&2
    exit 77
  fi
fi

index=$(bash tools/api_reference.sh) || fail "tools/api_reference.sh failed"
html="$(dirname "$index")"
[[ -f "$index" ]] || fail "no $index"

if compgen -G "$html/namespace*_1_1internal*.html" >/dev/null; then
  fail "pages of a namespace internal:" \
    "$(cd "$html" && ls namespace*_1_1internal*.html)"
fi

# The heads of the members' documentation (return type and qualified name),
# markup removed: one line per documented declaration.
heads() {
  grep -h 'class="memname"' "$@" |
    sed -e 's/<[^>]*>//g' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g' \
      -e 's/&#160;/ /g'
}
all_heads=$(heads "$html"/*.html)
for name in 'ortho::allgather' 'ortho::iallgather' 'ortho::alltoallw_init' \
    'ortho::allreduce' 'ortho::forms::Allgather< M >::operator()' \
    'ortho::forms::Allreduce< M >::operator()' 'classic::allreduce' \
    'classic::ibcast' 'classic::allreduce_init' \
    'ortho::dist_graph_create_adjacent' 'ortho::comm_base'; do
  grep -qwF -- "$name" <<< "$all_heads" || fail "the reference has no $name"
done
# classic::ibcast twice: the raw form and the typed one of the .inc.
ibcasts=$(heads "$html/namespaceclassic.html" | grep -cwF 'classic::ibcast')
[[ $ibcasts -ge 2 ]] ||
  fail "classic::ibcast has $ibcasts form(s), expected the raw and the typed"

echo "api_reference: no warnings; the collectives' signatures are in $index"
