#!/usr/bin/python3
"""An independent PyTorch implementation of the GlassLLM model (docs/model.md).

Written from the design, not from the C++: torch's own ops for every step,
so a shared misunderstanding would have to be made twice to go unnoticed.

    X  = tok_emb[ids]                                        "embed"
    for each block i:
      H  = X + Attn(RMSNorm1(X))                             "blocks.i.resid.attn"
      X' = H + SwiGLU(RMSNorm2(H))                           "blocks.i.resid.ffn"
    logits = head(RMSNorm_final(X))                          "logits"
    loss   = mean cross-entropy of the n-1 next-byte predictions (nats)

and its variants (docs/model.md, "Variants"), read from the file's
"glassllm.config" metadata: post-norm (H = Norm(X + Attn(X)), no final norm),
no norms, LayerNorm (torch's F.layer_norm) instead of RMSNorm, no residuals.

Run with Debian's interpreter, /usr/bin/python3 (python3-torch, python3-numpy).

    /usr/bin/python3 tests/reference/torch_model.py WEIGHTS TEXT [--eps E] [--dtype f32|f64] [--json OUT]

prints the loss and writes the same JSON layout as `glassllm inspect --json`:
{"loss": x, "snapshots": {name: {"shape", "data"}}, "grads": {name: {...}}}.
"""

import argparse
import json
import math
import struct
import sys

try:
    import numpy as np
    import torch
    import torch.nn.functional as F
except ImportError as e:  # never pass silently: the comparison must not be skipped
    sys.stderr.write(
        "torch_model.py: cannot import torch/numpy (%s) with %s.\n"
        "Install Debian's python3-torch and python3-numpy (npm run setup does) and run with /usr/bin/python3.\n"
        % (e, sys.executable))
    sys.exit(3)

DTYPES = {"f32": torch.float32, "float32": torch.float32, "f64": torch.float64, "float64": torch.float64}


# ---------------------------------------------------------------- safetensors
def read_safetensors(path):
    """(tensors, metadata): a minimal safetensors reader, F32/F64 only.

    Layout: u64 little-endian header length N, N bytes of JSON
    {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}},
    then the raw little-endian data (offsets relative to its start)."""
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 8:
        raise ValueError("%s: shorter than the 8-byte header length" % path)
    (n,) = struct.unpack("<Q", blob[:8])
    if 8 + n > len(blob):
        raise ValueError("%s: header length %d runs past the end (%d bytes)" % (path, n, len(blob)))
    header = json.loads(blob[8:8 + n].decode("utf-8"))
    data = memoryview(blob)[8 + n:]
    metadata = header.pop("__metadata__", {}) or {}
    widths = {"F32": ("<f4", 4), "F64": ("<f8", 8)}
    tensors = {}
    for name, info in header.items():
        if info["dtype"] not in widths:
            raise ValueError("%s: %s has unsupported dtype %s" % (path, name, info["dtype"]))
        fmt, width = widths[info["dtype"]]
        shape = [int(s) for s in info["shape"]]
        begin, end = (int(o) for o in info["data_offsets"])
        count = int(np.prod(shape)) if shape else 1
        if not (0 <= begin <= end <= len(data)) or end - begin != count * width:
            raise ValueError("%s: %s has bad data_offsets %s for shape %s" % (path, name, [begin, end], shape))
        arr = np.frombuffer(data[begin:end], dtype=fmt).reshape(shape)
        tensors[name] = torch.from_numpy(arr.astype(arr.dtype.newbyteorder("="), copy=True))
    return tensors, metadata


def write_safetensors(path, tensors, metadata=None):
    """Writes {name: tensor} (float32 -> F32, float64 -> F64) as safetensors."""
    header, chunks, offset = {}, [], 0
    for name, t in tensors.items():
        t = t.detach().cpu().contiguous()
        code, fmt = {torch.float32: ("F32", "<f4"), torch.float64: ("F64", "<f8")}[t.dtype]
        raw = t.numpy().astype(fmt).tobytes()
        header[name] = {"dtype": code, "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    if metadata:
        header["__metadata__"] = {k: str(v) for k, v in metadata.items()}
    head = json.dumps(header, separators=(",", ":")).encode("utf-8")
    head += b" " * (-len(head) % 8)  # align the data to 8 bytes, as the format recommends
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(head)))
        f.write(head)
        for c in chunks:
            f.write(c)


# ---------------------------------------------------------------- the model
CONFIG_KEY = "glassllm.config"  # metadata key of the model's config, a JSON object as text


class Config:
    def __init__(self, vocab=256, context=128, d=128, blocks=4, heads=4, hidden=384, eps=1e-6, rope_base=10000.0,
                 norm="pre", norm_kind="rms", residual=True):
        self.vocab, self.context, self.d, self.blocks = vocab, context, d, blocks
        self.heads, self.hidden, self.eps, self.rope_base = heads, hidden, eps, rope_base
        self.norm, self.norm_kind, self.residual = norm, norm_kind, residual

    @staticmethod
    def from_weights(tensors, metadata):
        if CONFIG_KEY in metadata:  # every field the model needs; init_scale and dtype do not change its function
            j = json.loads(metadata[CONFIG_KEY])
            c = Config()
            for key in ("vocab", "context", "d", "blocks", "heads", "hidden", "eps", "rope_base", "norm", "norm_kind",
                        "residual"):
                if key in j:
                    setattr(c, key, j[key])
            return c
        # files without a config: the default architecture, sizes from the shapes
        vocab, d = tensors["tok_emb.weight"].shape
        blocks = 0
        while ("blocks.%d.attn.wq.weight" % blocks) in tensors:
            blocks += 1
        hidden = tensors["blocks.0.ffn.w_gate.weight"].shape[0]
        return Config(vocab=vocab, d=d, blocks=blocks, hidden=hidden,
                      heads=int(metadata.get("heads", 4)), context=int(metadata.get("context", 128)),
                      rope_base=float(metadata.get("rope_base", 10000.0)))

    def to_json(self):
        return json.dumps({k: getattr(self, k) for k in ("vocab", "context", "d", "blocks", "heads", "hidden", "norm",
                                                          "norm_kind", "residual", "rope_base", "eps")})


def norm_names(cfg, prefix):
    if cfg.norm == "none":
        return []
    return [prefix + "gamma"] + ([prefix + "beta"] if cfg.norm_kind == "layer" else [])


def parameter_names(cfg):
    names = ["tok_emb.weight"]
    for i in range(cfg.blocks):
        p = "blocks.%d." % i
        names += norm_names(cfg, p + "norm_attn.") + [p + "attn.%s.weight" % w for w in ("wq", "wk", "wv", "wo")]
        names += norm_names(cfg, p + "norm_ffn.") + [p + "ffn.%s.weight" % w for w in ("w_gate", "w_up", "w_down")]
    return names + (norm_names(cfg, "norm_final.") if cfg.norm == "pre" else []) + ["head.weight"]


def snapshot_names(cfg, patterns=False):
    names = ["embed"]
    for i in range(cfg.blocks):
        for s in ("attn", "ffn"):
            branch = (["attn.pattern"] if patterns and s == "attn" else []) + [s]  # the weights come before the output
            if cfg.norm == "pre":
                parts = ["norm." + s] + branch + (["resid." + s] if cfg.residual else [])
            elif cfg.norm == "post":
                parts = branch + (["sum." + s] if cfg.residual else []) + ["norm." + s]
            else:
                parts = branch + (["resid." + s] if cfg.residual else [])
            names += ["blocks.%d.%s" % (i, part) for part in parts]
    return names + (["norm.final"] if cfg.norm == "pre" else []) + ["logits"]


def rms_norm(x, gamma, eps):
    # x * rsqrt(mean(x^2) + eps) * gamma, along the last axis only
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps) * gamma


def norm(x, P, prefix, cfg, edits=None):
    """The config's norm kind with the parameters under prefix ("blocks.0.norm_attn."), and an
    intervention's change to it if `edits` has one (Edits.norms, keyed by the prefix without its dot)."""
    e = (edits.norms.get(prefix[:-1], {}) if edits is not None else {})
    if e.get("identity"):
        return x
    eps = e.get("eps", cfg.eps)
    gamma = torch.ones_like(P[prefix + "gamma"]) if e.get("unit_gamma") else P[prefix + "gamma"]
    if cfg.norm_kind == "layer":
        return F.layer_norm(x, (cfg.d,), gamma, P[prefix + "beta"], eps)
    return rms_norm(x, gamma, eps)


class Edits:
    """Issue 12's interventions, parsed here from their text form on their own (not by the C++):
    zero:BRANCH, scale:BRANCH:F, ablateHead:B:H, eps:NORM:V, identityNorm:NORM, unitGamma:NORM,
    with BRANCH blocks.i.attn|ffn and NORM blocks.i.norm_attn|norm_ffn or norm_final."""

    def __init__(self, texts=()):
        self.scales, self.ablated, self.norms = {}, set(), {}
        for text in texts:
            f = text.split(":")
            kind = f[0]
            if kind in ("zero", "scale"):
                by = 0.0 if kind == "zero" else float(f[2])
                self.scales[f[1]] = self.scales.get(f[1], 1.0) * by
            elif kind == "ablateHead":
                self.ablated.add((int(f[1]), int(f[2])))
            else:
                name = f[1].replace("norm.final", "norm_final").replace(".norm.attn", ".norm_attn").replace(".norm.ffn", ".norm_ffn")
                e = self.norms.setdefault(name, {})
                if kind == "eps":
                    e["eps"] = float(f[2])
                elif kind == "identityNorm":
                    e["identity"] = True
                elif kind == "unitGamma":
                    e["unit_gamma"] = True
                else:
                    raise ValueError("unknown intervention %r" % text)


def rope_tables(n, head_dim, base, dtype):
    """cos, sin of shape (n, head_dim) for the half-split form; angles in float64, rounded once."""
    half = head_dim // 2
    freq = base ** (-2.0 * torch.arange(half, dtype=torch.float64) / head_dim)   # freq_i = base^(-2i/k)
    angle = torch.outer(torch.arange(n, dtype=torch.float64), freq)              # positions from 0
    angle = torch.cat([angle, angle], dim=-1)                                    # j and j+half share an angle
    return angle.cos().to(dtype), angle.sin().to(dtype)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


# "half": docs/model.md's rotate_half form (j pairs with j + k/2). "interleaved" (GPT-J's
# 2j with 2j+1) is WRONG for this model; compare_with_torch.py --negative-control
# selects it to show that the comparison catches a subtle convention slip.
ROPE_PAIRING = "half"


def apply_rope(x, cos, sin):
    if ROPE_PAIRING == "half":
        return x * cos + rotate_half(x) * sin
    half = x.shape[-1] // 2
    c, s = cos[..., :half].repeat_interleave(2, -1), sin[..., :half].repeat_interleave(2, -1)
    pairs = x.unflatten(-1, (half, 2))
    rotated = torch.stack([-pairs[..., 1], pairs[..., 0]], dim=-1).flatten(-2)
    return x * c + rotated * s


def attention(x, P, prefix, cfg, cos, sin, rec=None, ablated=()):
    B, n, d = x.shape
    k = d // cfg.heads

    def heads(w):  # (B, n, d) -> (B, heads, n, k): head h = output columns h*k .. h*k+k-1
        return F.linear(x, P[prefix + w + ".weight"]).view(B, n, cfg.heads, k).transpose(1, 2)

    q, kk, v = heads("wq"), heads("wk"), heads("wv")
    q, kk = apply_rope(q, cos, sin), apply_rope(kk, cos, sin)
    scores = torch.matmul(q, kk.transpose(-2, -1)) / math.sqrt(k)
    future = torch.ones(n, n, dtype=torch.bool).triu(diagonal=1)
    probs = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
    if rec is not None:
        rec(prefix + "pattern", probs)  # "blocks.i.attn.pattern": (B, heads, n, n)
    mixed = torch.matmul(probs, v)  # (B, heads, n, k)
    if ablated:
        keep = torch.ones(cfg.heads, dtype=x.dtype)
        for h in ablated:
            keep[h] = 0
        mixed = mixed * keep.view(1, cfg.heads, 1, 1)
    out = mixed.transpose(1, 2).reshape(B, n, d)  # heads concatenated in order
    return F.linear(out, P[prefix + "wo.weight"])


def swiglu(x, P, prefix):
    gate = F.silu(F.linear(x, P[prefix + "w_gate.weight"]))
    return F.linear(gate * F.linear(x, P[prefix + "w_up.weight"]), P[prefix + "w_down.weight"])


def forward(P, ids, cfg, snapshots=None, edits=None, patterns=False):
    """ids (B, n) int64 -> (logits (B, n, V), loss or None). Fills `snapshots` (name -> tensor, batch kept),
    with each block's attention weights as "blocks.i.attn.pattern" if `patterns`; applies `edits` (Edits)."""
    B, n = ids.shape
    dtype = P["tok_emb.weight"].dtype
    cos, sin = rope_tables(n, cfg.d // cfg.heads, cfg.rope_base, dtype)
    rec = (lambda name, t: snapshots.__setitem__(name, t)) if snapshots is not None else (lambda name, t: None)

    x = F.embedding(ids, P["tok_emb.weight"])
    rec("embed", x)
    for i in range(cfg.blocks):
        p = "blocks.%d." % i
        ablated = [h for (b, h) in (edits.ablated if edits else ()) if b == i]
        branches = (("attn", lambda t: attention(t, P, p + "attn.", cfg, cos, sin, rec if patterns else None, ablated)),
                    ("ffn", lambda t: swiglu(t, P, p + "ffn.")))
        for s, unscaled in branches:
            scale = edits.scales.get(p + s, 1.0) if edits else 1.0
            branch = (lambda t, b=unscaled, c=scale: b(t) * c) if scale != 1.0 else unscaled
            norm_prefix = p + "norm_%s." % s
            if cfg.norm == "pre":          # X + F(Norm(X))
                n_in = norm(x, P, norm_prefix, cfg, edits)
                rec(p + "norm." + s, n_in)
                f = branch(n_in)
                rec(p + s, f)
                if cfg.residual:
                    f = x + f
                    rec(p + "resid." + s, f)
                x = f
            elif cfg.norm == "post":       # Norm(X + F(X)), the 2017 Transformer
                f = branch(x)
                rec(p + s, f)
                if cfg.residual:
                    f = x + f
                    rec(p + "sum." + s, f)
                x = norm(f, P, norm_prefix, cfg, edits)
                rec(p + "norm." + s, x)
            else:                          # X + F(X)
                f = branch(x)
                rec(p + s, f)
                if cfg.residual:
                    f = x + f
                    rec(p + "resid." + s, f)
                x = f
    if cfg.norm == "pre":
        x = norm(x, P, "norm_final.", cfg, edits)
        rec("norm.final", x)
    logits = F.linear(x, P["head.weight"])
    rec("logits", logits)
    loss = None
    if n >= 2:
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, cfg.vocab), ids[:, 1:].reshape(-1))
    return logits, loss


def load_params(path, dtype):
    tensors, metadata = read_safetensors(path)
    cfg = Config.from_weights(tensors, metadata)
    expected = set(parameter_names(cfg))
    if set(tensors) != expected:
        raise ValueError("%s: keys differ from docs/model.md: missing %s, extra %s"
                         % (path, sorted(expected - set(tensors)), sorted(set(tensors) - expected)))
    P = {name: tensors[name].to(dtype).clone().requires_grad_(True) for name in parameter_names(cfg)}
    return P, cfg


def stream_names(cfg):
    """The residual stream's snapshots from the embedding up (what the next sublayer reads)."""
    names = ["embed"]
    for i in range(cfg.blocks):
        for s in ("attn", "ffn"):
            after = "norm." + s if cfg.norm == "post" else ("resid." + s if cfg.residual else s)
            names.append("blocks.%d.%s" % (i, after))
    return names


def logit_lens(P, cfg, snaps, edits=None):
    """(depths, n, V): the final norm (pre-norm only) and the head applied to each stream snapshot of batch row 0."""
    rows = []
    for name in stream_names(cfg):
        x = snaps[name][0]
        if cfg.norm == "pre":
            x = norm(x, P, "norm_final.", cfg, edits)
        rows.append(F.linear(x, P["head.weight"]))
    return torch.stack(rows)


def inspect(weights, text, eps=None, dtype="f32", interventions=(), patterns=False):
    """Loss, snapshots and gradients of one text, batch axis removed: the data of `glassllm inspect --json`
    (with patterns, interventions and the logit lens: `glassllm interp --json`)."""
    P, cfg = load_params(weights, DTYPES[dtype])
    if eps is not None:
        cfg.eps = eps
    data = text.encode("utf-8")
    if len(data) < 2 or len(data) > cfg.context:
        raise ValueError("text must be 2..%d bytes, got %d" % (cfg.context, len(data)))
    ids = torch.tensor(list(data), dtype=torch.long).unsqueeze(0)
    snaps = {}
    edits = Edits(interventions) if interventions else None
    _, loss = forward(P, ids, cfg, snaps, edits, patterns)
    for t in snaps.values():
        t.retain_grad()
    loss.backward()
    out = {"loss": loss.item(), "snapshots": {}, "grads": {}, "cfg": cfg}
    with torch.no_grad():
        out["lens"] = logit_lens(P, cfg, snaps, edits)
    for name in snapshot_names(cfg, patterns):
        out["snapshots"][name] = snaps[name].detach()[0]
        out["grads"][name] = snaps[name].grad[0]
    for name in parameter_names(cfg):  # None: an intervention cut the parameter off the loss (identityNorm, unitGamma)
        out["grads"][name] = None if P[name].grad is None else P[name].grad.detach()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("weights")
    ap.add_argument("text")
    ap.add_argument("--eps", type=float, default=None)
    ap.add_argument("--dtype", choices=["f32", "f64"], default="f32")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    torch.set_num_threads(1)
    r = inspect(a.weights, a.text, a.eps, a.dtype)
    print("loss %.6f nats/byte over %d predictions (torch %s)" % (r["loss"], len(a.text.encode()) - 1, a.dtype))
    if a.json:
        enc = lambda t: {"shape": list(t.shape), "data": t.reshape(-1).tolist()}
        with open(a.json, "w") as f:
            json.dump({"loss": r["loss"], "snapshots": {k: enc(v) for k, v in r["snapshots"].items()},
                       "grads": {k: enc(v) for k, v in r["grads"].items()}}, f)


if __name__ == "__main__":
    main()
