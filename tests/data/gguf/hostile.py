"""Hostile GGUF files: each breaks one rule of an otherwise valid tiny llama
model (one layer, d_model 32, Q8_0 weights, a 40-token byte-level BPE
vocabulary), so that a reader must refuse it with one line naming what is
wrong. hostile.json lists file, what is wrong, and the words the refusal
must contain (case-insensitive); "truncated" is the word for every read
past the end of the file.

The rules come from ggml's gguf.cpp (what it refuses: version 1 and > 3,
counts and lengths past the file, nested arrays, unknown value and tensor
types, duplicate keys and tensor names, more than 4 or negative
dimensions, element counts overflowing int64, rows not a whole number of
blocks, offsets not the running aligned sum, general.alignment not a u32
power of two) and from what a model reader must check beyond it (a
vocabulary the size of the embedding, merges naming tokens, finite block
scales, known tokenizer and pre-tokenizer names, required tensors).
"""
import os
import struct

import numpy as np

import ggml_quants as gq
from gguf_format import Gguf, encode_array, encode_kv, encode_string

D, FF, H, KV, HD = 32, 32, 2, 1, 16
LETTERS = [chr(c) for c in range(ord("a"), ord("z") + 1)]
TOKENS = ["<|begin_of_text|>", "<|end_of_text|>", "Ġ", "."] + LETTERS + ["th", "the", "Ġt", "Ġth", "Ġthe",
                                                                       "er", "ro", "bo", "ot", "in"]
MERGES = ["t h", "th e", "Ġ t", "Ġt h", "Ġth e", "e r", "r o", "b o", "o t", "i n"]
RNG = np.random.default_rng(2031)


def weights():
    w = {"token_embd.weight": (len(TOKENS), D), "output_norm.weight": (D,), "output.weight": (len(TOKENS), D),
         "blk.0.attn_norm.weight": (D,), "blk.0.attn_q.weight": (H * HD, D), "blk.0.attn_k.weight": (KV * HD, D),
         "blk.0.attn_v.weight": (KV * HD, D), "blk.0.attn_output.weight": (D, H * HD),
         "blk.0.ffn_norm.weight": (D,), "blk.0.ffn_gate.weight": (FF, D), "blk.0.ffn_up.weight": (FF, D),
         "blk.0.ffn_down.weight": (D, FF)}
    out = []
    for name, shape in w.items():
        a = (RNG.standard_normal(shape) * 0.3).astype(np.float32)
        if len(shape) == 1:
            out.append((name, "F32", a))
        else:
            out.append((name, "Q8_0", a))
    return out


def metadata(**change):
    kv = [("general.architecture", "str", "llama"), ("general.name", "str", "hostile base"),
          ("llama.block_count", "u32", 1), ("llama.context_length", "u32", 256),
          ("llama.embedding_length", "u32", D), ("llama.feed_forward_length", "u32", FF),
          ("llama.attention.head_count", "u32", H), ("llama.attention.head_count_kv", "u32", KV),
          ("llama.rope.freq_base", "f32", 10000.0), ("llama.attention.layer_norm_rms_epsilon", "f32", 1e-5),
          ("general.file_type", "u32", 7), ("llama.vocab_size", "u32", len(TOKENS)),
          ("llama.rope.dimension_count", "u32", HD), ("general.quantization_version", "u32", 2),
          ("tokenizer.ggml.model", "str", "gpt2"), ("tokenizer.ggml.pre", "str", "llama-bpe"),
          ("tokenizer.ggml.tokens", "arr:str", TOKENS),
          ("tokenizer.ggml.token_type", "arr:i32", [3, 3] + [1] * (len(TOKENS) - 2)),
          ("tokenizer.ggml.merges", "arr:str", MERGES), ("tokenizer.ggml.bos_token_id", "u32", 0),
          ("tokenizer.ggml.eos_token_id", "u32", 1), ("tokenizer.ggml.add_bos_token", "bool", True)]
    out = []
    for key, vtype, value in kv:
        if key in change:
            if change[key] is None:
                continue
            vtype, value = change[key]
        out.append((key, vtype, value))
    return out


def build(kv=None, tensors=None, extra_kv=(), version=3):
    g = Gguf(version=version)
    for key, vtype, value in (kv if kv is not None else metadata()):
        g.kv(key, vtype, value)
    for record in extra_kv:
        g.raw_kv(record)
    for name, t, a in (tensors if tensors is not None else weights()):
        rows = a.reshape(-1, a.shape[-1]) if a.ndim > 1 else a.reshape(1, -1)
        g.tensor(name, gq.TYPES[t][0], list(reversed(a.shape)), gq.quantize(t, rows).tobytes())
    return g


def with_tensor(name, **fields):
    """The base with one tensor record changed (fields of gguf_format.Tensor)."""
    g = build()
    t = next(t for t in g.tensors if t.name == name)
    for k, v in fields.items():
        setattr(t, k, v)
    return g


def meta_end(g):
    """Byte position where the tensor records end (before the alignment padding)."""
    head = 4 + 4 + 16
    return head + sum(len(r) for r in g.kvs) + sum(len(t.info(0)) for t in g.tensors)


def cases():
    """(file, what is wrong, words, bytes)."""
    out = []

    def add(file, what, words, data):
        out.append((file, what, words, data))

    base = build()
    whole = base.to_bytes()
    kv_start = 24
    first_kv = len(base.kvs[0])
    tokens_at = kv_start + sum(len(r) for r in base.kvs[:16])  # the tokenizer.ggml.tokens record
    info_at = kv_start + sum(len(r) for r in base.kvs)
    data_at = meta_end(base) + (-meta_end(base)) % 32
    add("empty.gguf", "a file of zero bytes", ["truncated"], b"")
    add("truncated-magic.gguf", "two bytes of the magic", ["truncated"], whole[:2])
    add("truncated-header.gguf", "the header cut in the tensor count", ["truncated"], whole[:12])
    add("truncated-key.gguf", "cut inside the first key's name", ["truncated"], whole[:kv_start + 10])
    add("truncated-value.gguf", "cut inside the first value (general.architecture's string)", ["truncated"],
        whole[:kv_start + first_kv - 2])
    add("truncated-array.gguf", "cut inside the tokenizer.ggml.tokens array", ["truncated"], whole[:tokens_at + 100])
    add("truncated-tensor-info.gguf", "cut inside the first tensor record", ["truncated"], whole[:info_at + 20])
    add("truncated-padding.gguf", "cut in the padding before the data section", ["truncated"],
        whole[:meta_end(base) + 1] if (-meta_end(base)) % 32 > 1 else whole[:data_at - 1])
    add("truncated-data.gguf", "cut inside the last tensor's data (blk.0.ffn_down.weight)",
        ["blk.0.ffn_down.weight"], whole[:len(whole) - 200])
    add("not-gguf.gguf", "magic GGML instead of GGUF", ["GGUF"], b"GGML" + whole[4:])
    add("magic-swapped.gguf", "magic FUGG: the bytes of a byte-swapped (big-endian) uint32 magic", ["big-endian"],
        b"FUGG" + whole[4:])
    be = bytearray(whole)
    be[4:8] = struct.pack(">I", 3)
    be[8:24] = struct.pack(">QQ", len(base.tensors), len(base.kvs))
    add("big-endian.gguf", "version and counts big-endian, as gguf-py writes a big-endian file (version reads 50331648)",
        ["big-endian"], bytes(be))
    add("version-1.gguf", "version 1 (32-bit counts, no longer read by anyone)", ["version 1"],
        build(version=1).to_bytes())
    add("version-4.gguf", "version 4 (newer than any reader knows)", ["version 4"], build(version=4).to_bytes())
    add("tensor-count-huge.gguf", "tensor count 2^63", ["tensors"], base.to_bytes(n_tensors=2 ** 63))
    add("kv-count-huge.gguf", "key/value count 2^64 - 1", ["keys"], base.to_bytes(n_kv=2 ** 64 - 1))
    add("kv-count-past-end.gguf", "key/value count one more than the file holds: the tensor records are read as a key",
        ["truncated"], base.to_bytes(n_kv=len(base.kvs) + 1, n_tensors=0)[:info_at])
    rec = encode_string("general.name") + struct.pack("<I", 8) + encode_string("x", length=2 ** 63)
    add("string-length-huge.gguf", "general.name's string claims 2^63 bytes", ["general.name"],
        build(kv=metadata(**{"general.name": None}), extra_kv=[rec]).to_bytes())
    rec = encode_string("k" * 8, length=2 ** 40)
    add("key-length-huge.gguf", "a key whose name claims 2^40 bytes", ["truncated"],
        build(extra_kv=[rec]).to_bytes())
    rec = encode_string("tokenizer.ggml.tokens") + struct.pack("<I", 9) + encode_array("str", TOKENS, count=2 ** 63)
    add("array-length-huge.gguf", "tokenizer.ggml.tokens claims 2^63 elements", ["tokenizer.ggml.tokens"],
        build(kv=metadata(**{"tokenizer.ggml.tokens": None}), extra_kv=[rec]).to_bytes())
    rec = encode_string("tokenizer.ggml.token_type") + struct.pack("<I", 9) + encode_array(
        "i32", [1] * len(TOKENS), count=10 ** 6)
    add("array-past-end.gguf", "tokenizer.ggml.token_type claims a million int32 (4 MB) in a file of a few KB",
        ["tokenizer.ggml.token_type"], build(kv=metadata(**{"tokenizer.ggml.token_type": None}), extra_kv=[rec]).to_bytes())
    rec = encode_string("test.nested") + struct.pack("<I", 9) + encode_array("arr", [("u32", [1, 2]), ("u32", [3])])
    add("nested-array.gguf", "an array of arrays (test.nested)", ["test.nested"], build(extra_kv=[rec]).to_bytes())
    rec = encode_string("test.bad_type") + struct.pack("<I", 13) + b"\0" * 8
    add("value-type-unknown.gguf", "value type 13 (test.bad_type)", ["test.bad_type"], build(extra_kv=[rec]).to_bytes())
    rec = encode_string("test.flag") + struct.pack("<I", 7) + b"\x02"
    add("bool-not-0-or-1.gguf", "a bool stored as 2 (test.flag)", ["test.flag"], build(extra_kv=[rec]).to_bytes())
    add("duplicate-key.gguf", "llama.block_count twice", ["llama.block_count"],
        build(extra_kv=[encode_kv("llama.block_count", "u32", 1)]).to_bytes())
    add("key-wrong-type.gguf", "llama.block_count stored as a string", ["llama.block_count"],
        build(kv=metadata(**{"llama.block_count": ("str", "1")})).to_bytes())
    add("alignment-not-power-of-two.gguf", "general.alignment 24", ["general.alignment"],
        build(extra_kv=[encode_kv("general.alignment", "u32", 24)]).to_bytes())
    add("alignment-wrong-type.gguf", "general.alignment stored as uint64", ["general.alignment"],
        build(extra_kv=[encode_kv("general.alignment", "u64", 32)]).to_bytes())
    add("alignment-zero.gguf", "general.alignment 0", ["general.alignment"],
        build(extra_kv=[encode_kv("general.alignment", "u32", 0)]).to_bytes())
    add("offset-past-end.gguf", "blk.0.attn_q.weight's offset 2^62, past the end",
        ["blk.0.attn_q.weight"], with_tensor("blk.0.attn_q.weight", info_offset=2 ** 62).to_bytes())
    g = build()
    misaligned = g.layout()[4] + 8
    add("offset-misaligned.gguf", "blk.0.attn_q.weight's offset 8 bytes past an aligned one", ["blk.0.attn_q.weight"],
        with_tensor("blk.0.attn_q.weight", info_offset=misaligned).to_bytes())
    add("tensors-overlap.gguf", "blk.0.attn_k.weight's offset is blk.0.attn_q.weight's", ["blk.0.attn_k.weight"],
        with_tensor("blk.0.attn_k.weight", info_offset=g.layout()[4]).to_bytes())
    add("dims-overflow.gguf", "blk.0.attn_q.weight's dimensions 2^32 x 2^32 x 2^32: their product overflows int64 "
        "and wraps to 0 (which slips past the overflow guard of ggml's gguf.cpp)",
        ["blk.0.attn_q.weight"], with_tensor("blk.0.attn_q.weight", ne=[2 ** 32, 2 ** 32, 2 ** 32]).to_bytes())
    add("dims-overflow-wraps-to-size.gguf", "blk.0.attn_q.weight's dimensions 32 x (2^59 + 32): the product wraps "
        "to exactly the 1024 elements its data holds", ["blk.0.attn_q.weight"],
        with_tensor("blk.0.attn_q.weight", ne=[D, 2 ** 59 + 32]).to_bytes())
    add("dim-negative.gguf", "blk.0.attn_q.weight's second dimension 2^63 (negative as int64)",
        ["blk.0.attn_q.weight"], with_tensor("blk.0.attn_q.weight", ne=[D, 2 ** 63]).to_bytes())
    add("dims-zero.gguf", "blk.0.attn_q.weight has no dimensions (n_dims 0)", ["blk.0.attn_q.weight"],
        with_tensor("blk.0.attn_q.weight", ne=[]).to_bytes())
    add("dims-five.gguf", "blk.0.attn_q.weight has 5 dimensions", ["blk.0.attn_q.weight"],
        with_tensor("blk.0.attn_q.weight", ne=[D, H * HD, 1, 1, 1]).to_bytes())
    rows = (RNG.standard_normal((2, 256)) * 0.3).astype(np.float32)
    q4k = gq.quantize("Q4_K", rows).tobytes()
    t = [(n, ty, a) for n, ty, a in weights()]
    g = build(tensors=t)
    g.tensor("blk.0.extra.weight", gq.TYPES["Q4_K"][0], [128, 4], q4k)
    add("row-not-whole-blocks.gguf", "a Q4_K tensor (blk.0.extra.weight) whose rows of 128 are half a 256-element block",
        ["blk.0.extra.weight"], g.to_bytes())
    g = build()
    g.tensor("blk.0.attn_q.weight", g.tensors[4].ggml_type, g.tensors[4].ne, g.tensors[4].data)
    add("duplicate-tensor.gguf", "blk.0.attn_q.weight twice", ["blk.0.attn_q.weight"], g.to_bytes())
    add("type-iq2_xxs.gguf", "blk.0.attn_q.weight of type IQ2_XXS (16), which the reader does not decode",
        ["blk.0.attn_q.weight", "IQ2_XXS"],
        with_tensor("blk.0.attn_q.weight", ggml_type=16, ne=[256, 2], data=b"\0" * 132).to_bytes())
    add("type-unknown.gguf", "blk.0.attn_q.weight of type 99", ["blk.0.attn_q.weight", "99"],
        with_tensor("blk.0.attn_q.weight", ggml_type=99).to_bytes())
    add("vocab-size-mismatch.gguf", "40 tokens in tokenizer.ggml.tokens but 48 rows in token_embd.weight",
        ["token_embd.weight"],
        build(tensors=[(n, ty, (RNG.standard_normal((48, D)) * 0.3).astype(np.float32) if n == "token_embd.weight" else a)
                       for n, ty, a in weights()]).to_bytes())
    add("merge-unknown-token.gguf", "tokenizer.ggml.merges names \"q z\", whose result qz is no token",
        ["tokenizer.ggml.merges"], build(kv=metadata(**{"tokenizer.ggml.merges": ("arr:str", MERGES + ["q z"])})).to_bytes())
    add("merge-malformed.gguf", "a merge without a space (\"thequick\")", ["tokenizer.ggml.merges"],
        build(kv=metadata(**{"tokenizer.ggml.merges": ("arr:str", MERGES + ["thequick"])})).to_bytes())

    def scaled(name, value, typ="Q8_0"):
        tensors = weights()
        g = build(tensors=tensors)
        t = next(t for t in g.tensors if t.name == name)
        data = bytearray(t.data)
        h = np.array([value], np.float16).view(np.uint16)[0]
        off = {"Q8_0": 0, "Q4_K": 0}[typ] + gq.TYPES[typ][2] * 3  # the fourth block
        data[off], data[off + 1] = h & 0xFF, h >> 8
        t.data = bytes(data)
        return g.to_bytes()

    add("scale-nan.gguf", "a NaN scale in token_embd.weight's fourth block", ["token_embd.weight"],
        scaled("token_embd.weight", np.nan))
    add("scale-inf.gguf", "an infinite scale in blk.0.ffn_up.weight's fourth block", ["blk.0.ffn_up.weight"],
        scaled("blk.0.ffn_up.weight", np.inf))
    g = build()
    g.tensor("blk.0.extra_k.weight", gq.TYPES["Q4_K"][0], [256, 2], bytearray(q4k))
    data = bytearray(g.tensors[-1].data)
    data[144 + 0], data[144 + 1] = 0x00, 0x7C  # second block's d = +inf
    g.tensors[-1].data = bytes(data)
    add("scale-inf-q4_k.gguf", "an infinite d in the second Q4_K block of blk.0.extra_k.weight", ["blk.0.extra_k.weight"],
        g.to_bytes())
    add("pre-unknown.gguf", "tokenizer.ggml.pre \"nonesuch-bpe\"", ["nonesuch-bpe"],
        build(kv=metadata(**{"tokenizer.ggml.pre": ("str", "nonesuch-bpe")})).to_bytes())
    add("tokenizer-unknown.gguf", "tokenizer.ggml.model \"wordpiece-x\"", ["wordpiece-x"],
        build(kv=metadata(**{"tokenizer.ggml.model": ("str", "wordpiece-x")})).to_bytes())
    add("architecture-unknown.gguf", "general.architecture \"mamba\"", ["mamba"],
        build(kv=metadata(**{"general.architecture": ("str", "mamba")})).to_bytes())
    add("architecture-missing.gguf", "no general.architecture key", ["general.architecture"],
        build(kv=metadata(**{"general.architecture": None})).to_bytes())
    add("tensor-missing.gguf", "blk.0.attn_k.weight absent", ["blk.0.attn_k.weight"],
        build(tensors=[x for x in weights() if x[0] != "blk.0.attn_k.weight"]).to_bytes())
    add("tensor-wrong-shape.gguf", "blk.0.attn_q.weight 32 x 16 where the metadata implies 32 x 32",
        ["blk.0.attn_q.weight"],
        build(tensors=[(n, ty, a[:16] if n == "blk.0.attn_q.weight" else a) for n, ty, a in weights()]).to_bytes())
    add("head-count-zero.gguf", "llama.attention.head_count 0", ["llama.attention.head_count"],
        build(kv=metadata(**{"llama.attention.head_count": ("u32", 0)})).to_bytes())
    add("token-count-zero.gguf", "an empty tokenizer.ggml.tokens", ["tokenizer.ggml.tokens"],
        build(kv=metadata(**{"tokenizer.ggml.tokens": ("arr:str", []), "tokenizer.ggml.token_type": ("arr:i32", []),
                             "tokenizer.ggml.merges": ("arr:str", [])})).to_bytes())
    return out


def base_bytes():
    return build().to_bytes()


def write_all(folder):
    os.makedirs(folder, exist_ok=True)
    rows = []
    for file, what, words, data in cases():
        with open(os.path.join(folder, file), "wb") as f:
            f.write(data)
        rows.append({"file": file, "what": what, "words": words, "bytes": len(data)})
    return rows
