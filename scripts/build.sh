#!/usr/bin/env bash
# Configure + build one CMake preset: native | native-avx2 | asan | tsan | wasm | wasm-threads.
#   bash scripts/build.sh wasm            # everything in the preset
#   bash scripts/build.sh wasm --web      # only what the web app needs (glass_core, glass_core_fma)
#   bash scripts/build.sh wasm-threads --web   # the threaded ones (glass_core_mt, glass_core_fma_mt)
#   bash scripts/build.sh native --target glass_bench
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

preset="${1:?usage: build.sh native|native-avx2|asan|tsan|wasm|wasm-threads [--web] [cmake --build args]}"
shift
case "$preset" in native | native-avx2 | asan | tsan | wasm | wasm-threads) ;; *) die "unknown preset '$preset'" ;; esac

args=("$@")
if [[ "${args[0]:-}" == "--web" ]]; then
  # glass_core exists only once cpp/wasm/ has sources.
  if ! compgen -G "cpp/wasm/*.cpp" >/dev/null; then args=()
  elif [[ "$preset" == wasm-threads ]]; then args=(--target glass_core_mt glass_core_fma_mt "${args[@]:1}")
  else args=(--target glass_core glass_core_fma "${args[@]:1}"); fi
fi

t0=$(now)
say "build:$preset: configure (build/$preset)"
cmake --preset "$preset" --log-level=WARNING
say "build:$preset: build ${args[*]}"
cmake --build --preset "$preset" "${args[@]}"
say "build:$preset: done in $(($(now) - t0)) s"
