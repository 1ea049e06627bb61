#!/usr/bin/env bash
# npm run glassllm -- <command> [flags]: the native CLI (build/native/glassllm),
# built with the native preset first if it is missing. Build output goes to
# stderr so the command's stdout stays clean; paths are relative to where npm runs.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

bin="$ROOT/build/native/glassllm"
if [[ ! -x "$bin" ]]; then
  (cd "$ROOT" && bash scripts/build.sh native --target glassllm) >&2
fi
exec "$bin" "$@"
