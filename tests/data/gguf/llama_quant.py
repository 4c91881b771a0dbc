"""Which type llama-quantize gives each tensor, for Q4_K_M and Q8_0 files.

Written from llama.cpp's src/llama-quant.cpp: tensor_allows_quantization
(only 2-D and larger tensors whose name ends in "weight" and is not a norm),
llama_tensor_get_type_impl (output.weight, and token_embd.weight when there
is no output.weight, get Q6_K unless the file type is Q8_0; for Q4_K_M the
attn_v (or fused attn_qkv: category_is_attn_v puts it in the same branch,
before the Q5_K branch meant for it) and ffn_down of the layers
use_more_bits picks get Q6_K, everything else the default Q4_K), tensor_type_fallback (a
row that is not a whole number of 256-element blocks falls back to Q5_0
for Q4_K, Q8_0 for Q6_K, Q5_1 for Q5_K, then F16), the tensor order of
llama_model_loader (weight_name_comparer: tensors outside the layers first,
then layer by layer, each group sorted by name) and
llama_model_quantize_impl (general.file_type and
general.quantization_version set to 2).
"""
import re

FILE_TYPES = {"Q4_K_M": 15, "Q8_0": 7}
BLOCK = {"Q4_K": 256, "Q5_K": 256, "Q6_K": 256, "Q8_0": 32, "Q5_0": 32, "Q5_1": 32, "F16": 1}
FALLBACK = {"Q4_K": "Q5_0", "Q5_K": "Q5_1", "Q6_K": "Q8_0"}


def layer_of(name):
    m = re.match(r"blk\.(\d+)\.", name)
    return int(m.group(1)) if m else -1


def order(names):
    """llama_model_loader's weight_name_comparer."""
    return sorted(names, key=lambda n: (layer_of(n), n))


def use_more_bits(i, n):
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2


def fallback(t, ne0):
    if ne0 % BLOCK[t] == 0:
        return t
    t = FALLBACK.get(t, t)
    return t if ne0 % BLOCK[t] == 0 else "F16"


def tensor_types(shapes, n_layer, ftype):
    """shapes: {name: ne (ggml order)} -> {name: type name}, walking the names in the loader's order."""
    tied = "output.weight" not in shapes
    default = {"Q4_K_M": "Q4_K", "Q8_0": "Q8_0"}[ftype]
    n_wv = sum(1 for n in shapes if "attn_v.weight" in n or "attn_qkv.weight" in n)
    i_wv = 0
    out = {}
    for name in order(shapes):
        ne = shapes[name]
        if len(ne) < 2 or not name.endswith("weight") or "_norm.weight" in name:
            out[name] = "F32"
            continue
        t = default
        if name == "output.weight" or (tied and name == "token_embd.weight"):
            t = "Q8_0" if ne[0] % 256 != 0 else ("Q6_K" if default != "Q8_0" else "Q8_0")
        elif name == "token_embd.weight":
            t = default
        elif "attn_v.weight" in name or "attn_qkv.weight" in name:
            if ftype == "Q4_K_M" and use_more_bits(i_wv, n_wv):
                t = "Q6_K"
            i_wv += 1
        elif "ffn_down" in name and ftype == "Q4_K_M" and use_more_bits(layer_of(name), n_layer):
            t = "Q6_K"
        out[name] = fallback(t, ne[0])
    return out
