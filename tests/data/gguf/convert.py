"""A Hugging Face folder of tests/data/families as llama.cpp's converter
writes it (convert_hf_to_gguf.py with --outtype f32), without torch or
transformers.

Written from llama.cpp's conversion/base.py (TextModel.set_gguf_parameters,
prepare_tensors, get_vocab_base, _set_vocab_gpt2, _set_vocab_sentencepiece),
conversion/llama.py (LlamaModel: vocab_size, rope.dimension_count, the Q/K
permute, rope_freqs for llama3 rope scaling), conversion/qwen.py (Qwen2Model,
Qwen3Model), conversion/gemma.py (GemmaModel, Gemma2Model, Gemma3Model:
norms + 1, no lm_head), conversion/phi.py (Phi3MiniModel) and gguf-py's
vocab.py (SpecialVocab: merges, special ids, add_bos/add_eos).

Where these tiny folders cannot follow the converter literally, the file is
written as the converter writes it for the real checkpoints of the family
(README.md lists each case): the tokenizer.ggml.pre name is that of the
real family (the converter picks it from a hash of the real tokenizer's
output); SentencePiece scores are those a tokenizer.model would carry
(-rank of the merge that makes the piece), since the folders ship only
tokenizer.json; and the llama3 rope_freqs use rope_scaling's
original_max_position_embeddings (the converter reads a top-level key that
real Llama 3.x configs do not have and so always uses its default, 8192,
which is their value anyway).
"""
import json
import math
import os
import struct

import numpy as np

from gguf_format import Gguf
import ggml_quants as gq

ARCH = {"llama": "llama", "mistral": "llama", "qwen2": "qwen2", "qwen3": "qwen3", "gemma": "gemma",
        "gemma2": "gemma2", "gemma3_text": "gemma3", "phi3": "phi3"}
FILE_TYPE = {"F32": 0, "F16": 1, "Q8_0": 7, "Q4_K_M": 15, "BF16": 32}


# ---------------------------------------------------------------- reading a folder


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        base = 8 + n
        out = {}
        for name, info in header.items():
            if name == "__metadata__":
                continue
            a, b = info["data_offsets"]
            f.seek(base + a)
            raw = f.read(b - a)
            dt = info["dtype"]
            if dt == "F32":
                arr = np.frombuffer(raw, "<f4")
            elif dt == "F16":
                arr = np.frombuffer(raw, "<f2").astype(np.float32)
            elif dt == "BF16":
                arr = (np.frombuffer(raw, "<u2").astype(np.uint32) << 16).view(np.float32)
            else:
                raise ValueError(dt)
            out[name] = arr.astype(np.float32).reshape(info["shape"])
        return out


def read_folder(path):
    def load(name):
        with open(os.path.join(path, name), encoding="utf-8") as f:
            return json.load(f)
    index = os.path.join(path, "model.safetensors.index.json")
    tensors = {}
    if os.path.exists(index):
        for part in sorted(set(load("model.safetensors.index.json")["weight_map"].values())):
            tensors.update(read_safetensors(os.path.join(path, part)))
    else:
        tensors = read_safetensors(os.path.join(path, "model.safetensors"))
    return load("config.json"), load("tokenizer.json"), load("tokenizer_config.json"), tensors


# ---------------------------------------------------------------- tensors


def permute(w, n_head):
    """LlamaModel.permute: rows viewed as [n_head, 2, head_dim/2, ...], the two middle axes swapped."""
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def gguf_name(hf, arch):
    sandwich = arch in ("gemma2", "gemma3")
    fixed = {"model.embed_tokens.weight": "token_embd.weight", "model.norm.weight": "output_norm.weight",
             "lm_head.weight": "output.weight"}
    if hf in fixed:
        return fixed[hf]
    parts = hf.split(".")
    bid, rest = parts[2], ".".join(parts[3:])
    table = {"input_layernorm.weight": "attn_norm.weight",
             "post_attention_layernorm.weight": "post_attention_norm.weight" if sandwich else "ffn_norm.weight",
             "pre_feedforward_layernorm.weight": "ffn_norm.weight",
             "post_feedforward_layernorm.weight": "post_ffw_norm.weight",
             "self_attn.q_norm.weight": "attn_q_norm.weight", "self_attn.k_norm.weight": "attn_k_norm.weight",
             "self_attn.qkv_proj.weight": "attn_qkv.weight", "self_attn.o_proj.weight": "attn_output.weight",
             "mlp.gate_proj.weight": "ffn_gate.weight", "mlp.up_proj.weight": "ffn_up.weight",
             "mlp.down_proj.weight": "ffn_down.weight", "mlp.gate_up_proj.weight": "ffn_up.weight"}
    for p, g in (("q", "attn_q"), ("k", "attn_k"), ("v", "attn_v")):
        for kind in ("weight", "bias"):
            table[f"self_attn.{p}_proj.{kind}"] = f"{g}.{kind}"
    return f"blk.{bid}.{table[rest]}"


def llama3_rope_factors(config):
    """LlamaModel.generate_extra_tensors, in float32 as the converter computes it."""
    rs = config["rope_scaling"]
    base = config.get("rope_theta", 10000.0)
    dim = config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]
    freqs = (1.0 / (np.float32(base) ** (np.arange(0, dim, 2, dtype=np.float32) / np.float32(dim)))).astype(np.float32)
    factor, low, high = rs.get("factor", 8.0), rs.get("low_freq_factor", 1.0), rs.get("high_freq_factor", 4.0)
    old = rs.get("original_max_position_embeddings", config.get("original_max_position_embeddings", 8192))
    out = []
    for f in freqs:
        wavelen = 2 * math.pi / float(f)
        if wavelen < old / high:
            out.append(1.0)
        elif wavelen > old / low:
            out.append(factor)
        else:
            smooth = (old / wavelen - low) / (high - low)
            out.append(1 / ((1 - smooth) / factor + smooth))
    return np.array(out, dtype=np.float32)


def gguf_tensors(config, hf):
    """[(gguf name, float32 array in numpy order)] in the converter's order: extra tensors, then the file's."""
    t = config["model_type"]
    arch = ARCH[t]
    out = []
    rs = config.get("rope_scaling") or {}
    if arch == "llama" and rs.get("rope_type", rs.get("type", "")).lower() == "llama3":
        out.append(("rope_freqs.weight", llama3_rope_factors(config)))
    H = config["num_attention_heads"]
    KV = config.get("num_key_value_heads") or H
    for name in hf:  # the safetensors files list tensors sorted by name
        w = np.asarray(hf[name], dtype=np.float32)
        if arch.startswith("gemma") and name == "lm_head.weight":
            continue
        if arch == "llama":
            if name.endswith(("q_proj.weight", "q_proj.bias")):
                w = permute(w, H)
            if name.endswith(("k_proj.weight", "k_proj.bias")):
                w = permute(w, KV)
        if arch.startswith("gemma") and name.endswith("norm.weight"):
            w = (w + np.float32(1)).astype(np.float32)
        out.append((gguf_name(name, arch), w))
    return out


# ---------------------------------------------------------------- metadata


def hparams(g, config, file_type):
    """set_gguf_parameters of each converter class; a dict keeps the converter's order and its overwrites."""
    t = config["model_type"]
    arch = ARCH[t]
    kv = {}

    def put(key, vtype, value):
        kv[f"{arch}.{key}"] = (vtype, value)

    H = config["num_attention_heads"]
    KV = config.get("num_key_value_heads")
    rs = config.get("rope_scaling") or {}
    rope_type = rs.get("rope_type", rs.get("type"))
    if arch in ("gemma", "gemma2"):
        put("context_length", "u32", config["max_position_embeddings"])
        put("embedding_length", "u32", config["hidden_size"])
        put("block_count", "u32", config["num_hidden_layers"])
        put("feed_forward_length", "u32", config["intermediate_size"])
        put("attention.head_count", "u32", H)
        put("attention.head_count_kv", "u32", KV or H)
        put("attention.layer_norm_rms_epsilon", "f32", config["rms_norm_eps"])
        put("attention.key_length", "u32", config["head_dim"])
        put("attention.value_length", "u32", config["head_dim"])
        kv["general.file_type"] = ("u32", file_type)
        if arch == "gemma2":
            put("attn_logit_softcapping", "f32", config["attn_logit_softcapping"])
            put("final_logit_softcapping", "f32", config["final_logit_softcapping"])
            put("attention.sliding_window", "u32", config["sliding_window"])
        return kv
    if arch == "phi3":
        put("context_length", "u32", config["max_position_embeddings"])
        put("rope.scaling.original_context_length", "u32", config["original_max_position_embeddings"])
        put("embedding_length", "u32", config["hidden_size"])
        put("feed_forward_length", "u32", config["intermediate_size"])
        put("block_count", "u32", config["num_hidden_layers"])
        put("attention.head_count", "u32", H)
        put("attention.head_count_kv", "u32", KV)
        put("attention.layer_norm_rms_epsilon", "f32", config["rms_norm_eps"])
        put("rope.dimension_count", "u32", int(config.get("partial_rotary_factor", 1.0) * config["hidden_size"]) // H)
        put("rope.freq_base", "f32", config["rope_theta"])
        kv["general.file_type"] = ("u32", file_type)
        put("attention.sliding_window", "u32", config.get("sliding_window") or 0)
        return kv
    # TextModel.set_gguf_parameters
    put("block_count", "u32", config["num_hidden_layers"])
    put("context_length", "u32", config["max_position_embeddings"])
    put("embedding_length", "u32", config["hidden_size"])
    put("feed_forward_length", "u32", config["intermediate_size"])
    put("attention.head_count", "u32", H)
    if KV is not None:
        put("attention.head_count_kv", "u32", KV)
    if rope_type == "linear" and rs.get("factor") is not None:
        put("rope.scaling.type", "str", "linear")
        put("rope.scaling.factor", "f32", rs["factor"])
    theta = config.get("rope_theta")
    if theta is not None:
        put("rope.freq_base", "f32", theta)
    if config.get("rope_local_base_freq") is not None:
        put("rope.freq_base_swa", "f32", config["rope_local_base_freq"])
    put("attention.layer_norm_rms_epsilon", "f32", config["rms_norm_eps"])
    if config.get("head_dim") is not None:
        put("attention.key_length", "u32", config["head_dim"])
        put("attention.value_length", "u32", config["head_dim"])
    kv["general.file_type"] = ("u32", file_type)
    if arch == "llama":
        put("vocab_size", "u32", config["vocab_size"])
        put("rope.dimension_count", "u32", config.get("head_dim") or config["hidden_size"] // H)
    if arch == "gemma3":  # Gemma3Model.set_gguf_parameters after super()
        put("context_length", "u32", config.get("max_position_embeddings", 131072))
        put("attention.head_count", "u32", config.get("num_attention_heads", 8))
        put("attention.layer_norm_rms_epsilon", "f32", config.get("rms_norm_eps", 1e-6))
        put("attention.key_length", "u32", config.get("head_dim", 256))
        put("attention.value_length", "u32", config.get("head_dim", 256))
        put("rope.freq_base", "f32", config.get("rope_theta", 1_000_000.0))
        if config.get("final_logit_softcapping"):
            put("final_logit_softcapping", "f32", config["final_logit_softcapping"])
        if config.get("sliding_window_pattern") != 1:
            put("attention.sliding_window", "u32", config["sliding_window"])
        put("attention.head_count_kv", "u32", config.get("num_key_value_heads", 4))
    return kv


def special_vocab(tok_json, tok_config, config, n_vocab, load_merges):
    """gguf-py SpecialVocab: merges, special token ids, add_bos/add_eos; returns ordered (key, type, value)."""
    out = []
    if load_merges:
        merges = tok_json["model"]["merges"]
        if merges and not isinstance(merges[0], str):
            merges = [" ".join("".join(chr(ord(c) + 256) if c == " " else c for c in part) for part in pair)
                      for pair in merges]
        out.append(("tokenizer.ggml.merges", "arr:str", list(merges)))
    added = tok_json.get("added_tokens", [])
    ids, adds = {}, {}
    bos = tok_config.get("bos_token")
    post = tok_json.get("post_processor") or {}
    for proc in post.get("processors", [post]):
        single = proc.get("single", []) if proc.get("type") == "TemplateProcessing" else []
        if len(single) > 1 and (first := single[0].get("SpecialToken", {}).get("id")):
            adds["bos"] = first == bos
    types = ("bos", "eos", "unk", "sep", "pad", "cls", "mask")
    for typ in types:
        if isinstance(tok_config.get(f"add_{typ}_token"), bool):
            adds[typ] = tok_config[f"add_{typ}_token"]
        entry = tok_config.get(f"{typ}_token")
        if isinstance(entry, dict):
            entry = entry.get("content")
        if isinstance(entry, str):
            tid = next((a["id"] for a in added if a["content"] == entry), None)
            if tid is not None and typ not in ids and (n_vocab is None or tid < n_vocab):
                ids[typ] = tid
    for typ in types:
        tid = config.get(f"{typ}_token_id")
        if isinstance(tid, int) and typ not in ids and (n_vocab is None or tid < n_vocab):
            ids[typ] = tid
    names = {"bos": "bos_token_id", "eos": "eos_token_id", "unk": "unknown_token_id", "sep": "seperator_token_id",
             "pad": "padding_token_id", "cls": "cls_token_id", "mask": "mask_token_id"}
    for typ, tid in ids.items():
        out.append((f"tokenizer.ggml.{names[typ]}", "u32", tid))
    for typ, v in adds.items():
        if typ in ("bos", "eos", "sep"):
            out.append((f"tokenizer.ggml.add_{typ}_token", "bool", v))
    return out


def pre_name(tok_json):
    """The pre-tokenizer name of the real family this tokenizer imitates (see the module docstring)."""
    if tok_json["model"].get("ignore_merges"):
        return "llama-bpe"
    if (tok_json.get("normalizer") or {}).get("type") == "NFC":
        return "qwen2"
    return "smollm"


def vocab_metadata(config, tok_json, tok_config):
    """tokenizer.ggml.* records: gpt2 (byte-level BPE) or llama (SentencePiece) as the converter picks."""
    t = config["model_type"]
    model = tok_json["model"]
    spm = model.get("byte_fallback", False)
    out = []
    if t in ("llama", "mistral") and "add_prefix_space" in tok_config:
        out.append(("tokenizer.ggml.add_space_prefix", "bool", tok_config["add_prefix_space"]))
    added = {a["id"]: a for a in tok_json.get("added_tokens", [])}
    vocab = dict(model["vocab"])
    for a in added.values():
        vocab.setdefault(a["content"], a["id"])
    by_id = {i: s for s, i in vocab.items()}
    if not spm:
        n = config["vocab_size"]
        tokens, types = [], []
        for i in range(n):
            if i not in by_id:
                tokens.append(f"[PAD{i}]")
                types.append(5)
            else:
                tokens.append(by_id[i])
                types.append(3 if i in added and added[i].get("special", False) else 1)
        out += [("tokenizer.ggml.model", "str", "gpt2"), ("tokenizer.ggml.pre", "str", pre_name(tok_json)),
                ("tokenizer.ggml.tokens", "arr:str", tokens), ("tokenizer.ggml.token_type", "arr:i32", types)]
        out += special_vocab(tok_json, tok_config, config, None, True)
        return out, tokens
    merges = [m if isinstance(m, str) else " ".join(m) for m in model["merges"]]
    made_by = {}
    for rank, m in enumerate(merges):
        made_by.setdefault(m.replace(" ", "", 1), rank)
    n = len(by_id)
    tokens, scores, types = [], [], []
    for i in range(n):
        s = by_id[i]
        tokens.append(s)
        if i in added and added[i].get("special", False):
            types.append(2 if s == model.get("unk_token") else 3)
            scores.append(0.0)
        elif len(s) == 6 and s.startswith("<0x") and s.endswith(">"):
            types.append(6)
            scores.append(0.0)
        else:
            types.append(1)
            scores.append(-float(made_by[s]) if s in made_by else -float(len(merges) + i))
    out += [("tokenizer.ggml.model", "str", "llama"), ("tokenizer.ggml.pre", "str", "default"),
            ("tokenizer.ggml.tokens", "arr:str", tokens), ("tokenizer.ggml.scores", "arr:f32", scores),
            ("tokenizer.ggml.token_type", "arr:i32", types)]
    out += special_vocab(tok_json, tok_config, config, n, False)
    if t.startswith("gemma"):
        out.append(("tokenizer.ggml.add_space_prefix", "bool", False))
    return out, tokens


def metadata(config, tok_json, tok_config, name, file_type):
    arch = ARCH[config["model_type"]]
    kv = {"general.architecture": ("str", arch), "general.type": ("str", "model"), "general.name": ("str", name)}
    kv.update(hparams(None, config, file_type))
    kv["general.quantization_version"] = ("u32", 2)
    vocab, tokens = vocab_metadata(config, tok_json, tok_config)
    for key, vtype, value in vocab:
        kv[key] = (vtype, value)
    return kv, tokens


def write(path, kv, tensors, types=None, version=3):
    """tensors: [(name, float32 numpy array)], stored as types[name] (default F32)."""
    g = Gguf(version=version)
    for key, (vtype, value) in kv.items():
        g.kv(key, vtype, value)
    for name, w in tensors:
        t = (types or {}).get(name, "F32")
        rows = w.reshape(-1, w.shape[-1]) if w.ndim > 1 else w.reshape(1, -1)
        g.tensor(name, gq.TYPES[t][0], list(reversed(w.shape)), gq.quantize(t, rows).tobytes())
    return g.write(path)
