#!/usr/bin/python3
"""Tiny Llama-family checkpoints (llama, mistral, qwen2, qwen3, gemma, gemma2,
gemma3_text, phi3) and their expected numbers, for the C++ family tests.

    /usr/bin/python3 tests/data/families/make_fixtures.py

rewrites, next to this file, one Hugging Face folder per case (config.json,
model.safetensors or shards with model.safetensors.index.json,
tokenizer.json, tokenizer_config.json) and expected.json. Needs numpy and
python3-regex; torch (float64), when installed, cross-checks every case
through the eager forward of scripts/bench_llama_torch.py, a second
implementation written the way transformers writes it (view/transpose,
repeat_kv, cat(freqs, freqs), additive masks).

Written from Hugging Face transformers' sources, not from the C++ it tests:
models/{llama,mistral,qwen2,qwen3,gemma,gemma2,gemma3,phi3}/modeling_*.py
and modular_*.py, their configuration_*.py (the defaults below are theirs),
modeling_rope_utils.py (_compute_default_rope_parameters,
_compute_linear_scaling_rope_parameters, _compute_llama3_parameters) and
masking_utils.py (sliding_window_overlay: kv_idx > q_idx - sliding_window).
The maths is transformers' in float32, computed here in float64: the
rotary angles differ from transformers' float32 ones by about 1e-7.

Every number is a bfloat16 value that float16 also holds, so one set of
expected numbers serves the F32, F16 and BF16 files of a case. llama is
written three times (F32, F16, BF16); llama-tied, qwen2-window, qwen3,
gemma2 and gemma3_text are BF16 like the real checkpoints, the others F32;
qwen2-window is sharded into two files with model.safetensors.index.json.
Token ids are those of TEXT under each folder's own tokenizer.json, computed
here from the tokenizers rules (check_tokenizers.mjs checks them with
Hugging Face's JavaScript tokenizers).

The traps, each built so that getting it wrong moves the expected numbers by
more than 1e-3 (the self-check at the end perturbs the reference once per
trap and asserts it; expected.json lists the change each one causes):
- rotate-half pairs (x[i], x[i + r/2]), not adjacent (x[2i], x[2i+1]):
  random q/k weights, so the two pairings give different angles per element.
- query head h reads key/value head h // (heads / kv_heads) (repeat_kv),
  not h % kv_heads: 4 heads on 2 key/value heads, so heads 1 and 2 differ.
- partial rotary (phi3, partial_rotary_factor 0.75, head_dim 8): only the
  first 6 dimensions turn, as rotate-half pairs (0,3), (1,4), (2,5); the
  last 2 pass through. Turning all 8, or the last 6, fails.
- llama3 rope scaling: head_dim 6 gives 3 frequencies, and theta 8000 with
  original_max_position_embeddings 1024, low_freq_factor 2 and
  high_freq_factor 16 puts one in each regime: wavelength 6.3 < 64 (kept),
  64 < 125.7 < 512 (smoothed) and 2513 > 512 (divided by factor 32).
- linear rope scaling (llama-tied, legacy key "type"; gemma3_text's global
  layers): positions divided by the factor.
- Gemma's RMSNorm multiplies by (1 + w), with w drawn around 0; by w alone
  the numbers are unrelated.
- Gemma's embedding scale sqrt(hidden_size) is applied in the compute dtype
  (float32), also for the BF16 files (gemma2, gemma3_text): the hidden sizes
  18 and 20 have square roots that bfloat16 rounds (4.2426 -> 4.25, 4.4721
  -> 4.46875), as transformers does when it runs in bfloat16; the numbers
  show the difference. Leaving the scale out fails too.
- gemma2 soft-caps scaled scores (cap 4) before the mask and the logits
  (cap 3); weights are chosen so both caps bite. gemma3_text's config leaves
  both keys out: its defaults are no soft-capping (Gemma 2's are 50 and 30).
- query_pre_attn_scalar (24 for gemma2, 12 for gemma3_text) differs from
  head_dim (8): scaling by 1/sqrt(head_dim) fails.
- sliding windows of 3 (4 for qwen2) over 9-11 tokens: query i sees key j
  when i - window < j <= i (window keys; i - window <= j fails). Which
  layers: mistral all; qwen2 none when use_sliding_window is false, even
  though sliding_window (4) is shorter than the text; qwen2-window the layers
  i >= max_window_layers (layer 1 of 2); gemma2 the even layers (layer 0 of
  2, layer_types absent from its config); gemma3_text the layers its
  layer_types (and sliding_window_pattern 3) name, 0 and 1, which also turn
  with rope_local_base_freq (10000, no scaling) while layer 2 uses
  rope_theta 1e6 and the linear factor 4. phi3's sliding_window 2047 (as in
  Phi-3-mini-4k) is longer than the text: it changes nothing here.
- q/k norms (qwen3: w; gemma3_text: 1 + w) per head before the rotation;
  after it, or not at all, fails. qwen3's rms_norm_eps 0.02 and gemma2's
  0.01 are far from the defaults, so a wrong epsilon shows.
- Qwen2 biases on q, k and v (none on o); leaving them out fails.
- phi3's qkv_proj rows are q | k | v and gate_up_proj rows gate | up;
  another order fails.
- tied against separate unembedding: llama, qwen2-window and phi3 carry an
  lm_head.weight that differs from the embedding; the tied cases carry none
  (gemma's config leaves tie_word_embeddings out: its default is true).
- shapes: head_dim x heads differs from hidden_size where the family reads a
  head_dim (llama, mistral, qwen3, gemma*), and intermediate sizes differ
  from both, so a transposed weight has the wrong shape; where head_dim is
  derived (llama-tied, qwen2, phi3) q_proj and o_proj are square and random,
  so a transposed one gives other numbers.
"""
import json
import math
import os
import shutil
import struct
import sys

import numpy as np
import regex

HERE = os.path.dirname(os.path.abspath(__file__))
RNG = np.random.default_rng(2029)
TEXT = "The robot moved the box because it was heavy"
ABLATE = (0, 1)  # layer 0, query head 1: its context is zero before o_proj
# Real checkpoints ship in BF16; these cases are written so (the numbers are the
# same in every type), the others in F32.
BF16_CASES = {"llama-tied", "qwen2-window", "qwen3", "gemma2", "gemma3_text"}
SHARDED = "qwen2-window"  # two safetensors files and model.safetensors.index.json

# ---------------------------------------------------------------- numbers


def representable(a):
    """Rounds to bfloat16 (round to nearest even), keeping values float16 holds too."""
    a = np.asarray(a, dtype=np.float32)
    bits = a.view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    r = bits.astype(np.uint32).view(np.float32)
    return np.where(np.abs(r) < 2.0 ** -14, 0.0, r).astype(np.float32)  # no float16 subnormals


def randn(*shape, scale=0.4):
    return representable(RNG.standard_normal(shape) * scale)


def bf16(x):
    return float(representable(np.array([x], dtype=np.float32))[0])


# ---------------------------------------------------------------- safetensors


def to_bytes(a, dtype):
    a = np.ascontiguousarray(a)
    if dtype == "F32":
        return a.astype("<f4").tobytes()
    if dtype == "F16":
        return a.astype("<f2").tobytes()
    if dtype == "BF16":
        return (a.astype("<f4").view("<u4") >> 16).astype("<u2").tobytes()
    raise ValueError(dtype)


def write_safetensors(path, tensors, dtype):
    """tensors: list of (name, array); 8-byte header length, JSON, data."""
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name, array in tensors:
        blob = to_bytes(array, dtype)
        header[name] = {"dtype": dtype, "shape": list(np.shape(array)), "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)
    return offset


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")


def write_folder(folder, config, params, dtype, tokenizer, shards=1):
    path = os.path.join(HERE, folder)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    config = dict(config, torch_dtype={"F32": "float32", "F16": "float16", "BF16": "bfloat16"}[dtype])
    write_json(os.path.join(path, "config.json"), config)
    write_json(os.path.join(path, "tokenizer.json"), tokenizer["json"])
    write_json(os.path.join(path, "tokenizer_config.json"), tokenizer["config"])
    names = sorted(params)
    if shards == 1:
        write_safetensors(os.path.join(path, "model.safetensors"), [(k, params[k]) for k in names], dtype)
        return
    # Shards split by layer as Hugging Face's writer does: later layers and the
    # final norm in the last file, so that a layer's tensors may span files.
    cut = len(names) // 2
    parts = [names[:cut], names[cut:]]
    weight_map, total = {}, 0
    for i, part in enumerate(parts):
        file = f"model-{i + 1:05d}-of-{len(parts):05d}.safetensors"
        total += write_safetensors(os.path.join(path, file), [(k, params[k]) for k in part], dtype)
        weight_map.update({k: file for k in part})
    write_json(os.path.join(path, "model.safetensors.index.json"),
               {"metadata": {"total_size": total}, "weight_map": dict(sorted(weight_map.items()))})


# ---------------------------------------------------------------- tokenizers
# Independent of the C++: the rules of huggingface/tokenizers' BPE model
# (lowest-ranked adjacent pair first, byte_fallback, ignore_merges), its
# ByteLevel pre-tokenizer's byte-to-character table and the Split patterns
# of the Llama 3 and Qwen2 tokenizer.json files.

LLAMA3_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                r"|\s*[\r\n]+|\s+(?!\S)|\s+")
QWEN2_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
               r"|\s*[\r\n]+|\s+(?!\S)|\s+")
GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def bytes_to_unicode():
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) \
        + list(range(ord("®"), ord("ÿ") + 1))
    chars = printable[:]
    n = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            chars.append(256 + n)
            n += 1
    return dict(zip(printable, map(chr, chars)))


def merge_chains(words, stop=None):
    """Merges that build each word from its first symbol rightwards; `stop`
    maps a word to how many symbols its chain may join."""
    merges = []
    for w in words:
        symbols = list(w)
        upto = (stop or {}).get(w, len(symbols))
        left = symbols[0]
        for s in symbols[1:upto]:
            if (left, s) not in merges:
                merges.append((left, s))
            left += s
    return merges


def bpe(symbols, ranks):
    """huggingface/tokenizers' word merge: the lowest-ranked pair, leftmost first."""
    symbols = list(symbols)
    while len(symbols) > 1:
        pairs = [(ranks.get((a, b), math.inf), i) for i, (a, b) in enumerate(zip(symbols, symbols[1:]))]
        rank, i = min(pairs)
        if rank == math.inf:
            break
        symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
    return symbols


def added(id_, content):
    return {"id": id_, "content": content, "single_word": False, "lstrip": False, "rstrip": False,
            "normalized": False, "special": True}


def template(bos, bos_id):
    if bos is None:
        return {"type": "TemplateProcessing", "single": [{"Sequence": {"id": "A", "type_id": 0}}],
                "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
                "special_tokens": {}}
    return {"type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": bos, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": bos, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": bos, "type_id": 1}}, {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {bos: {"id": bos, "ids": [bos_id], "tokens": [bos]}}}


def byte_level_tokenizer(style):
    """style: "llama3" (Split pattern, ignore_merges, BOS <|begin_of_text|>,
    merges as strings), "qwen2" (Split pattern, NFC, no BOS, merges as pairs)
    or "smollm" (GPT-2 pattern through ByteLevel, digits split, special tokens
    first in the vocabulary, no BOS)."""
    b2u = bytes_to_unicode()
    pattern = {"llama3": LLAMA3_SPLIT, "qwen2": QWEN2_SPLIT, "smollm": GPT2_SPLIT}[style]
    pieces = ["".join(b2u[b] for b in p.encode()) for p in regex.findall(pattern, TEXT)]
    stop = {}
    shortcut = []
    if style == "llama3":
        # ignore_merges: "Ġmoved" is in the vocabulary, but the merges only reach
        # "Ġmo"; a tokenizer that ignores ignore_merges gives Ġmo, v, e, d.
        stop = {"Ġmoved": 3}
        shortcut = ["Ġmoved"]
    merges = merge_chains(pieces, stop)
    specials = {"llama3": ["<|begin_of_text|>", "<|end_of_text|>"],
                "qwen2": ["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
                "smollm": ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]}[style]
    vocab = {}
    if style == "smollm":
        for s in specials:
            vocab[s] = len(vocab)
    for b in b2u.values():
        vocab[b] = len(vocab)
    for a, b in merges:
        vocab.setdefault(a + b, len(vocab))
    for w in shortcut:
        vocab.setdefault(w, len(vocab))
    added_tokens = [added(vocab[s], s) for s in specials] if style == "smollm" else []
    if style != "smollm":
        base = len(vocab)
        added_tokens = [added(base + i, s) for i, s in enumerate(specials)]
    size = len(vocab) + (0 if style == "smollm" else len(specials))

    ranks = {m: i for i, m in enumerate(merges)}
    ids, tokens = [], []
    bos = "<|begin_of_text|>" if style == "llama3" else None
    if bos:
        ids.append(added_tokens[0]["id"])
        tokens.append(bos)
    for p in pieces:
        parts = [p] if style == "llama3" and p in vocab else bpe(p, ranks)
        ids += [vocab[t] for t in parts]
        tokens += parts

    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": style != "qwen2", "use_regex": False}
    if style == "smollm":
        pre = {"type": "Sequence", "pretokenizers": [{"type": "Digits", "individual_digits": True},
                                                     dict(byte_level, use_regex=True)]}
    else:
        pre = {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}, byte_level]}
    post = {"type": "ByteLevel", "add_prefix_space": style != "qwen2", "trim_offsets": False, "use_regex": True}
    if bos:
        post = {"type": "Sequence", "processors": [post, template(bos, ids[0])]}
    model = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
             "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
             "ignore_merges": style == "llama3", "vocab": vocab,
             "merges": [f"{a} {b}" for a, b in merges] if style == "llama3" else [[a, b] for a, b in merges]}
    data = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": added_tokens,
            "normalizer": {"type": "NFC"} if style == "qwen2" else None, "pre_tokenizer": pre,
            "post_processor": post,
            "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
            "model": model}
    if style == "llama3":
        config = {"add_bos_token": True, "bos_token": bos, "eos_token": "<|end_of_text|>",
                  "clean_up_tokenization_spaces": True, "model_max_length": 131072,
                  "tokenizer_class": "PreTrainedTokenizerFast"}
    elif style == "qwen2":
        config = {"add_bos_token": False, "add_prefix_space": False, "bos_token": None, "eos_token": "<|endoftext|>",
                  "pad_token": "<|endoftext|>", "errors": "replace", "model_max_length": 131072,
                  "split_special_tokens": False, "tokenizer_class": "Qwen2Tokenizer", "unk_token": None}
    else:
        config = {"add_prefix_space": False, "bos_token": "<|endoftext|>", "eos_token": "<|endoftext|>",
                  "unk_token": "<|endoftext|>", "clean_up_tokenization_spaces": False, "model_max_length": 8192,
                  "tokenizer_class": "GPT2Tokenizer", "vocab_size": 49152}
    special_ids = {t["content"]: t["id"] for t in added_tokens}
    return {"json": data, "config": config, "size": size, "ids": ids, "tokens": tokens, "bos": bos is not None,
            "special_ids": special_ids}


def sentencepiece_tokenizer(style):
    """SentencePiece-style BPE with byte fallback. style "llama2" (Mistral,
    Phi-3: <unk> <s> </s>, a ▁ prepended to the text) or "gemma" (<pad> <eos>
    <bos> <unk>, nothing prepended). "y" is left out of the vocabulary, so
    "heavy" ends in the byte token <0x79>."""
    prepend = style == "llama2"
    specials = ["<unk>", "<s>", "</s>"] if style == "llama2" else ["<pad>", "<eos>", "<bos>", "<unk>"]
    bos = "<s>" if style == "llama2" else "<bos>"
    normalized = ("▁" if prepend else "") + TEXT.replace(" ", "▁")
    words = regex.findall(r"▁?[^▁]+", normalized)
    missing = {"y"}
    chain_words = [w.rstrip("y") for w in words]
    vocab = {}
    for s in specials:
        vocab[s] = len(vocab)
    for b in range(256):
        vocab[f"<0x{b:02X}>"] = len(vocab)
    for c in ["▁"] + sorted(set(normalized) - missing - {"▁"}):
        vocab[c] = len(vocab)
    merges = merge_chains(chain_words)
    for a, b in merges:
        vocab.setdefault(a + b, len(vocab))
    ranks = {m: i for i, m in enumerate(merges)}

    symbols = []
    for c in normalized:  # byte fallback before merging, as tokenizers' BPE does
        symbols += [c] if c in vocab else [f"<0x{b:02X}>" for b in c.encode()]
    tokens = [bos] + bpe(symbols, ranks)
    ids = [vocab[t] for t in tokens]

    normalizer = {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}
    if prepend:
        normalizer = {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"}, normalizer]}
    decoders = [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "}, {"type": "ByteFallback"},
                {"type": "Fuse"}]
    if prepend:
        decoders.append({"type": "Strip", "content": " ", "start": 1, "stop": 0})
    data = {"version": "1.0", "truncation": None, "padding": None,
            "added_tokens": [added(vocab[s], s) for s in specials], "normalizer": normalizer,
            "pre_tokenizer": None, "post_processor": template(bos, vocab[bos]),
            "decoder": {"type": "Sequence", "decoders": decoders},
            "model": {"type": "BPE", "dropout": None, "unk_token": "<unk>", "continuing_subword_prefix": None,
                      "end_of_word_suffix": None, "fuse_unk": True, "byte_fallback": True, "ignore_merges": False,
                      "vocab": vocab, "merges": [f"{a} {b}" for a, b in merges]}}
    if style == "llama2":
        config = {"add_bos_token": True, "add_eos_token": False, "bos_token": "<s>", "eos_token": "</s>",
                  "unk_token": "<unk>", "pad_token": None, "legacy": True, "clean_up_tokenization_spaces": False,
                  "model_max_length": 1000000000000000019884624838656, "sp_model_kwargs": {},
                  "spaces_between_special_tokens": False, "tokenizer_class": "LlamaTokenizer"}
    else:
        config = {"add_bos_token": True, "add_eos_token": False, "bos_token": "<bos>", "eos_token": "<eos>",
                  "unk_token": "<unk>", "pad_token": "<pad>", "clean_up_tokenization_spaces": False,
                  "model_max_length": 1000000000000000019884624838656, "sp_model_kwargs": {},
                  "spaces_between_special_tokens": False, "tokenizer_class": "GemmaTokenizer"}
    return {"json": data, "config": config, "size": len(vocab), "ids": ids, "tokens": tokens, "bos": True,
            "special_ids": {s: vocab[s] for s in specials}}


def without_bos(tok):
    """Phi-3's tokenizer as configured today: add_bos_token false, and a
    post-processor that adds nothing."""
    tok = json.loads(json.dumps(tok))
    tok["json"]["post_processor"] = template(None, None)
    tok["config"]["add_bos_token"] = False
    tok["ids"], tok["tokens"], tok["bos"] = tok["ids"][1:], tok["tokens"][1:], False
    return tok


# ---------------------------------------------------------------- reading a config as transformers does


def spec_from_config(c):
    """The block recipe each family's modeling and configuration files imply,
    defaults included (their configuration_*.py)."""
    t = c["model_type"]
    gemma = t.startswith("gemma")
    H, L, d = c["num_attention_heads"], c["num_hidden_layers"], c["hidden_size"]
    kv = c.get("num_key_value_heads") or H
    hd = c.get("head_dim") or d // H  # phi3 and qwen2 read it with getattr; gemma's default 256 is always given
    s = {"type": t, "d": d, "heads": H, "kv": kv, "head_dim": hd, "layers": L, "vocab": c["vocab_size"],
         "eps": c.get("rms_norm_eps", 1e-5 if t == "phi3" else 1e-6), "gemma_norm": gemma, "embed_scale": gemma,
         "act": "gelu_tanh" if gemma else "silu", "sandwich": t in ("gemma2", "gemma3_text"),
         "qk_norm": t in ("qwen3", "gemma3_text"), "fused": t == "phi3",
         "qkv_bias": t == "qwen2" or (c.get("attention_bias", False) and t != "phi3"),
         "o_bias": c.get("attention_bias", False) and t not in ("qwen2", "phi3"),
         "tied": c.get("tie_word_embeddings", t.startswith("gemma")),
         "scaling": (c.get("query_pre_attn_scalar", 256) ** -0.5) if t in ("gemma2", "gemma3_text") else hd ** -0.5,
         "attn_cap": c.get("attn_logit_softcapping", 50.0) if t == "gemma2" else c.get("attn_logit_softcapping"),
         "final_cap": c.get("final_logit_softcapping", 30.0) if t == "gemma2" else c.get("final_logit_softcapping"),
         "rotary": int(hd * c.get("partial_rotary_factor", 1.0))}
    if gemma and c.get("hidden_activation", c.get("hidden_act")) not in ("gelu_pytorch_tanh", None):
        raise ValueError("these fixtures use gelu_pytorch_tanh")
    # Which layers have a window (and its width).
    w = c.get("sliding_window")
    if t in ("mistral", "phi3"):
        windows = [w] * L
    elif t in ("qwen2", "qwen3"):
        w = w if c.get("use_sliding_window", False) else None
        types = c.get("layer_types") or ["sliding_attention" if w is not None and i >= c.get("max_window_layers", 28)
                                         else "full_attention" for i in range(L)]
        windows = [w if x == "sliding_attention" else None for x in types]
    elif t == "gemma2":
        types = c.get("layer_types") or ["sliding_attention" if (i + 1) % 2 else "full_attention" for i in range(L)]
        windows = [c.get("sliding_window", 4096) if x == "sliding_attention" else None for x in types]
    elif t == "gemma3_text":
        pattern = c.get("sliding_window_pattern", 6)
        types = c.get("layer_types") or ["sliding_attention" if (i + 1) % pattern else "full_attention"
                                         for i in range(L)]
        windows = [c.get("sliding_window", 4096) if x == "sliding_attention" else None for x in types]
    else:
        windows = [None] * L
    s["windows"] = windows
    # Rotary embedding of each layer: (theta, scaling dict or None).
    theta = c.get("rope_theta", 1e6 if t == "gemma3_text" else 1e4)
    scaling = c.get("rope_scaling")
    if t == "gemma3_text":
        local = c.get("rope_local_base_freq", 1e4)
        s["rope"] = [(local, None) if windows[i] is not None else (theta, scaling) for i in range(L)]
    else:
        s["rope"] = [(theta, scaling)] * L
    return s


# ---------------------------------------------------------------- reference maths (numpy, float64)


def inv_freq(theta, scaling, dim, trap):
    f = 1.0 / theta ** (np.arange(0, dim, 2, dtype=np.float64) / dim)
    if not scaling or "no-rope-scaling" in trap:
        return f
    kind = scaling.get("rope_type", scaling.get("type"))
    factor = scaling["factor"]
    if kind == "linear":
        return f / factor
    if kind != "llama3":
        raise ValueError(kind)
    if "llama3-as-linear" in trap:
        return f / factor
    low, high = scaling["low_freq_factor"], scaling["high_freq_factor"]
    old = scaling["original_max_position_embeddings"]
    low_wavelen, high_wavelen = old / low, old / high
    wavelen = 2 * math.pi / f
    scaled = np.where(wavelen > low_wavelen, f / factor, f)
    smooth = (old / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * scaled / factor + smooth * scaled
    medium = ~(wavelen < high_wavelen) & ~(wavelen > low_wavelen)
    if "llama3-no-smoothing" in trap:
        return scaled
    return np.where(medium, smoothed, scaled)


def rotate(x, freqs, trap):
    """x: n x head_dim at positions 0..n-1; the first 2 * len(freqs) dimensions turn."""
    n, rot = x.shape[0], 2 * len(freqs)
    angle = np.outer(np.arange(n, dtype=np.float64), freqs)
    cos, sin = np.cos(angle), np.sin(angle)
    out = x.copy()
    if "rotary-last-dims" in trap:
        part = x[:, x.shape[1] - rot:]
    else:
        part = x[:, :rot]
    if "interleaved" in trap:
        a, b = part[:, 0::2], part[:, 1::2]
        turned = np.empty_like(part)
        turned[:, 0::2], turned[:, 1::2] = a * cos - b * sin, b * cos + a * sin
    else:
        half = rot // 2
        a, b = part[:, :half], part[:, half:]
        turned = np.concatenate([a * cos - b * sin, b * cos + a * sin], axis=1)
    if "rotary-last-dims" in trap:
        out[:, x.shape[1] - rot:] = turned
    else:
        out[:, :rot] = turned
    return out


def rms_norm(x, w, eps, gemma, trap):
    if "eps-default" in trap:
        eps = 1e-6
    y = x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps)
    return y * ((1.0 + w) if gemma and "gemma-norm-w" not in trap else w)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def silu(x):
    return x / (1.0 + np.exp(-x))


def forward(s, P, ids, ablate=None, trap=frozenset()):
    """P: tensor name -> float64 array as stored; returns every number expected.json holds."""
    n, d, H, KV, hd = len(ids), s["d"], s["heads"], s["kv"], s["head_dim"]
    f64 = {k: np.asarray(v, dtype=np.float64) for k, v in P.items()}
    emb = f64["model.embed_tokens.weight"]
    x = emb[ids].copy()
    if s["embed_scale"] and "no-embed-scale" not in trap:
        scale = float(np.float32(math.sqrt(d)))  # torch.tensor(hidden_size**0.5) in float32, the compute dtype
        if "embed-scale-bf16" in trap:
            scale = bf16(scale)
        x = x * scale
    out = {"hidden": [x], "layers": []}
    act = gelu_tanh if s["act"] == "gelu_tanh" else silu
    gnorm = s["gemma_norm"]

    def norm(v, name):
        return rms_norm(v, f64[name], s["eps"], gnorm, trap)

    for l in range(s["layers"]):
        p = f"model.layers.{l}."
        a = norm(x, p + "input_layernorm.weight")
        if s["fused"]:
            qkv = a @ f64[p + "self_attn.qkv_proj.weight"].T
            sizes = [H * hd, KV * hd, KV * hd]
            if "phi3-qkv-order" in trap:
                k, q, v = np.split(qkv, [KV * hd, KV * hd + H * hd], axis=1)
            else:
                q, k, v = np.split(qkv, np.cumsum(sizes)[:2], axis=1)
        else:
            q, k, v = (a @ f64[p + f"self_attn.{t}_proj.weight"].T for t in "qkv")
            if s["qkv_bias"] and "no-qkv-bias" not in trap:
                q, k, v = (m + f64[p + f"self_attn.{t}_proj.bias"] for m, t in zip((q, k, v), "qkv"))
        theta, scaling = s["rope"][l]
        if "gemma3-global-rope-everywhere" in trap:
            theta, scaling = s["rope"][-1]
        if "gemma3-scaled-local-rope" in trap and s["windows"][l] is not None:
            scaling = s["rope"][-1][1]
        freqs = inv_freq(theta, scaling, hd if "rotary-all-dims" in trap else s["rotary"], trap)

        def heads_of(m, count, norm_name):
            hs = [m[:, i * hd:(i + 1) * hd] for i in range(count)]
            if s["qk_norm"] and "no-qk-norm" not in trap:
                w = f64[p + f"self_attn.{norm_name}.weight"]
                if "qk-norm-after-rotary" in trap:
                    return [rms_norm(rotate(h, freqs, trap), w, s["eps"], gnorm, trap) for h in hs]
                hs = [rms_norm(h, w, s["eps"], gnorm, trap) for h in hs]
            return [rotate(h, freqs, trap) for h in hs]

        qs, ks = heads_of(q, H, "q_norm"), heads_of(k, KV, "k_norm")
        vs = [v[:, i * hd:(i + 1) * hd] for i in range(KV)]
        window = s["windows"][l]
        if "window-off" in trap:
            window = None
        if "window-every-layer" in trap:
            window = next(w for w in s["windows"] + [s.get("config_window")] if w is not None)
        if "window-other-layers" in trap:
            window = None if s["windows"][l] is not None else next(w for w in s["windows"] if w is not None)
        i_, j_ = np.arange(n)[:, None], np.arange(n)[None, :]
        allowed = j_ <= i_
        if window is not None:
            allowed &= (j_ >= i_ - window) if "window-inclusive" in trap else (j_ > i_ - window)
        scaling_factor = hd ** -0.5 if "scale-head-dim" in trap else s["scaling"]
        layer = {"window": window, "heads": [], "queries": np.concatenate(qs, axis=1),
                 "keys": np.concatenate(ks, axis=1), "values": np.concatenate(vs, axis=1)}
        context = []
        for h in range(H):
            g = h % KV if "kv-modulo" in trap else h // (H // KV)
            scores = qs[h] @ ks[g].T
            z = scores * scaling_factor
            if s["attn_cap"] is not None and "no-attn-cap" not in trap:
                z = s["attn_cap"] * np.tanh(z / s["attn_cap"])
            z = np.where(allowed, z, -np.inf)
            w = softmax(z)
            layer["heads"].append({"weights": w, "scores": scores})
            context.append(np.zeros((n, hd)) if ablate == (l, h) else w @ vs[g])
        o = np.concatenate(context, axis=1) @ f64[p + "self_attn.o_proj.weight"].T
        if s["o_bias"]:
            o = o + f64[p + "self_attn.o_proj.bias"]
        if s["sandwich"]:
            o = norm(o, p + "post_attention_layernorm.weight")
        x = x + o
        m = norm(x, p + ("pre_feedforward_layernorm.weight" if s["sandwich"] else "post_attention_layernorm.weight"))
        if s["fused"]:
            gate, up = np.split(m @ f64[p + "mlp.gate_up_proj.weight"].T, 2, axis=1)
            if "phi3-gate-up-order" in trap:
                gate, up = up, gate
        else:
            gate, up = m @ f64[p + "mlp.gate_proj.weight"].T, m @ f64[p + "mlp.up_proj.weight"].T
        m = (act(gate) * up) @ f64[p + "mlp.down_proj.weight"].T
        if s["sandwich"]:
            m = norm(m, p + "post_feedforward_layernorm.weight")
        x = x + m
        out["layers"].append(layer)
        out["hidden"].append(x)
    final = norm(x, "model.norm.weight")[-1]
    tied = s["tied"] != ("embedding-as-head" in trap)
    head = emb if tied else f64.get("lm_head.weight", emb * 0.5)
    logits = final @ head.T
    if s["final_cap"] is not None and "no-final-cap" not in trap:
        logits = s["final_cap"] * np.tanh(logits / s["final_cap"])
    out["next_token"] = softmax(logits)
    return out


# ---------------------------------------------------------------- the cases


def gamma(dim, gemma):
    return randn(dim, scale=0.3) if gemma else representable(1.0 + 0.3 * RNG.standard_normal(dim))


def make_weights(c, s, extra_rows=0):
    d, H, KV, hd, I, V = s["d"], s["heads"], s["kv"], s["head_dim"], c["intermediate_size"], s["vocab"]
    g = s["gemma_norm"]
    P = {"model.embed_tokens.weight": randn(V, d), "model.norm.weight": gamma(d, g)}
    for l in range(s["layers"]):
        p = f"model.layers.{l}."
        P[p + "input_layernorm.weight"] = gamma(d, g)
        P[p + "post_attention_layernorm.weight"] = gamma(d, g)
        if s["sandwich"]:
            P[p + "pre_feedforward_layernorm.weight"] = gamma(d, g)
            P[p + "post_feedforward_layernorm.weight"] = gamma(d, g)
        if s["fused"]:
            P[p + "self_attn.qkv_proj.weight"] = randn((H + 2 * KV) * hd, d)
            P[p + "mlp.gate_up_proj.weight"] = randn(2 * I, d)
        else:
            P[p + "self_attn.q_proj.weight"] = randn(H * hd, d)
            P[p + "self_attn.k_proj.weight"] = randn(KV * hd, d)
            P[p + "self_attn.v_proj.weight"] = randn(KV * hd, d)
            P[p + "mlp.gate_proj.weight"] = randn(I, d)
            P[p + "mlp.up_proj.weight"] = randn(I, d)
        if s["qkv_bias"]:
            P[p + "self_attn.q_proj.bias"] = randn(H * hd, scale=0.5)
            P[p + "self_attn.k_proj.bias"] = randn(KV * hd, scale=0.5)
            P[p + "self_attn.v_proj.bias"] = randn(KV * hd, scale=0.5)
        if s["qk_norm"]:
            P[p + "self_attn.q_norm.weight"] = gamma(hd, g)
            P[p + "self_attn.k_norm.weight"] = gamma(hd, g)
        P[p + "self_attn.o_proj.weight"] = randn(d, H * hd)
        P[p + "mlp.down_proj.weight"] = randn(d, I)
    if not s["tied"]:
        P["lm_head.weight"] = randn(V, d)
    return P


def common(model_type, arch, tok, vocab_extra=0, **kw):
    c = {"architectures": [arch], "model_type": model_type, "vocab_size": tok["size"] + vocab_extra}
    c.update(kw)
    return dict(sorted(c.items()))


def cases():
    """(name, config, tokenizer, traps, extra folders) of every case."""
    t_llama3, t_qwen, t_smol = (byte_level_tokenizer(x) for x in ("llama3", "qwen2", "smollm"))
    t_llama2, t_gemma = sentencepiece_tokenizer("llama2"), sentencepiece_tokenizer("gemma")
    t_phi3 = without_bos(t_llama2)
    rope = ["interleaved", "kv-modulo"]
    out = []
    out.append(("llama", common(
        "llama", "LlamaForCausalLM", t_llama3, attention_bias=False, attention_dropout=0.0,
        bos_token_id=t_llama3["special_ids"]["<|begin_of_text|>"], eos_token_id=t_llama3["special_ids"]["<|end_of_text|>"],
        head_dim=6, hidden_act="silu", hidden_size=20, initializer_range=0.02, intermediate_size=28,
        max_position_embeddings=131072, mlp_bias=False, num_attention_heads=4, num_hidden_layers=2,
        num_key_value_heads=2, pretraining_tp=1, rms_norm_eps=1e-05, rope_theta=8000.0,
        rope_scaling={"factor": 32.0, "high_freq_factor": 16.0, "low_freq_factor": 2.0,
                      "original_max_position_embeddings": 1024, "rope_type": "llama3"},
        tie_word_embeddings=False, transformers_version="4.45.0", use_cache=True), t_llama3,
        rope + ["no-rope-scaling", "llama3-as-linear", "llama3-no-smoothing", "embedding-as-head"],
        [("llama-f16", "F16", 1), ("llama-bf16", "BF16", 1)]))
    out.append(("llama-tied", common(
        "llama", "LlamaForCausalLM", t_smol, attention_bias=False, attention_dropout=0.0, bos_token_id=0,
        eos_token_id=0, hidden_act="silu", hidden_size=16, initializer_range=0.041666666666666664,
        intermediate_size=28, is_llama_config=True, max_position_embeddings=8192, mlp_bias=False,
        num_attention_heads=4, num_hidden_layers=2, num_key_value_heads=2, pretraining_tp=1, rms_norm_eps=1e-05,
        rope_interleaved=False, rope_scaling={"factor": 2.0, "type": "linear"}, rope_theta=100000,
        tie_word_embeddings=True, transformers_version="4.42.3", use_cache=True), t_smol,
        rope + ["no-rope-scaling"], []))
    out.append(("mistral", common(
        "mistral", "MistralForCausalLM", t_llama2, attention_dropout=0.0, bos_token_id=1, eos_token_id=2, head_dim=6,
        hidden_act="silu", hidden_size=16, initializer_range=0.02, intermediate_size=28,
        max_position_embeddings=32768, num_attention_heads=4, num_hidden_layers=2, num_key_value_heads=2,
        rms_norm_eps=1e-05, rope_theta=10000.0, sliding_window=3, tie_word_embeddings=False,
        transformers_version="4.34.0.dev0", use_cache=True), t_llama2,
        rope + ["window-off", "window-inclusive"], []))
    out.append(("qwen2", common(
        "qwen2", "Qwen2ForCausalLM", t_qwen, vocab_extra=21, attention_dropout=0.0,
        bos_token_id=t_qwen["special_ids"]["<|endoftext|>"], eos_token_id=t_qwen["special_ids"]["<|endoftext|>"],
        hidden_act="silu", hidden_size=16, initializer_range=0.02, intermediate_size=28,
        max_position_embeddings=32768, max_window_layers=1, num_attention_heads=4, num_hidden_layers=2,
        num_key_value_heads=2, rms_norm_eps=1e-06, rope_theta=1000000.0, sliding_window=4, tie_word_embeddings=True,
        transformers_version="4.43.1", use_cache=True, use_sliding_window=False), t_qwen,
        rope + ["no-qkv-bias", "window-every-layer"], []))
    out.append(("qwen2-window", common(
        "qwen2", "Qwen2ForCausalLM", t_qwen, vocab_extra=5, attention_dropout=0.0,
        bos_token_id=t_qwen["special_ids"]["<|endoftext|>"], eos_token_id=t_qwen["special_ids"]["<|endoftext|>"],
        hidden_act="silu", hidden_size=16, initializer_range=0.02, intermediate_size=28,
        max_position_embeddings=32768, max_window_layers=1, num_attention_heads=4, num_hidden_layers=2,
        num_key_value_heads=2, rms_norm_eps=1e-06, rope_theta=1000000.0, sliding_window=3, tie_word_embeddings=False,
        transformers_version="4.43.1", use_cache=True, use_sliding_window=True), t_qwen,
        rope + ["no-qkv-bias", "window-every-layer", "window-other-layers", "window-inclusive", "embedding-as-head"], []))
    out.append(("qwen3", common(
        "qwen3", "Qwen3ForCausalLM", t_qwen, attention_bias=False, attention_dropout=0.0,
        bos_token_id=t_qwen["special_ids"]["<|endoftext|>"], eos_token_id=t_qwen["special_ids"]["<|im_end|>"],
        head_dim=6, hidden_act="silu", hidden_size=16, initializer_range=0.02, intermediate_size=28,
        max_position_embeddings=40960, max_window_layers=28, num_attention_heads=4, num_hidden_layers=2,
        num_key_value_heads=2, rms_norm_eps=0.02, rope_scaling=None, rope_theta=1000000, sliding_window=None,
        tie_word_embeddings=True, transformers_version="4.51.0", use_cache=True, use_sliding_window=False), t_qwen,
        rope + ["no-qk-norm", "qk-norm-after-rotary", "eps-default"], []))
    out.append(("gemma", common(
        "gemma", "GemmaForCausalLM", t_gemma, attention_bias=False, attention_dropout=0.0, bos_token_id=2,
        eos_token_id=1, head_dim=6, hidden_act="gelu_pytorch_tanh", hidden_activation="gelu_pytorch_tanh",
        hidden_size=18, initializer_range=0.02, intermediate_size=28, max_position_embeddings=8192,
        num_attention_heads=4, num_hidden_layers=2, num_key_value_heads=1, pad_token_id=0, rms_norm_eps=1e-06,
        rope_scaling=None, rope_theta=10000.0, transformers_version="4.38.0.dev0", use_cache=True), t_gemma,
        ["interleaved", "gemma-norm-w", "no-embed-scale", "embed-scale-bf16"], []))
    out.append(("gemma2", common(
        "gemma2", "Gemma2ForCausalLM", t_gemma, attention_bias=False, attention_dropout=0.0,
        attn_logit_softcapping=4.0, bos_token_id=2, cache_implementation="hybrid", eos_token_id=1,
        final_logit_softcapping=3.0, head_dim=6, hidden_act="gelu_pytorch_tanh", hidden_activation="gelu_pytorch_tanh",
        hidden_size=20, initializer_range=0.02, intermediate_size=28, max_position_embeddings=8192,
        num_attention_heads=4, num_hidden_layers=2, num_key_value_heads=2, pad_token_id=0, query_pre_attn_scalar=24,
        rms_norm_eps=0.01, rope_theta=10000.0, sliding_window=3, transformers_version="4.42.4", use_cache=True),
        t_gemma, rope + ["gemma-norm-w", "no-embed-scale", "embed-scale-bf16", "no-attn-cap", "no-final-cap",
                         "scale-head-dim", "window-off", "window-every-layer", "window-other-layers",
                         "window-inclusive", "eps-default"], []))
    types = ["sliding_attention", "sliding_attention", "full_attention"]
    out.append(("gemma3_text", common(
        "gemma3_text", "Gemma3ForCausalLM", t_gemma, attention_bias=False, attention_dropout=0.0, bos_token_id=2,
        cache_implementation="hybrid", eos_token_id=1, head_dim=6, hidden_activation="gelu_pytorch_tanh",
        hidden_size=18, initializer_range=0.02, intermediate_size=28, layer_types=types,
        max_position_embeddings=32768, num_attention_heads=4, num_hidden_layers=3, num_key_value_heads=2,
        pad_token_id=0, query_pre_attn_scalar=12, rms_norm_eps=1e-06, rope_local_base_freq=10000.0,
        rope_scaling={"factor": 4.0, "rope_type": "linear"}, rope_theta=1000000.0, sliding_window=3,
        sliding_window_pattern=3, transformers_version="4.50.0.dev0", use_cache=True), t_gemma,
        rope + ["gemma-norm-w", "no-embed-scale", "no-qk-norm", "qk-norm-after-rotary", "scale-head-dim",
                "window-every-layer", "window-other-layers", "window-inclusive", "gemma3-global-rope-everywhere",
                "gemma3-scaled-local-rope", "with-gemma2-caps"], []))
    out.append(("phi3", common(
        "phi3", "Phi3ForCausalLM", t_phi3, attention_bias=False, attention_dropout=0.0, bos_token_id=1,
        embd_pdrop=0.0, eos_token_id=2, hidden_act="silu", hidden_size=32, initializer_range=0.02,
        intermediate_size=28, max_position_embeddings=4096, num_attention_heads=4, num_hidden_layers=2,
        num_key_value_heads=2, original_max_position_embeddings=4096, pad_token_id=0, partial_rotary_factor=0.75,
        resid_pdrop=0.0, rms_norm_eps=1e-05, rope_scaling=None, rope_theta=10000.0, sliding_window=2047,
        tie_word_embeddings=False, transformers_version="4.40.2", use_cache=True), t_phi3,
        rope + ["rotary-all-dims", "rotary-last-dims", "phi3-qkv-order", "phi3-gate-up-order", "embedding-as-head"], []))
    return out


# ---------------------------------------------------------------- expected.json


def nested(a):
    return np.asarray(a, dtype=np.float64).tolist()  # repr: the shortest text that gives back every bit


def change(a, b):
    """Largest difference between two reference runs over every expected number."""
    m = max(np.abs(np.asarray(x) - np.asarray(y)).max() for x, y in zip(a["hidden"], b["hidden"]))
    m = max(m, np.abs(a["next_token"] - b["next_token"]).max())
    for la, lb in zip(a["layers"], b["layers"]):
        for ha, hb in zip(la["heads"], lb["heads"]):
            m = max(m, np.abs(ha["weights"] - hb["weights"]).max(), np.abs(ha["scores"] - hb["scores"]).max())
    return float(m)


def trap_run(s, P, ids, name):
    if name == "with-gemma2-caps":  # gemma3_text read with Gemma 2's default soft-caps
        return forward(dict(s, attn_cap=50.0, final_cap=30.0), P, ids)
    if name == "window-every-layer" and all(w is None for w in s["windows"]):
        return forward(dict(s, windows=[s["config_window"]] * s["layers"]), P, ids)
    return forward(s, P, ids, trap=frozenset([name]))


def torch_check(s, P, ids, ref, config):
    """The same case through scripts/bench_llama_torch.py's eager forward in float64."""
    try:
        import torch
    except ImportError:
        return "torch not installed: cross-check skipped"
    sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scripts"))
    import bench_llama_torch as bench
    weights = {k: torch.tensor(np.asarray(v, dtype=np.float64)) for k, v in P.items()}
    model = bench.Model(config, weights)
    with torch.inference_mode():
        got = model.forward(torch.tensor(ids), keep_hidden=True)
        ablated = model.forward(torch.tensor(ids), ablate=ABLATE, keep_hidden=True)
    worst = 0.0
    for l, layer in enumerate(ref["layers"]):
        for h, head in enumerate(layer["heads"]):
            worst = max(worst, float(np.abs(got["weights"][l][h].numpy() - head["weights"]).max()))
    worst = max(worst, float(np.abs(got["probabilities"].numpy() - ref["next_token"]).max()))
    worst = max(worst, max(float(np.abs(a.numpy() - b).max()) for a, b in zip(got["hidden"], ref["hidden"])))
    abl = forward(s, P, ids, ablate=ABLATE)
    worst = max(worst, float(np.abs(ablated["probabilities"].numpy() - abl["next_token"]).max()))
    assert worst < 1e-10, f"torch disagrees by {worst}"
    return f"torch agrees ({worst:.1e})"


def main():
    expected = {"note": "written by make_fixtures.py from its numpy float64 reference; see its docstring",
                "text": TEXT, "ablate": {"layer": ABLATE[0], "head": ABLATE[1]}, "cases": {}}
    for name, config, tok, traps, extra in cases():
        s = spec_from_config(config)
        s["config_window"] = config.get("sliding_window")
        P = make_weights(config, s)
        ids = tok["ids"]
        assert max(ids) < s["vocab"] and len(ids) > max([w or 0 for w in s["windows"] if (w or 0) < 1000] + [6])
        ref = forward(s, P, ids)
        abl = forward(s, P, ids, ablate=ABLATE)
        dtype = "BF16" if name in BF16_CASES else "F32"
        shards = 2 if name == SHARDED else 1
        folders = {name: dtype + (", 2 shards" if shards > 1 else "")}
        write_folder(name, config, P, dtype, tok, shards)
        for folder, dtype, shards in extra:
            write_folder(folder, config, P, dtype, tok, shards)
            folders[folder] = dtype + (f", {shards} shards" if shards > 1 else "")
        measured = {}
        for t in traps:
            measured[t] = change(ref, trap_run(s, P, ids, t))
            assert measured[t] > 1e-3, f"{name}: trap {t} moves the numbers by only {measured[t]}"
        print(f"{name}: {len(ids)} tokens; {torch_check(s, P, ids, ref, config)}; traps "
              + ", ".join(f"{k} {v:.3g}" for k, v in measured.items()))
        n = len(ids)
        expected["cases"][name] = {
            "folders": folders,
            "model": {"type": config["model_type"], "layers": s["layers"], "heads": s["heads"], "kv_heads": s["kv"],
                      "head_dim": s["head_dim"], "d_model": s["d"], "vocab": s["vocab"],
                      "tokenizer_size": tok["size"], "tied": s["tied"], "windows": s["windows"],
                      "rotary_dims": s["rotary"], "scaling": s["scaling"], "attn_softcap": s["attn_cap"],
                      "final_softcap": s["final_cap"]},
            "tokenizer": {"bos": tok["bos"], "pieces": tok["tokens"]},
            "token_ids": ids,
            "layers": [{"window": L["window"],
                        "heads": [{"weights": nested(h["weights"]), "scores": nested(h["scores"])} for h in L["heads"]],
                        "queries": nested(L["queries"]), "keys": nested(L["keys"]), "values": nested(L["values"])}
                       for L in ref["layers"]],
            "hidden": [nested(h) for h in ref["hidden"]],
            "next_token": {"position": n - 1, "probabilities": nested(ref["next_token"])},
            "ablated": {"layer": ABLATE[0], "head": ABLATE[1],
                        "next_token": {"position": n - 1, "probabilities": nested(abl["next_token"])},
                        "hidden": nested(abl["hidden"][-1])},
            "traps": measured,
        }
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, separators=(",", ":"), ensure_ascii=False)
        f.write("\n")
    print("wrote", ", ".join(sorted(x for x in os.listdir(HERE) if not x.endswith(".py"))))


if __name__ == "__main__":
    main()
