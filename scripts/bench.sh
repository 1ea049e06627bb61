#!/usr/bin/env bash
# npm run bench: native Google Benchmark suite, then the wasm timing loops under node.
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
else
  say "bench: no wasm benchmarks yet (bench/wasm/*.cpp)"
fi
