#!/usr/bin/env bash
# npm start: install what is missing, build the wasm core, serve the app.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

HOST=127.0.0.1
PORT="${PORT:-5173}"

bash scripts/setup.sh
bash scripts/build.sh wasm --web
bash scripts/build.sh wasm-threads --web # the threaded core: the dev server sends the isolation headers

printf '\n\033[1;32m  GlassLLM is starting at  http://%s:%s/  (Ctrl+C stops it)\033[0m\n\n' "$HOST" "$PORT"
exec vite --host "$HOST" --port "$PORT" --strictPort
