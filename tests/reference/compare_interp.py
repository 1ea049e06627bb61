#!/usr/bin/python3
"""Compare GlassLLM's issue-12 tools with the independent PyTorch model.

    /usr/bin/python3 tests/reference/compare_interp.py WEIGHTS TEXT [--intervene LIST] [--eps E]
                     [--dtypes f32,f64] [--glassllm build/native/glassllm] [--brief]

For each dtype it runs `glassllm interp --json` (patterns recorded, the
interventions in LIST applied: comma-separated text forms such as
"zero:blocks.2.ffn,ablateHead:1:2") and tests/reference/torch_model.py with
the same interventions, parsed by torch_model.Edits on its own, and compares:
the loss with and without the interventions, every snapshot (attention
patterns included), every snapshot and parameter gradient, the logit lens's
logits at every depth and its mean loss per depth, and each head's summary
(previous / same / first byte weight, mean distance) computed in numpy from
torch's patterns by its definition in docs/model.md.

Tolerances as compare_with_torch.py: rel = max|a - b| / max(max|b|, 1e-30),
pass at rel <= 1e-4 (float32) and rel <= 1e-10 (float64). Prints a table and a
closing line "N passed, M failed"; exits non-zero on any failure.
"""
import argparse
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from compare_with_torch import TOLERANCE, compare_dtypes, rel_error  # noqa: E402  (exits if torch is missing)

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch_model  # noqa: E402


def arr(entry):
    data = [float("nan") if v is None else v for v in entry["data"]]
    return np.array(data, dtype=np.float64).reshape(entry["shape"])


def glass_interp(glassllm, weights, text, eps, dtype, intervene, tmpdir):
    out = os.path.join(tmpdir, "interp_%s.json" % dtype)
    cmd = [glassllm, "interp", "--weights", weights, "--text", text, "--dtype", dtype, "--json", out]
    if intervene:
        cmd += ["--intervene", intervene]
    if eps is not None:
        cmd += ["--eps", repr(eps)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("glassllm interp failed (exit %d): %s\n%s" % (r.returncode, " ".join(cmd), r.stderr))
    with open(out) as f:
        return json.load(f)


def head_summary(pattern):
    """(h, n, n) -> per head [previous, same, first, mean distance] over t = 1 .. n-1 (docs/model.md)."""
    h, n, _ = pattern.shape
    t = np.arange(1, n)
    out = []
    for k in range(h):
        a = pattern[k]
        dist = np.array([np.sum(a[i, :i + 1] * (i - np.arange(i + 1))) for i in t])
        out.append([a[t, t - 1].mean(), a[t, t].mean(), a[t, 0].mean(), dist.mean()])
    return np.array(out)


def compare(g, t, cfg, dtype):
    tol = TOLERANCE[dtype]
    rows = []

    def row(name, a, b):
        if a is None or b is None:
            rows.append((name, float("nan"), float("nan"), False, "missing on the %s side" % ("glassllm" if a is None else "torch")))
            return
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        if a.shape != b.shape:
            rows.append((name, float("nan"), float("nan"), False, "shape %s vs %s" % (list(a.shape), list(b.shape))))
            return
        ab, rel = rel_error(a, b)
        rows.append((name, ab, rel, rel <= tol, "" if math.isfinite(rel) else "NaN/Inf"))

    to_np = lambda x: x.detach().to(torch.float64).numpy()
    row("loss", [g["loss"]], [t["loss"]])
    row("loss without the interventions", [g["baseline_loss"]], [t["baseline_loss"]])
    names = torch_model.snapshot_names(cfg, patterns=True)
    for name in names:
        row(name, arr(g["snapshots"][name]) if name in g["snapshots"] else None, to_np(t["snapshots"][name]))
    for name in names:
        gt = to_np(t["grads"][name])
        if name.endswith(".attn.pattern"):
            # GlassLLM's layer never reads the weights above the diagonal (causal_mix skips them), so
            # its gradient there is 0; torch's matmul reads those zeros, so it gives them one
            gt = gt * np.tril(np.ones(gt.shape[-2:]))
        row("grad " + name, arr(g["grads"][name]) if name in g["grads"] else None, gt)
    for name in torch_model.parameter_names(cfg):
        gt = t["grads"][name]
        if gt is None and name not in g["grads"]:  # an intervention cut it off the loss: no gradient on either side
            rows.append(("grad " + name, 0.0, 0.0, True, "no gradient on either side"))
            continue
        row("grad " + name, arr(g["grads"][name]) if name in g["grads"] else None, None if gt is None else to_np(gt))
    extra = set(g["snapshots"]) - set(names)
    for name in sorted(extra):
        rows.append((name, float("nan"), float("nan"), False, "unexpected snapshot on the glassllm side"))
    if g["lens"]["depths"] != torch_model.stream_names(cfg):
        rows.append(("lens depths", float("nan"), float("nan"), False, "%s vs %s" % (g["lens"]["depths"], torch_model.stream_names(cfg))))
    lens_t = to_np(t["lens"])
    row("lens logits (all depths)", arr(g["lens"]["logits"]), lens_t)
    ids = np.frombuffer(t["text"].encode("utf-8"), dtype=np.uint8).astype(np.int64)
    logp = torch.log_softmax(t["lens"], dim=-1).to(torch.float64).numpy()
    mean_loss = [-logp[k, np.arange(len(ids) - 1), ids[1:]].mean() for k in range(lens_t.shape[0])]
    row("lens mean loss by depth", [math.nan if v is None else v for v in g["lens"]["mean_loss"]], mean_loss)
    summaries = np.concatenate([head_summary(to_np(t["snapshots"]["blocks.%d.attn.pattern" % i])) for i in range(cfg.blocks)])
    mine = np.array([[h["previous"], h["same"], h["first"], h["mean_distance"]] for h in g["heads"]], dtype=np.float64)
    row("head summaries", mine, summaries)
    return rows


def main():
    ap = argparse.ArgumentParser(description="compare glassllm interp with the PyTorch reference model")
    ap.add_argument("weights")
    ap.add_argument("text")
    ap.add_argument("--intervene", default="")
    ap.add_argument("--eps", type=float, default=None)
    ap.add_argument("--dtypes", default="f32,f64")
    ap.add_argument("--glassllm", default=os.path.join(ROOT, "build", "native", "glassllm"))
    ap.add_argument("--brief", action="store_true")
    a = ap.parse_args()
    torch.set_num_threads(1)
    ivs = [x for x in a.intervene.split(",") if x]
    print("interp comparison: %s, text of %d bytes, interventions %s" % (a.weights, len(a.text.encode()), ivs or "none"))
    _, cfg = torch_model.load_params(a.weights, torch.float64)

    def torch_side(dtype):
        t = torch_model.inspect(a.weights, a.text, a.eps, dtype, interventions=ivs, patterns=True)
        t["baseline_loss"] = torch_model.inspect(a.weights, a.text, a.eps, dtype)["loss"]
        t["text"] = a.text
        return t

    compare_dtypes(a.dtypes.split(","),
                   lambda dtype, tmp: glass_interp(a.glassllm, a.weights, a.text, a.eps, dtype, a.intervene, tmp),
                   torch_side, compare, cfg, a.brief, "glass_interp_")

if __name__ == "__main__":
    main()
