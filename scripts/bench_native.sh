#!/usr/bin/env bash
# npm run bench:native: GlassLLM vs PyTorch CPU, in one run, first both on ONE thread, then both on
# N threads (default: the machine's cores; npm run bench:native -- --threads N to choose).
#   forward 1 x 128 (inference), forward+backward 16 x 128, training step 16 x 128
#   (zero_grad + forward + mean next-byte cross-entropy + backward + AdamW), default model, float32.
#   PyTorch: bench/peers/torch_step.py under /usr/bin/python3 with Debian's OpenBLAS preloaded
#   (Debian's torch links libblas.so.3, which may be the slow reference BLAS), torch.set_num_threads
#   and OPENBLAS_NUM_THREADS set to the same count (and OPENBLAS_CORETYPE where OpenBLAS does not know the CPU:
#   below).
#   GlassLLM: build/native/glassllm bench --threads N; its "machine:" line names the CPU, the vector
#   instruction set the build's matrix product uses and its register tile. It also times
#   inspect_1x128, the page's run (forward + backward on 128 bytes, every snapshot kept), which
#   PyTorch has no counterpart for: printed as "GlassLLM only", with its speed-up.
# With more than one thread, the host check (bench/host_check.mjs) runs before and after: it says
# whether each thread had a core of its own, which a virtual machine's host does not always give.
# --rounds R (default 1) runs the whole comparison R times, the two sides taking turns, and prints
# each round's ratios beside the tables (the medians over the rounds): a shared host slows one side
# in one round and not in the next, and one round cannot tell that from the code. Each round's line
# also gives how long a cache line took between two threads and back just before and just after
# GlassLLM's 2-thread training step (glassllm bench prints it): the host moves its vCPUs near and
# far apart (on the project's machine about 60-110 ns near, 320-340 far), and the step's speed-up
# moves with that.
# Other extra arguments go to both sides: npm run bench:native -- --runs 20 --warmup 3
# GLASS_BENCH_PRESET=native-avx2 times the build without AVX-512 (build/native-avx2) instead.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

threads=$(getconf _NPROCESSORS_ONLN)
rounds=1
args=()
while (($#)); do
  if [[ "$1" == --threads ]]; then
    [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || die "bench:native: --threads needs a whole number >= 1"
    threads=$2
    shift 2
  elif [[ "$1" == --rounds ]]; then
    [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]?$ ]] || die "bench:native: --rounds needs a whole number from 1 to 99"
    rounds=$2
    shift 2
  else
    args+=("$1")
    shift
  fi
done
preset=${GLASS_BENCH_PRESET:-native}
case "$preset" in native | native-avx2) ;; *) die "bench:native: GLASS_BENCH_PRESET is native or native-avx2, not '$preset'" ;; esac

bash scripts/setup.sh
bash scripts/build.sh "$preset" --target glassllm

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

# OpenBLAS picks its kernels by the CPU's model number, and Debian's 0.3.21 does
# not know the newest ones. On a 2-core Intel Xeon (family 6, model 207,
# AVX-512; 2026-12-07) it fell back to its Prescott kernels (SSE3), and
# PyTorch's 1-thread training step 16 x 128 took 518-758 ms instead of
# 202-241 ms with its Cooperlake ones: a peer held back that far flatters GlassLLM. So
# when OpenBLAS picks a set older than AVX2 on a CPU that has AVX2 and FMA, it
# runs with the newest set the CPU's flags allow (OPENBLAS_CORETYPE), and the
# run says so. A CPU OpenBLAS knows is left to it (0.3.21 takes a Zen 5 for
# Haswell, AVX2), and so is an OPENBLAS_CORETYPE set by whoever runs this.
# The AVX2 build (native-avx2) stands for a machine without AVX-512, so its
# peer gets OpenBLAS's AVX2 kernels (Haswell) where OpenBLAS would use more.
openblas_core() {
  "$PY" -c 'import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.openblas_get_corename.restype = ctypes.c_char_p
print(lib.openblas_get_corename().decode())' "$openblas" 2>/dev/null || echo unknown
}
if [[ -z "${OPENBLAS_CORETYPE:-}" ]]; then
  picked=$(openblas_core)
  flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
  has() { for f in "$@"; do [[ "$flags" == *" $f "* ]] || return 1; done; }
  avx512=(avx512f avx512vl avx512bw avx512dq avx512cd)
  want=""
  case "$picked" in
    Prescott | Core2 | Penryn | Dunnington | Nehalem | Atom | Katmai | Coppermine | Northwood | Banias | Sandybridge)
      if [[ "$preset" != native-avx2 ]] && has "${avx512[@]}" avx512_bf16; then want=Cooperlake
      elif [[ "$preset" != native-avx2 ]] && has "${avx512[@]}"; then want=SkylakeX
      elif has avx2 fma; then want=Haswell; fi
      why="does not know this CPU and picked its $picked kernels"
      ;;
    SkylakeX | Cooperlake | SapphireRapids)
      [[ "$preset" == native-avx2 ]] && want=Haswell
      why="picked its $picked kernels (AVX-512), and the AVX2 build stands for a machine without AVX-512"
      ;;
  esac
  if [[ -n "$want" ]]; then
    export OPENBLAS_CORETYPE=$want
    say "bench:native: OpenBLAS $why; PyTorch runs with its $want kernels (OPENBLAS_CORETYPE=$want)"
  fi
fi

# PyTorch's CPU tensors come from glibc's malloc, which maps each large block
# afresh and hands it back when freed: every step then pays its page faults
# again, and a virtual machine's page faults are slow. GlassLLM keeps its freed
# blocks (cpp/glass/tensor/storage.cpp), so PyTorch keeps its memory too: glibc
# settings only, nothing of PyTorch changed. On the 2-core AMD EPYC (Zen 5),
# 2026-12-02, PyTorch's 1-thread training step 16 x 128 took 338-644 ms (medians;
# minimums 269-368) without them and 199-203 ms (minimums 193-200) with them.
keep_memory=(env MALLOC_MMAP_THRESHOLD_=1073741824 MALLOC_TRIM_THRESHOLD_=4294967296 MALLOC_TOP_PAD_=268435456)

mkdir -p build/bench
rm -f build/bench/torch_*t*.txt build/bench/glassllm_*t*.txt
counts=(1)
((threads == 1)) || counts+=("$threads")
say "bench:native: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(getconf _NPROCESSORS_ONLN) cores (timings are wall clock)"
host_check() { ((threads > 1)) && { node bench/host_check.mjs "$threads" 3 | sed "s/^host check/host check ($1)/"; } || true; }
host_check before
for ((r = 1; r <= rounds; r++)); do
  for t in "${counts[@]}"; do
    say "bench:native: round $r of $rounds: PyTorch ($t thread(s), LD_PRELOAD=$openblas)"
    OPENBLAS_NUM_THREADS=$t OMP_NUM_THREADS=$t MKL_NUM_THREADS=$t LD_PRELOAD="$openblas" "${keep_memory[@]}" \
      "$PY" bench/peers/torch_step.py --threads "$t" ${args[@]+"${args[@]}"} | tee "build/bench/torch_${t}t_r${r}.txt"
    say "bench:native: round $r of $rounds: GlassLLM ($t thread(s), build/$preset)"
    "build/$preset/glassllm" bench --threads "$t" ${args[@]+"${args[@]}"} | tee "build/bench/glassllm_${t}t_r${r}.txt"
  done
done

if ((rounds == 1)); then
  say "bench:native: median ms (ratio = GlassLLM / PyTorch at the same thread count; target for the training step <= 0.8)"
else
  say "bench:native: median ms, each the median of the $rounds rounds' medians (ratio = GlassLLM / PyTorch at the same thread count; target for the training step <= 0.8)"
fi
files=()
for ((r = 1; r <= rounds; r++)); do
  for t in "${counts[@]}"; do files+=("build/bench/torch_${t}t_r${r}.txt" "build/bench/glassllm_${t}t_r${r}.txt"); done
done
status=0
awk -v counts="${counts[*]}" -v rounds="$rounds" '
  function median(list,    v, n, i, j, x) {  # of a space-separated list of numbers
    n = split(list, v, " ")
    for (i = 2; i <= n; i++) { x = v[i] + 0; for (j = i - 1; j >= 1 && v[j] + 0 > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  BEGIN { nc = split(counts, th, " ") }
  # side: 2c-1 PyTorch, 2c GlassLLM at thread count th[c]; files come round by round, in that order
  FNR == 1 { side = side % (2 * nc) + 1; if (side == 1) round++ }
  # where the host had put the threads around the training step (glassllm bench on 2 or more threads)
  $1 == "host" && $2 == "round_trip_ns" { trip[side, round] = trip[side, round] == "" ? $3 : trip[side, round] " and " $3 }
  $1 == "host" && $2 == "shared_write_us" { sharedw[side, round] = $3 " / " $4 }
  $1 == "bench" {
    runs[side, $2] = runs[side, $2] " " $4; at[side, $2, round] = $4
    if (!seen[$2]++) order[++n] = $2
    if (side % 2 == 1) torch[$2] = 1
  }
  END {
    for (s = 1; s <= 2 * nc; s++) for (i = 1; i <= n; i++) if (runs[s, order[i]] != "") ms[s, order[i]] = median(runs[s, order[i]])
    for (c = 1; c <= nc; c++) {
      printf "  %s thread(s)%*s %12s %12s %8s\n", th[c], 12 - length(th[c]), "", "PyTorch", "GlassLLM", "ratio"
      for (i = 1; i <= n; i++) {
        k = order[i]; t = 2 * c - 1; g = 2 * c
        if (!(k in torch)) { if (ms[g, k] != "") printf "  %-22s %12s %9.3f ms   (GlassLLM only)\n", k, "", ms[g, k]; continue }
        if (ms[t, k] == "" || ms[g, k] == "") { printf "  %-22s missing on one side\n", k; bad = 1; continue }
        printf "  %-22s %9.3f ms %9.3f ms %7.2fx\n", k, ms[t, k], ms[g, k], ms[g, k] / ms[t, k]
      }
    }
    if (nc == 2) {
      printf "  speed-up, %s threads vs 1 %10s %12s\n", th[2], "PyTorch", "GlassLLM"
      for (i = 1; i <= n; i++) {
        k = order[i]
        if (ms[2, k] == "" || ms[4, k] == "") continue
        if (!(k in torch)) { printf "  %-22s %10s %11.2fx\n", k, "", ms[2, k] / ms[4, k]; continue }
        if (ms[3, k] == "") continue
        printf "  %-22s %9.2fx %11.2fx\n", k, ms[1, k] / ms[3, k], ms[2, k] / ms[4, k]
      }
    }
    if (rounds > 1) {
      k = "train_step_16x128"
      printf "  training step, round by round (ms, PyTorch / GlassLLM, ratio%s):\n", nc == 2 ? "; GlassLLM " th[2] " threads vs 1" : ""
      for (r = 1; r <= rounds; r++) {
        line = sprintf("    round %d:", r)
        for (c = 1; c <= nc; c++)
          if (at[2 * c - 1, k, r] != "" && at[2 * c, k, r] != "")
            line = line sprintf("  %s thread(s) %.1f / %.1f, %.2fx", th[c], at[2 * c - 1, k, r], at[2 * c, k, r], at[2 * c, k, r] / at[2 * c - 1, k, r])
        if (nc == 2 && at[2, k, r] != "" && at[4, k, r] != "") line = line sprintf(";  %.2fx", at[2, k, r] / at[4, k, r])
        if (nc == 2 && trip[4, r] != "") line = line sprintf(" (a cache line between the threads and back: %s ns)", trip[4, r])
        if (nc == 2 && sharedw[4, r] != "") line = line sprintf("; 3 MB written by both: %s us, own / after both read it", sharedw[4, r])
        print line
      }
    }
    exit bad
  }' "${files[@]}" || status=$?
host_check after
exit "$status"
