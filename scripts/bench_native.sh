#!/usr/bin/env bash
# npm run bench:native: GlassLLM vs PyTorch CPU, both on ONE thread, in one run.
#   forward 1 x 128 (inference), forward+backward 16 x 128, training step 16 x 128
#   (zero_grad + forward + mean next-byte cross-entropy + backward + AdamW), default model, float32.
#   PyTorch: bench/peers/torch_step.py under /usr/bin/python3 with Debian's OpenBLAS preloaded
#   (Debian's torch links libblas.so.3, which may be the slow reference BLAS).
#   GlassLLM: build/native/glassllm bench.
# Extra arguments go to both sides: npm run bench:native -- --runs 20 --warmup 3
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

bash scripts/setup.sh
bash scripts/build.sh native --target glassllm

PY=/usr/bin/python3
"$PY" -c 'import torch' 2>/dev/null || die "bench:native: $PY cannot import torch (npm run setup installs python3-torch)"

# OpenBLAS's libblas.so.3 (libopenblas0-pthread), whatever the libblas.so.3 alternative points at.
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
openblas=""
for f in /usr/lib/"$multiarch"/openblas-pthread/libblas.so.3 /usr/lib/"$multiarch"/openblas-openmp/libblas.so.3 \
         /usr/lib/"$multiarch"/openblas-serial/libblas.so.3; do
  [[ -f "$f" ]] && { openblas=$f; break; }
done
[[ -n "$openblas" ]] || die "bench:native: OpenBLAS's libblas.so.3 not found (apt-get install libopenblas0)"

export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
mkdir -p build/bench
say "bench:native: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(getconf _NPROCESSORS_ONLN) cores (timings are wall clock)"
say "bench:native: PyTorch (1 thread, LD_PRELOAD=$openblas)"
LD_PRELOAD="$openblas" "$PY" bench/peers/torch_step.py "$@" | tee build/bench/torch.txt
say "bench:native: GlassLLM (1 thread)"
build/native/glassllm bench "$@" | tee build/bench/glassllm.txt

say "bench:native: median ms (ratio = GlassLLM / PyTorch; target for the training step <= 1.0)"
awk '
  FNR == 1 { side++ }
  $1 == "bench" { ms[side, $2] = $4; if (side == 1) order[++n] = $2 }
  END {
    printf "  %-22s %12s %12s %8s\n", "", "PyTorch", "GlassLLM", "ratio"
    for (i = 1; i <= n; i++) {
      k = order[i]
      if (ms[1, k] == "" || ms[2, k] == "") { printf "  %-22s missing on one side\n", k; bad = 1; continue }
      printf "  %-22s %9.3f ms %9.3f ms %7.2fx\n", k, ms[1, k], ms[2, k], ms[2, k] / ms[1, k]
    }
    exit bad
  }' build/bench/torch.txt build/bench/glassllm.txt
