"""What a GGUF reader must make of a file, written down as the spec that
tests/data/families/make_fixtures.py's reference forward takes, and run
through that forward (imported, not copied).

Written from llama.cpp's src/llama-model.cpp (load_hparams: which keys each
architecture reads and their defaults; the Gemma 2 and 3 query scale
1/sqrt(key_length) except for the 27B models; sliding windows: gemma2 on even
layers, gemma3 on layers il % 6 < 5, phi3 on every layer when
sliding_window > 0 (gemma3 too: no key, no window), none for llama, qwen2, qwen3 and gemma; gemma3's
sliding layers turn with rope.freq_base_swa, default 10000, unscaled),
src/llama-hparams.cpp (set_swa_pattern) and the graph code: rope type NORM
(adjacent pairs) for arch llama, NEOX (halves) for the others, rope_freqs
dividing the frequencies, Gemma's embedding scale sqrt(n_embd), norms used
as stored (the converter added Gemma's 1), final_logit_softcapping for
gemma2 and (when present) gemma3.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "families"))
import make_fixtures as mf  # noqa: E402

import ggml_quants as gq  # noqa: E402
from gguf_format import Reader  # noqa: E402

_inv_freq = mf.inv_freq


def _inv_freq_with_factors(theta, scaling, dim, trap):
    """rope_freqs.weight divides each frequency (llama.cpp's freq_factors)."""
    if scaling and scaling.get("rope_type") == "freq_factors":
        f = 1.0 / theta ** (np.arange(0, dim, 2, dtype=np.float64) / dim)
        return f / np.asarray(scaling["factors"], dtype=np.float64)
    return _inv_freq(theta, scaling, dim, trap)


mf.inv_freq = _inv_freq_with_factors


def load(path):
    """(metadata dict, {tensor name: float32 array in numpy order}, {name: type name})."""
    with open(path, "rb") as f:
        data = f.read()
    info = Reader(data).parse()
    tensors, types = {}, {}
    for name, t in info["tensors"].items():
        tname = gq.TYPE_NAMES[t["type"]]
        ne = t["ne"]
        n_rows = int(np.prod(ne[1:])) if len(ne) > 1 else 1
        size = n_rows * gq.row_bytes(tname, ne[0])
        start = info["data_start"] + t["offset"]
        raw = np.frombuffer(data[start:start + size], np.uint8)
        tensors[name] = gq.dequantize(tname, raw, ne[0]).reshape(list(reversed(ne)))
        types[name] = tname
    return info["kv"], tensors, types


def spec_from_gguf(kv, tensors):
    arch = kv["general.architecture"]

    def g(key, default=None):
        return kv.get(f"{arch}.{key}", default)

    L, d, H = g("block_count"), g("embedding_length"), g("attention.head_count")
    KV = g("attention.head_count_kv", H)
    hd = g("attention.key_length", d // H)
    gemma = arch.startswith("gemma")
    s = {"type": arch, "d": d, "heads": H, "kv": KV, "head_dim": hd, "layers": L,
         "vocab": tensors["token_embd.weight"].shape[0], "eps": g("attention.layer_norm_rms_epsilon"),
         "gemma_norm": False, "embed_scale": gemma, "act": "gelu_tanh" if gemma else "silu",
         "sandwich": arch in ("gemma2", "gemma3"), "qk_norm": "blk.0.attn_q_norm.weight" in tensors,
         "fused": "blk.0.attn_qkv.weight" in tensors, "qkv_bias": "blk.0.attn_q.bias" in tensors,
         "o_bias": "blk.0.attn_output.bias" in tensors, "tied": "output.weight" not in tensors,
         "scaling": hd ** -0.5, "attn_cap": g("attn_logit_softcapping") if arch == "gemma2" else None,
         "final_cap": (g("final_logit_softcapping") or None) if arch in ("gemma2", "gemma3") else None,
         "rotary": g("rope.dimension_count", hd)}
    window = g("attention.sliding_window")
    if arch == "gemma2":
        windows = [window if il % 2 == 0 else None for il in range(L)]
    elif arch == "gemma3":  # no window at all when the key is absent or 0
        windows = [window if window and il % 6 < 5 else None for il in range(L)]
    elif arch == "phi3":
        windows = [window if window else None] * L
    else:
        windows = [None] * L
    s["windows"] = windows
    theta = g("rope.freq_base", 10000.0)
    scaling = None
    if g("rope.scaling.type") == "linear":
        scaling = {"rope_type": "linear", "factor": g("rope.scaling.factor")}
    if "rope_freqs.weight" in tensors:
        scaling = {"rope_type": "freq_factors", "factors": tensors["rope_freqs.weight"]}
    if arch == "gemma3":
        s["rope"] = [(g("rope.freq_base_swa", 10000.0), None) if windows[il] else (theta, scaling) for il in range(L)]
    else:
        s["rope"] = [(theta, scaling)] * L
    return s


def hf_named(tensors, arch):
    """GGUF tensors under the Hugging Face names make_fixtures.forward reads (no un-permuting)."""
    names = {"token_embd.weight": "model.embed_tokens.weight", "output_norm.weight": "model.norm.weight",
             "output.weight": "lm_head.weight"}
    per_layer = {"attn_norm.weight": "input_layernorm.weight", "attn_q.weight": "self_attn.q_proj.weight",
                 "attn_k.weight": "self_attn.k_proj.weight", "attn_v.weight": "self_attn.v_proj.weight",
                 "attn_q.bias": "self_attn.q_proj.bias", "attn_k.bias": "self_attn.k_proj.bias",
                 "attn_v.bias": "self_attn.v_proj.bias", "attn_output.weight": "self_attn.o_proj.weight",
                 "attn_qkv.weight": "self_attn.qkv_proj.weight", "attn_q_norm.weight": "self_attn.q_norm.weight",
                 "attn_k_norm.weight": "self_attn.k_norm.weight", "ffn_gate.weight": "mlp.gate_proj.weight",
                 "ffn_down.weight": "mlp.down_proj.weight",
                 "ffn_up.weight": "mlp.gate_up_proj.weight" if arch == "phi3" else "mlp.up_proj.weight",
                 "post_ffw_norm.weight": "post_feedforward_layernorm.weight",
                 "post_attention_norm.weight": "post_attention_layernorm.weight",
                 "ffn_norm.weight": ("pre_feedforward_layernorm.weight" if arch in ("gemma2", "gemma3")
                                     else "post_attention_layernorm.weight")}
    out = {}
    for name, w in tensors.items():
        if name in names:
            out[names[name]] = w
        elif name.startswith("blk."):
            _, bid, rest = name.split(".", 2)
            out[f"model.layers.{bid}.{per_layer[rest]}"] = w
    return out


def run(kv, tensors, ids):
    """Reference numbers under the reading above: (spec, reference run, ablated run)."""
    s = spec_from_gguf(kv, tensors)
    P = hf_named(tensors, kv["general.architecture"])
    trap = frozenset(["interleaved"]) if kv["general.architecture"] == "llama" else frozenset()
    return s, mf.forward(s, P, ids, trap=trap), mf.forward(s, P, ids, ablate=mf.ABLATE, trap=trap)
