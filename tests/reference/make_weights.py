#!/usr/bin/python3
"""Random weights for the default model with LARGE values, for the reference comparison.

The trainer's initialisation (std 0.02) gives near-uniform attention and
logits, which hides mistakes in RoPE, masking and softmax. These weights make
attention sharp: every matrix ~ normal(0, STD) (default 0.2), the embedding
~ normal(0, EMB_STD), and every RMSNorm gamma ~ uniform(0.5, 1.5).

    /usr/bin/python3 tests/reference/make_weights.py OUT [--std 0.2] [--emb-std 0.5] [--seed 0] [--dtype f32|f64]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402  (torch_model fails loudly first if torch is missing)
from torch_model import Config, parameter_names, write_safetensors  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description="large random weights for the default GlassLLM model")
    ap.add_argument("out")
    ap.add_argument("--std", type=float, default=0.2)
    ap.add_argument("--emb-std", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dtype", choices=["f32", "f64"], default="f32")
    a = ap.parse_args()
    cfg = Config()
    gen = torch.Generator().manual_seed(a.seed)
    dtype = {"f32": torch.float32, "f64": torch.float64}[a.dtype]
    shapes = {"tok_emb.weight": (cfg.vocab, cfg.d), "norm_final.gamma": (cfg.d,), "head.weight": (cfg.vocab, cfg.d)}
    for i in range(cfg.blocks):
        p = "blocks.%d." % i
        shapes[p + "norm_attn.gamma"] = shapes[p + "norm_ffn.gamma"] = (cfg.d,)
        for w in ("wq", "wk", "wv", "wo"):
            shapes[p + "attn.%s.weight" % w] = (cfg.d, cfg.d)
        shapes[p + "ffn.w_gate.weight"] = shapes[p + "ffn.w_up.weight"] = (cfg.hidden, cfg.d)
        shapes[p + "ffn.w_down.weight"] = (cfg.d, cfg.hidden)
    tensors = {}
    for name in parameter_names(cfg):
        shape = shapes[name]
        if name.endswith("gamma"):
            t = 0.5 + torch.rand(shape, generator=gen, dtype=torch.float64)
        else:
            std = a.emb_std if name == "tok_emb.weight" else a.std
            t = std * torch.randn(shape, generator=gen, dtype=torch.float64)
        tensors[name] = t.to(dtype)
    write_safetensors(a.out, tensors, {"heads": cfg.heads, "context": cfg.context})
    print("wrote %s: std %g, embedding std %g, gammas U(0.5, 1.5), seed %d, %s"
          % (a.out, a.std, a.emb_std, a.seed, a.dtype))


if __name__ == "__main__":
    main()
