#!/usr/bin/python3
"""Reproduce in PyTorch a number the page shows, from a weights file, with the
independent PyTorch model of tests/reference/torch_model.py.

    /usr/bin/python3 tests/reference/reproduce.py WEIGHTS TEXT WHAT [ARGS] [--dtype f32|f64] [--eps E]
                                                 [--intervene LIST]

WHAT:
  loss                          the mean next-byte loss (and, with --intervene, the loss without)
  snapshot NAME INDEX           one element of a snapshot (docs/model.md name; blocks.{i}.attn.pattern too)
  grad NAME INDEX               one element of dL/d snapshot or dL/d parameter
  param NAME INDEX              one element of a parameter (as the weights file holds it, in --dtype)
  lens DEPTH POSITION           the logit lens at a stream snapshot (embed, blocks.{i}.resid.attn, ...)
                                and a position: the top 5 next bytes and the loss of the true next byte

INDEX is the element's coordinates without the batch axis, comma-separated: "2,5,3" is
head 2, row 5, column 3 of a pattern; "65,3" row 65, column 3 of tok_emb.weight.
--intervene takes the interventions' text forms, comma-separated (docs/model.md,
"Interventions"): zero:blocks.2.ffn,scale:blocks.0.attn:0.5,ablateHead:1:2,
eps:blocks.3.norm_ffn:0.01,identityNorm:norm_final,unitGamma:blocks.0.norm_attn.

Prints the number with 17 significant digits (float64) or 9 (float32): what the page shows,
up to the last digits float32 rounding can move (the reference tests hold them to 1e-4
relative in float32 and 1e-10 in float64).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch_model  # noqa: E402  (exits with a message if torch is missing)
import torch  # noqa: E402


def byte_label(b):
    if b == 32:
        return "␣"
    if b == 10:
        return "\\n"
    if 33 <= b < 127:
        return chr(b)
    return "\\x%02X" % b


def element(t, index, name):
    coords = [int(c) for c in index.split(",")] if index else []
    if len(coords) != t.dim():
        sys.exit("reproduce.py: %s has shape %s: give %d coordinates, got %r" % (name, list(t.shape), t.dim(), index))
    for c, s in zip(coords, t.shape):
        if not 0 <= c < s:
            sys.exit("reproduce.py: %s has shape %s: coordinate %d is out of range" % (name, list(t.shape), c))
    return t[tuple(coords)].item()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("weights")
    ap.add_argument("text")
    ap.add_argument("what", choices=["loss", "snapshot", "grad", "param", "lens"])
    ap.add_argument("args", nargs="*")
    ap.add_argument("--dtype", choices=["f32", "f64"], default="f32")
    ap.add_argument("--eps", type=float, default=None)
    ap.add_argument("--intervene", default="")
    a = ap.parse_args()
    torch.set_num_threads(1)
    ivs = [x for x in a.intervene.split(",") if x]
    r = torch_model.inspect(a.weights, a.text, a.eps, a.dtype, interventions=ivs, patterns=True)
    fmt = "%.17g" if a.dtype == "f64" else "%.9g"
    if a.what == "loss":
        print(("loss " + fmt) % r["loss"])
        if ivs:
            print(("loss without the interventions " + fmt) % torch_model.inspect(a.weights, a.text, a.eps, a.dtype)["loss"])
        return
    if len(a.args) != 2:
        sys.exit("reproduce.py: %s takes two arguments (see --help)" % a.what)
    name, index = a.args
    if a.what == "snapshot":
        if name not in r["snapshots"]:
            sys.exit("reproduce.py: no snapshot %r; snapshots: %s" % (name, ", ".join(r["snapshots"])))
        print(fmt % element(r["snapshots"][name], index, name))
    elif a.what == "param":
        P, _ = torch_model.load_params(a.weights, torch_model.DTYPES[a.dtype])
        if name not in P:
            sys.exit("reproduce.py: no parameter %r; parameters: %s" % (name, ", ".join(P)))
        print(fmt % element(P[name].detach(), index, name))
    elif a.what == "grad":
        g = r["grads"].get(name)
        if name not in r["grads"]:
            sys.exit("reproduce.py: no snapshot or parameter %r; names: %s" % (name, ", ".join(r["grads"])))
        print(fmt % (0.0 if g is None else element(g, index, name)))
    else:
        depths = torch_model.stream_names(r["cfg"])
        if name not in depths:
            sys.exit("reproduce.py: %r is not a depth of the stream; depths: %s" % (name, ", ".join(depths)))
        t = int(index)
        ids = list(a.text.encode("utf-8"))
        logits = r["lens"][depths.index(name)]  # (n, V)
        if not 0 <= t < len(ids):
            sys.exit("reproduce.py: position %d is outside 0..%d" % (t, len(ids) - 1))
        p = torch.softmax(logits[t].to(torch.float64), -1)
        top = torch.topk(p, 5)
        print("top 5 after position %d at %s: %s" % (t, name, ", ".join(
            "%s %.4f" % (byte_label(int(b)), float(v)) for v, b in zip(top.values, top.indices))))
        if t + 1 < len(ids):
            print(("loss of the next byte %s: " + fmt) % (byte_label(ids[t + 1]), -torch.log_softmax(logits[t], -1)[ids[t + 1]].item()))


if __name__ == "__main__":
    main()
