#!/usr/bin/env bash
# npm run train: trains the shipped weights, public/weights/glass-kjv.safetensors,
# from the KJV text (scripts/make_corpus.sh) with the project's own trainer.
# Writes the weights (float32) and a resumable checkpoint next to them
# (public/weights/glass-kjv.safetensors.ckpt, not committed): after an
# interruption, run again with RESUME=1 to continue from it exactly.
# Takes about 6 minutes on a 2-core AMD EPYC Zen 5 and 12 on a 2-core Intel Xeon (AVX-512, 2 threads;
# 65 minutes on one core before the threads and the per-instruction-set tiles).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

bash scripts/setup.sh
bash scripts/build.sh native --target glassllm
bash scripts/make_corpus.sh build/corpus/kjv.txt

out=public/weights/glass-kjv.safetensors
mkdir -p "$(dirname "$out")"
args=(--text build/corpus/kjv.txt --out "$out" --steps 8000 --batch 16 --ctx 128 --lr 2e-3 --seed 1 --warmup 200 --eval-every 500)
[[ "${RESUME:-}" == 1 ]] && args+=(--resume "$out.ckpt")
say "train: build/native/glassllm train ${args[*]}"
time build/native/glassllm train "${args[@]}"
