#!/usr/bin/python3
"""Compare GlassLLM's forward and backward with the independent PyTorch model.

    /usr/bin/python3 tests/reference/compare_with_torch.py WEIGHTS TEXT [--eps E] [--dtypes f32,f64]
                     [--glassllm build/native/glassllm] [--brief] [--negative-control]

For each dtype it runs `glassllm inspect --weights W --text T --dtype D --json OUT`
and tests/reference/torch_model.py in the same dtype on the same file and text,
then compares the loss, every snapshot, every snapshot's gradient and every
parameter's gradient (docs/model.md names; batch axis removed).

Relative error of a tensor (GlassLLM a, PyTorch b, same shape):

    rel = max_i |a_i - b_i| / max(max_i |b_i|, 1e-30)

i.e. the largest absolute difference measured against the tensor's largest
magnitude (the loss is a one-element tensor). It passes when rel <= 1e-4 in
float32 and rel <= 1e-10 in float64. A NaN/Inf on either side, a shape
mismatch, or a name expected by docs/model.md and missing on either side is a
failure. The script prints a table (name, max abs err, rel err, pass), a
closing line "N passed, M failed", and exits non-zero on any failure.

--negative-control swaps the PyTorch model's half-split RoPE for the
interleaved (GPT-J) pairing: the comparison must then FAIL, which shows it can.
If torch cannot be imported the script exits non-zero with a message; it
never skips.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

try:
    import numpy as np
    import torch
except ImportError as e:
    sys.stderr.write("compare_with_torch.py: FAILED: cannot import torch/numpy (%s) with %s.\n"
                     "The reference comparison cannot run. Install Debian's python3-torch and python3-numpy\n"
                     "(npm run setup) and run with /usr/bin/python3.\n" % (e, sys.executable))
    sys.exit(3)

import torch_model  # noqa: E402

TOLERANCE = {"f32": 1e-4, "f64": 1e-10}
TINY = 1e-30


def rel_error(a, b):
    """(max abs err, rel err) with rel = max|a-b| / max(max|b|, TINY); NaN if either side is not finite."""
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        return float("nan"), float("nan")
    abs_err = float(np.max(np.abs(a - b))) if a.size else 0.0
    scale = max(float(np.max(np.abs(b))) if b.size else 0.0, TINY)
    return abs_err, abs_err / scale


def glass_inspect(glassllm, weights, text, eps, dtype, tmpdir):
    out = os.path.join(tmpdir, "glass_%s.json" % dtype)
    cmd = [glassllm, "inspect", "--weights", weights, "--text", text, "--dtype", dtype, "--json", out]
    if eps is not None:
        cmd += ["--eps", repr(eps)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("glassllm inspect failed (exit %d): %s\n%s" % (r.returncode, " ".join(cmd), r.stderr))
    with open(out) as f:
        j = json.load(f)

    def arr(entry):
        data = [float("nan") if v is None else v for v in entry["data"]]  # null = NaN/Inf in the JSON
        return np.array(data, dtype=np.float64).reshape(entry["shape"])

    return {"loss": j["loss"],
            "snapshots": {k: arr(v) for k, v in j["snapshots"].items()},
            "grads": {k: arr(v) for k, v in j["grads"].items()}}


def torch_inspect(weights, text, eps, dtype):
    r = torch_model.inspect(weights, text, eps, dtype)
    to_np = lambda t: t.detach().to(torch.float64).numpy()
    return {"loss": r["loss"],
            "snapshots": {k: to_np(v) for k, v in r["snapshots"].items()},
            "grads": {k: to_np(v) for k, v in r["grads"].items()}}


def compare(g, t, cfg, dtype):
    """Rows (name, abs, rel, ok, note) for one dtype, in docs/model.md order."""
    tol = TOLERANCE[dtype]
    rows = []

    def row(name, a, b):
        if a is None or b is None:
            side = "glassllm" if a is None else "torch"
            rows.append((name, float("nan"), float("nan"), False, "missing on the %s side" % side))
            return
        if tuple(a.shape) != tuple(b.shape):
            rows.append((name, float("nan"), float("nan"), False,
                         "shape %s (glassllm) vs %s (torch)" % (list(a.shape), list(b.shape))))
            return
        ab, rel = rel_error(a, b)
        ok = rel <= tol  # False for NaN
        rows.append((name, ab, rel, ok, "" if math.isfinite(rel) else "NaN/Inf"))

    row("loss", None if g["loss"] is None else np.array([g["loss"]], dtype=np.float64),
        None if t["loss"] is None else np.array([t["loss"]], dtype=np.float64))
    snaps = torch_model.snapshot_names(cfg)
    for name in snaps:
        row(name, g["snapshots"].get(name), t["snapshots"].get(name))
    for name in snaps:
        row("grad " + name, g["grads"].get(name), t["grads"].get(name))
    for name in torch_model.parameter_names(cfg):
        row("grad " + name, g["grads"].get(name), t["grads"].get(name))
    # names either side has that docs/model.md does not: a renamed snapshot must not go unnoticed
    for side, res in (("glassllm", g), ("torch", t)):
        extra = (set(res["snapshots"]) - set(snaps)) | (set(res["grads"]) - set(snaps) - set(torch_model.parameter_names(cfg)))
        for name in sorted(extra):
            rows.append((name, float("nan"), float("nan"), False, "unexpected name on the %s side" % side))
    return rows


def print_table(rows, dtype, brief):
    tol = TOLERANCE[dtype]
    print("  %-34s %13s %13s  %s   (%s, tolerance rel <= %g)" % ("name", "max abs err", "rel err", "pass", dtype, tol))
    shown = rows
    if brief:
        # failures, plus the worst row of each kind
        kinds = {}
        for r in rows:
            kind = "loss" if r[0] == "loss" else ("grad" if r[0].startswith("grad ") else "snapshot")
            if r[3] and (kind not in kinds or r[2] > kinds[kind][2]):
                kinds[kind] = r
        shown = [r for r in rows if not r[3] or r in kinds.values()]
    for name, ab, rel, ok, note in shown:
        print("  %-34s %13.4e %13.4e  %s%s" % (name, ab, rel, "ok  " if ok else "FAIL", ("  " + note) if note else ""))
    if brief:
        print("  (%d rows; showing failures and the worst passing row per kind)" % len(rows))


def compare_dtypes(dtypes, glass_side, torch_side, compare_fn, cfg, brief, prefix):
    """Run both sides for each dtype, print each table, and exit 0 only if every row passed.

    glass_side(dtype, tmpdir) and torch_side(dtype) return the dicts compare_fn(g, t, cfg, dtype)
    turns into rows (name, error, tolerance, ok); a glassllm failure counts as one failed row.
    """
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        for dtype in dtypes:
            try:
                g = glass_side(dtype, tmp)
            except RuntimeError as e:
                print("  FAIL glassllm side (%s): %s" % (dtype, e))
                failed += 1
                continue
            t = torch_side(dtype)
            rows = compare_fn(g, t, cfg, dtype)
            print("\n[%s] loss glassllm %.17g  torch %.17g" % (dtype, g["loss"], t["loss"]))
            print_table(rows, dtype, brief)
            p = sum(1 for r in rows if r[3])
            passed += p
            failed += len(rows) - p
    print("\n%d passed, %d failed" % (passed, failed))
    sys.exit(0 if failed == 0 else 1)


def main():
    ap = argparse.ArgumentParser(description="compare glassllm inspect with the PyTorch reference model")
    ap.add_argument("weights")
    ap.add_argument("text")
    ap.add_argument("--eps", type=float, default=None)
    ap.add_argument("--dtypes", default="f32,f64")
    ap.add_argument("--glassllm", default=os.path.join(ROOT, "build", "native", "glassllm"))
    ap.add_argument("--brief", action="store_true", help="print only failures and the worst row per kind")
    ap.add_argument("--negative-control", action="store_true",
                    help="use interleaved RoPE pairing in the torch model: the comparison must fail")
    a = ap.parse_args()
    torch.set_num_threads(1)
    if a.negative_control:
        torch_model.ROPE_PAIRING = "interleaved"
    if not os.access(a.glassllm, os.X_OK):
        sys.stderr.write("compare_with_torch.py: FAILED: %s is not built (cmake --build --preset native --target glassllm)\n"
                         % a.glassllm)
        sys.exit(2)

    nbytes = len(a.text.encode("utf-8"))
    print("reference comparison: %s, text of %d bytes (%d chars), eps %s, torch %s%s"
          % (a.weights, nbytes, len(a.text), "default" if a.eps is None else repr(a.eps), torch.__version__,
             ", NEGATIVE CONTROL (interleaved RoPE in torch)" if a.negative_control else ""))
    _, cfg = torch_model.load_params(a.weights, torch.float64)
    dtypes = a.dtypes.split(",")
    for dtype in dtypes:
        if dtype not in TOLERANCE:
            sys.exit("compare_with_torch.py: unknown dtype %r (f32, f64)" % dtype)
    compare_dtypes(dtypes, lambda dtype, tmp: glass_inspect(a.glassllm, a.weights, a.text, a.eps, dtype, tmp),
                   lambda dtype: torch_inspect(a.weights, a.text, a.eps, dtype), compare, cfg, a.brief, "glass_ref_")

if __name__ == "__main__":
    main()
