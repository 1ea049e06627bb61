#!/usr/bin/env bash
# Builds the training texts from Debian's bible-kjv package (the King James
# Version, public domain): every verse in order, one per line, with the
# "Ge1:1 " style references stripped.
#   scripts/make_corpus.sh [OUT]              the whole Bible (default build/corpus/kjv.txt): what npm run train uses
#   scripts/make_corpus.sh --excerpt [OUT]    Genesis and Exodus, about 366 KB (default public/data/kjv-excerpt.txt):
#                                             the text the Train view ships, committed so a clean clone has it
set -euo pipefail
source "$(dirname "$0")/lib.sh"
range="Gen1:1-Rev22:21"
default="$ROOT/build/corpus/kjv.txt"
if [[ "${1:-}" == "--excerpt" ]]; then
  shift
  range="Gen1:1-Ex40:38"
  default="$ROOT/public/data/kjv-excerpt.txt"
fi
out=${1:-$default}
command -v bible >/dev/null || bash "$ROOT/scripts/setup.sh"  # installs bible-kjv
mkdir -p "$(dirname "$out")"
bible -f "$range" | sed -E 's/^[^ ]+ //' > "$out"
echo "wrote $out ($(wc -c < "$out") bytes, $(wc -l < "$out") verses)"
