#!/usr/bin/env bash
# Builds the default training text from Debian's bible-kjv package (the King
# James Version, public domain): every verse in order, one per line, with the
# "Ge1:1 " style references stripped. Usage: scripts/make_corpus.sh [OUT]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:-$ROOT/build/corpus/kjv.txt}
command -v bible >/dev/null || bash "$ROOT/scripts/setup.sh"  # installs bible-kjv
mkdir -p "$(dirname "$out")"
bible -f "Gen1:1-Rev22:21" | sed -E 's/^[^ ]+ //' > "$out"
echo "wrote $out ($(wc -c < "$out") bytes, $(wc -l < "$out") verses)"
