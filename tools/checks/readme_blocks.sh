#!/usr/bin/env bash
# Every fenced code block of README.md is checked: a block right after a
# line `<!-- file: PATH -->` must be PATH's content exactly (the examples'
# sources, Makefiles, CMakeLists and Bazel files, which install_examples.sh
# and bazel_workspace.sh build and run, and the output a run must print);
# a sh block without one must be valid bash (bash -n). Any other block
# fails: nothing in the README goes unchecked.
set -uo pipefail
cd "$(dirname "$0")/../.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Split the README into blocks: block N's text in $work/N, and a line
# "N LANGUAGE FILE" (FILE "-" when no marker precedes it) in $work/index.
awk -v dir="$work" '
  /^```/ && !inside {
    inside = 1; ++n; language = substr($0, 4); if (language == "") language = "-"
    printf "" > (dir "/" n)
    print n, language, (marker == "" ? "-" : marker) > (dir "/index")
    marker = ""; next
  }
  /^```$/ && inside { inside = 0; close(dir "/" n); next }
  inside { print > (dir "/" n); next }
  {
    marker = ""
    if (match($0, /^<!-- file: [^ ]+ -->$/)) marker = substr($0, 12, RLENGTH - 15)
  }
' README.md

failures=0
checked=0
while read -r n language file; do
  checked=$((checked + 1))
  if [[ "$file" != "-" ]]; then
    if [[ ! -f "$file" ]]; then
      echo "readme_blocks: block $n names $file, which does not exist"
      failures=$((failures + 1))
    elif ! diff -u "$file" "$work/$n" > "$work/diff"; then
      echo "readme_blocks: block $n ($language) differs from $file:"
      cat "$work/diff"
      failures=$((failures + 1))
    fi
  elif [[ "$language" == sh ]]; then
    if ! bash -n "$work/$n" 2> "$work/err"; then
      echo "readme_blocks: block $n (sh) is not valid bash: $(cat "$work/err")"
      failures=$((failures + 1))
    fi
  else
    echo "readme_blocks: block $n ($language) is checked by nothing;" \
      "precede it with <!-- file: PATH --> of a file a check builds"
    failures=$((failures + 1))
  fi
done < <(cat "$work/index" 2>/dev/null)

echo "readme_blocks: $checked blocks, $failures failed"
[[ $checked -gt 0 && $failures -eq 0 ]]
