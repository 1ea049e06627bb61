#!/usr/bin/python3
"""PyTorch CPU timings of the same work `glassllm bench` times, for npm run bench:native.

    OPENBLAS_NUM_THREADS=1 LD_PRELOAD=<openblas libblas.so.3> \\
      /usr/bin/python3 bench/peers/torch_step.py [--runs N] [--warmup N] [--batch B] [--ctx N] [--dtype f32|f64]
      [--threads N]

One thread by default (torch.set_num_threads(N); OPENBLAS_NUM_THREADS must say the same, as
scripts/bench_native.sh does). The model is tests/reference/torch_model.py
(the default configuration of docs/model.md, trainer-style init std 0.02, gammas 1):
  forward 1 x ctx      inference forward under torch.no_grad()
  fwd+bwd B x ctx      forward + mean next-byte cross-entropy + backward
  train step B x ctx   zero_grad + fwd+bwd + AdamW (betas 0.9/0.95, decay 0.1 on matrices only, lr 1e-3)
Prints "bench <name> median_ms <x> min_ms <y> runs <n>" lines (the glassllm bench format), and
first the BLAS library actually loaded, the vector units PyTorch's and OpenBLAS's kernels were
chosen for, and a 512x512 float32 matmul time as a check that OpenBLAS (not the reference BLAS)
is in use.
"""
import argparse
import ctypes
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "reference"))
import torch  # noqa: E402
import torch_model as tm  # noqa: E402


def loaded_blas():
    libs = set()
    with open("/proc/self/maps") as f:
        for line in f:
            path = line.split()[-1] if len(line.split()) >= 6 else ""
            if "blas" in os.path.basename(path):
                libs.add(os.path.realpath(path))
    return sorted(libs)


def vector_units():
    """What PyTorch's own kernels and OpenBLAS's were chosen for on this CPU: a figure
    names what produced it on both sides. Both pick at run time, so on an AVX-512
    machine either may still run AVX2 code (OpenBLAS 0.3.21 takes a Zen 5 for Haswell)."""
    aten = next((line.split(":", 1)[1].strip() for line in torch.__config__.show().splitlines()
                 if "CPU capability usage" in line), "not reported")
    blas = "not found"
    for path in loaded_blas():
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            blas = "OpenBLAS %s kernels" % lib.openblas_get_corename().decode()
            break
        except (OSError, AttributeError):
            continue
    return "ATen %s, %s" % (aten, blas)


def time_it(name, warmup, runs, fn):
    for _ in range(warmup):
        fn()
    ms = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        ms.append((time.perf_counter() - t0) * 1e3)
    print("bench %-22s median_ms %10.3f min_ms %10.3f runs %d" % (name, statistics.median(ms), min(ms), runs),
          flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--ctx", type=int, default=128)
    ap.add_argument("--dtype", choices=["f32", "f64"], default="f32")
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    dtype = tm.DTYPES[a.dtype]

    x = torch.randn(512, 512)
    y = torch.randn(512, 512)
    for _ in range(3):
        x @ y
    t0 = time.perf_counter()
    for _ in range(20):
        x @ y
    mm = (time.perf_counter() - t0) / 20 * 1e3
    print("torch %s, %d thread(s), BLAS loaded: %s" % (torch.__version__, torch.get_num_threads(),
                                                     ", ".join(loaded_blas()) or "none found"))
    print("torch vector units: %s" % vector_units())
    print("check: 512x512 float32 matmul %.2f ms (OpenBLAS ~3 ms here; the reference BLAS ~65 ms)" % mm)

    cfg = tm.Config()
    P = {}
    for name in tm.parameter_names(cfg):
        shape = {"tok_emb.weight": (cfg.vocab, cfg.d), "head.weight": (cfg.vocab, cfg.d)}.get(name)
        if name.endswith("gamma"):
            P[name] = torch.ones(cfg.d, dtype=dtype)
        else:
            if shape is None:
                w = name.split(".")[-2]
                shape = {"w_gate": (cfg.hidden, cfg.d), "w_up": (cfg.hidden, cfg.d),
                         "w_down": (cfg.d, cfg.hidden)}.get(w, (cfg.d, cfg.d))
            P[name] = 0.02 * torch.randn(shape, dtype=dtype)
        P[name].requires_grad_(True)
    one = torch.randint(0, 256, (1, a.ctx))
    many = torch.randint(0, 256, (a.batch, a.ctx))
    print("torch bench: default model, %s, forward 1 x %d, training step %d x %d, %d warm-up + %d timed runs"
          % (a.dtype, a.ctx, a.batch, a.ctx, a.warmup, a.runs))

    def forward_only():
        with torch.no_grad():
            tm.forward(P, one, cfg)

    def zero_grad():
        for p in P.values():
            p.grad = None

    def fwd_bwd():
        zero_grad()
        _, loss = tm.forward(P, many, cfg)
        loss.backward()

    opt = torch.optim.AdamW(
        [{"params": [p for n, p in P.items() if p.dim() >= 2], "weight_decay": 0.1},
         {"params": [p for n, p in P.items() if p.dim() < 2], "weight_decay": 0.0}],
        lr=1e-3, betas=(0.9, 0.95), eps=1e-8, foreach=False)

    def train_step():
        fwd_bwd()
        opt.step()

    nb = "%dx%d" % (a.batch, a.ctx)
    time_it("forward_1x%d" % a.ctx, a.warmup, a.runs, forward_only)
    time_it("fwd_bwd_" + nb, a.warmup, a.runs, fwd_bwd)
    time_it("train_step_" + nb, a.warmup, a.runs, train_step)


if __name__ == "__main__":
    main()
