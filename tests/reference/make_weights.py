#!/usr/bin/python3
"""Random weights with LARGE values for the reference comparison, for the default model or a variant.

The trainer's initialisation (std 0.02) gives near-uniform attention and
logits, which hides mistakes in RoPE, masking and softmax. These weights make
attention sharp: every matrix ~ normal(0, STD) (default 0.2), the embedding
~ normal(0, EMB_STD), every norm's gamma ~ uniform(0.5, 1.5) and every
LayerNorm beta ~ normal(0, BETA_STD). The file's metadata holds the model's
config ("glassllm.config"), as `glassllm init` writes it.

    /usr/bin/python3 tests/reference/make_weights.py OUT [--std 0.2] [--emb-std 0.5] [--beta-std 0.2] [--seed 0]
        [--dtype f32|f64] [--blocks N] [--d N] [--heads N] [--ctx N] [--norm pre|post|none] [--norm-kind rms|layer]
        [--no-residual] [--eps E]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402  (torch_model fails loudly first if torch is missing)
from torch_model import CONFIG_KEY, Config, parameter_names, write_safetensors  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description="large random weights for a GlassLLM model")
    ap.add_argument("out")
    ap.add_argument("--std", type=float, default=0.2)
    ap.add_argument("--emb-std", type=float, default=0.5)
    ap.add_argument("--beta-std", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dtype", choices=["f32", "f64"], default="f32")
    ap.add_argument("--blocks", type=int, default=4)
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--ctx", type=int, default=128)
    ap.add_argument("--norm", choices=["pre", "post", "none"], default="pre")
    ap.add_argument("--norm-kind", choices=["rms", "layer"], default="rms")
    ap.add_argument("--no-residual", action="store_true")
    ap.add_argument("--eps", type=float, default=1e-6)
    a = ap.parse_args()
    cfg = Config(d=a.d, blocks=a.blocks, heads=a.heads, hidden=3 * a.d, context=a.ctx, eps=a.eps, norm=a.norm,
                 norm_kind=a.norm_kind, residual=not a.no_residual)
    gen = torch.Generator().manual_seed(a.seed)
    dtype = {"f32": torch.float32, "f64": torch.float64}[a.dtype]
    tensors = {}
    for name in parameter_names(cfg):
        if name.endswith(".gamma"):
            t = 0.5 + torch.rand((cfg.d,), generator=gen, dtype=torch.float64)
        elif name.endswith(".beta"):
            t = a.beta_std * torch.randn((cfg.d,), generator=gen, dtype=torch.float64)
        else:
            if name in ("tok_emb.weight", "head.weight"):
                shape = (cfg.vocab, cfg.d)
            elif name.endswith(("w_gate.weight", "w_up.weight")):
                shape = (cfg.hidden, cfg.d)
            elif name.endswith("w_down.weight"):
                shape = (cfg.d, cfg.hidden)
            else:
                shape = (cfg.d, cfg.d)
            std = a.emb_std if name == "tok_emb.weight" else a.std
            t = std * torch.randn(shape, generator=gen, dtype=torch.float64)
        tensors[name] = t.to(dtype)
    config = json.loads(cfg.to_json())
    config["dtype"] = {"f32": "float32", "f64": "float64"}[a.dtype]
    write_safetensors(a.out, tensors, {CONFIG_KEY: json.dumps(config), "format": "glassllm"})
    print("wrote %s: %s, std %g, embedding std %g, gammas U(0.5, 1.5), seed %d, %s"
          % (a.out, cfg.to_json(), a.std, a.emb_std, a.seed, a.dtype))


if __name__ == "__main__":
    main()
