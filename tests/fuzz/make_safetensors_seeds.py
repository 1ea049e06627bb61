#!/usr/bin/env python3
"""Write the seed corpus of fuzz_safetensors (tests/fuzz/corpus/fuzz_safetensors/).

    python3 tests/fuzz/make_safetensors_seeds.py           # rewrite the corpus
    python3 tests/fuzz/make_safetensors_seeds.py --check   # exit 1 if the committed corpus differs

Small weights files, valid and near-valid: the smallest model the config's
ranges allow (vocab 2, context 2, d 16, 1 block, 2 heads, hidden 1) in each
variant and dtype, with and without its glassllm.config, and one change away
from valid in each way a loader must refuse (or, for NaN values, warn about).
The names and shapes follow docs/model.md. Deterministic: the same files every
run. Standard library only.
"""
import json
import math
import struct
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "corpus" / "fuzz_safetensors"

TINY = {"vocab": 2, "context": 2, "d": 16, "blocks": 1, "heads": 2, "hidden": 1, "norm": "pre", "norm_kind": "rms",
        "residual": True, "rope_base": 10000.0, "eps": 1e-06, "init_scale": "depth", "dtype": "float32"}


def params(cfg):
    """(name, shape) of every parameter of a model with this config, docs/model.md's names."""
    v, d, h = cfg["vocab"], cfg["d"], cfg["hidden"]
    layer = cfg["norm_kind"] == "layer"
    out = [("tok_emb.weight", [v, d])]
    for b in range(cfg["blocks"]):
        p = f"blocks.{b}."
        for norm in ("norm_attn", "norm_ffn"):
            if cfg["norm"] != "none":
                out.append((p + norm + ".gamma", [d]))
                if layer:
                    out.append((p + norm + ".beta", [d]))
        out += [(p + f"attn.{w}.weight", [d, d]) for w in ("wq", "wk", "wv", "wo")]
        out += [(p + "ffn.w_gate.weight", [h, d]), (p + "ffn.w_up.weight", [h, d]), (p + "ffn.w_down.weight", [d, h])]
    if cfg["norm"] == "pre":
        out.append(("norm_final.gamma", [d]))
        if layer:
            out.append(("norm_final.beta", [d]))
    out.append(("head.weight", [v, d]))
    return out


def values(name, n):
    """Small deterministic values, different per tensor (norm gains near 1)."""
    seed = sum(map(ord, name))
    base = 1.0 if name.endswith("gamma") else 0.0
    return [base + ((seed * 31 + i * 17) % 23 - 11) / 64 for i in range(n)]


def tensors(cfg, dtype="F32"):
    return [(name, dtype, shape, values(name, math.prod(shape))) for name, shape in params(cfg)]


def safetensors(entries, metadata=None, header_edit=None, pad=True):
    """entries: (name, dtype, shape, values); header_edit(header) may change the header before writing."""
    header, blob, offset = {}, b"", 0
    for name, dtype, shape, vals in entries:
        fmt = "<%d%s" % (len(vals), "f" if dtype == "F32" else "d")
        data = struct.pack(fmt, *vals)
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(data)]}
        blob += data
        offset += len(data)
    if metadata is not None:
        header["__metadata__"] = metadata
    if header_edit:
        header_edit(header)
    text = header if isinstance(header, str) else json.dumps(header, separators=(",", ":"))
    raw = text.encode()
    if pad:
        raw += b" " * (-len(raw) % 8)
    return struct.pack("<Q", len(raw)) + raw + blob


def meta(cfg, **extra):
    m = {"format": "glassllm", "glassllm.config": json.dumps(cfg, separators=(",", ":"))}
    m.update(extra)
    return m


def seeds():
    s = {}
    # valid: each variant, each dtype, with and without the config
    s["valid_tiny"] = safetensors(tensors(TINY), meta(TINY))
    f64 = dict(TINY, dtype="float64")
    s["valid_tiny_f64"] = safetensors(tensors(f64, "F64"), meta(f64))
    for name, change in [("post_layer", {"norm": "post", "norm_kind": "layer"}), ("no_norm", {"norm": "none"}),
                         ("no_residual", {"residual": False}), ("two_blocks", {"blocks": 2, "heads": 1})]:
        cfg = dict(TINY, **change)
        s["valid_" + name] = safetensors(tensors(cfg), meta(cfg))
    s["valid_legacy"] = safetensors(tensors(TINY), {"heads": "2", "context": "2", "rope_base": "10000.000000"})
    s["valid_no_metadata"] = safetensors(tensors(TINY))
    s["valid_plain"] = safetensors([("a", "F32", [2, 2], [1, 2, 3, 4]), ("b", "F64", [0], []), ("c", "F32", [], [5])])
    s["valid_empty_header"] = safetensors([], pad=False)
    s["valid_unpadded"] = safetensors(tensors(TINY), meta(TINY), pad=False)
    # NaN and infinity in the values: loaded, with a warning naming the parameters
    t = tensors(TINY)
    t[0] = (t[0][0], t[0][1], t[0][2], [math.nan, math.inf] + t[0][3][2:])
    t[-1] = (t[-1][0], t[-1][1], t[-1][2], [-math.inf] * len(t[-1][3]))
    s["nonfinite_values"] = safetensors(t, meta(TINY))

    # near-valid: one thing wrong each
    good = s["valid_tiny"]
    s["bad_truncated_data"] = good[:-7]
    s["bad_truncated_header"] = good[:40]
    s["bad_short"] = good[:5]
    s["bad_length_past_end"] = struct.pack("<Q", len(good)) + good[8:]
    s["bad_header_not_object"] = safetensors([], header_edit=None)[:8] + b"[]      "

    def edit(fn):
        return safetensors(tensors(TINY), meta(TINY), header_edit=fn)

    s["bad_overlap"] = edit(lambda h: h["head.weight"].update(data_offsets=h["tok_emb.weight"]["data_offsets"]))
    s["bad_shape_vs_offsets"] = edit(lambda h: h["tok_emb.weight"].update(shape=[2, 17]))
    s["bad_dtype_f16"] = edit(lambda h: h["tok_emb.weight"].update(dtype="F16"))
    s["bad_shape_float"] = edit(lambda h: h["tok_emb.weight"].update(shape=[2.0, 16]))
    s["bad_shape_negative"] = edit(lambda h: h["tok_emb.weight"].update(shape=[-2, -16]))
    s["bad_shape_zero_huge"] = edit(lambda h: h.update({"z": {"dtype": "F32", "shape": [0, 2 ** 53, 2 ** 53], "data_offsets": [0, 0]}}))
    # a byte count past what uint64_t holds (2^66): the message must not convert it to one (the fuzzer found 1.6e+33)
    s["bad_shape_bytes_past_uint64"] = edit(lambda h: h["tok_emb.weight"].update(shape=[2 ** 32, 2 ** 32]))
    s["bad_offsets_reversed"] = edit(lambda h: h["norm_final.gamma"].update(data_offsets=h["norm_final.gamma"]["data_offsets"][::-1]))
    s["bad_missing_tensor"] = edit(lambda h: h.pop("blocks.0.attn.wq.weight"))
    s["bad_extra_tensor"] = edit(lambda h: h.update({"blocks.0.extra": {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]}}))
    s["bad_block_index"] = edit(lambda h: h.update({"blocks.x.y": {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]}}))
    s["bad_blocks_count"] = edit(lambda h: h.update({"blocks.7.y": {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]}}))
    s["bad_metadata_not_string"] = edit(lambda h: h["__metadata__"].update(heads=2))
    s["bad_duplicate_key"] = safetensors(tensors(TINY), header_edit=lambda h: None)  # replaced below
    for name, cfg in [("config_d_lies", dict(TINY, d=32)), ("config_blocks_30", dict(TINY, blocks=30)),
                      ("config_unknown_field", dict(TINY, depth=3)), ("config_heads_odd", dict(TINY, heads=16)),
                      ("config_layer_on_rms", dict(TINY, norm_kind="layer")), ("config_dtype_f64_on_f32", dict(TINY, dtype="float64")),
                      ("config_eps_string", dict(TINY, eps="1e-6")), ("config_vocab_float", dict(TINY, vocab=2.0)),
                      ("config_huge_hidden", dict(TINY, hidden=2 ** 40))]:
        s["bad_" + name] = safetensors(tensors(TINY), meta(cfg))
    s["bad_config_not_json"] = safetensors(tensors(TINY), {"glassllm.config": "{vocab: 2"})
    s["bad_legacy_heads_garbage"] = safetensors(tensors(TINY), {"heads": "2x"})
    s["bad_legacy_rope_nan"] = safetensors(tensors(TINY), {"rope_base": "nan"})
    s["bad_legacy_context_space"] = safetensors(tensors(TINY), {"context": " 2"})
    s["bad_legacy_heads_disagree"] = safetensors(tensors(TINY), dict(meta(TINY), heads="4"))
    # a duplicate key: the strict reader refuses it (a plain JSON reader keeps the last)
    dup = good[8:8 + struct.unpack("<Q", good[:8])[0]].decode()
    dup = dup.replace('{"tok_emb.weight"', '{"head.weight":{"dtype":"F32","shape":[0],"data_offsets":[0,0]},"tok_emb.weight"', 1)
    dup_raw = dup.encode() + b" " * (-len(dup) % 8)
    s["bad_duplicate_key"] = struct.pack("<Q", len(dup_raw)) + dup_raw + good[8 + struct.unpack("<Q", good[:8])[0]:]
    s["bad_deep_nesting"] = safetensors([], header_edit=lambda h: h.update({"a": [[[[[1]]]]]}))
    return s


def main():
    made = seeds()
    if sys.argv[1:] == ["--check"]:  # the CLI stage runs this (tests/bad_input/cli_cases.py)
        have = {p.name: p.read_bytes() for p in OUT.iterdir()} if OUT.is_dir() else {}
        stale = sorted(set(have) ^ set(made) | {n for n in made if n in have and have[n] != made[n]})
        for name in stale:
            print(f"make_safetensors_seeds: {OUT.name}/{name} does not match the script: run it and commit the result")
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        if old.name not in made:
            old.unlink()
    for name, data in made.items():
        (OUT / name).write_bytes(data)
    print(f"make_safetensors_seeds: {len(made)} files in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
