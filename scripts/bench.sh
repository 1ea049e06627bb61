#!/usr/bin/env bash
# npm run bench: native Google Benchmark suite, then the wasm timing loops under node,
# then the model rows of the threaded wasm build on 1 thread and on every core (up to 8):
# the core's own thread scaling in V8, without a browser around it.
#   Extra arguments go to glass_bench, e.g. npm run bench -- --benchmark_filter=matmul
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

bash scripts/setup.sh

if compgen -G "bench/native/*.cpp" >/dev/null; then
  bash scripts/build.sh native --target glass_bench
  say "bench: native (build/native/glass_bench, -O3 -march=native)"
  build/native/glass_bench "$@"
else
  say "bench: no native benchmarks yet (bench/native/*.cpp)"
fi

if compgen -G "bench/wasm/*.cpp" >/dev/null; then
  bash scripts/build.sh wasm --target glass_wasm_bench
  say "bench: wasm under node $(node --version) (build/wasm/glass_wasm_bench.js, simd128)"
  node --no-experimental-fetch build/wasm/glass_wasm_bench.js
  bash scripts/build.sh wasm-threads --target glass_wasm_bench
  cores=$(nproc)
  ((cores <= 8)) || cores=8
  say "bench: the threaded wasm build under node (build/wasm-threads/glass_wasm_bench.js, simd128), 1 and $cores threads"
  # --jobs: the pool's jobs by size and by kernel on 1 and on $cores threads, and the serial rest
  for n in 1 "$cores"; do node --no-experimental-fetch build/wasm-threads/glass_wasm_bench.js --threads "$n" --model-only --jobs; done
else
  say "bench: no wasm benchmarks yet (bench/wasm/*.cpp)"
fi
