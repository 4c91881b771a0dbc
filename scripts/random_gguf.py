#!/usr/bin/python3
"""Writes a GGUF model of random weights in the shape of a real checkpoint,
quantised as llama.cpp mixes it, for benchmarks and screenshots when no real
file is at hand (its attention patterns and next-token guesses mean nothing).

    /usr/bin/python3 scripts/random_gguf.py PRESET OUT.gguf [--type Q4_K_M|Q8_0]
                     [--layers N] [--seed 1]

PRESET is one of scripts/random_family_model.py's (qwen2.5-0.5b,
smollm2-135m, llama-3.2-1b, gemma-2-2b, llama-3-8b): the same shapes and
config keys, written as llama.cpp's converter writes the metadata
(tests/data/gguf/convert.py) and with the tensor types llama-quantize gives
a Q4_K_M or Q8_0 file (tests/data/gguf/llama_quant.py: Q4_K with Q6_K for
the output and the attn_v and ffn_down of the layers llama.cpp picks; norms,
biases and rope_freqs in F32).

The weights are random blocks, not quantised floats: random codes with
scales set so each tensor has about the spread random_family_model.py gives
it (queries and keys wider, so heads are not uniform), which is as good as
random floats for timing and far faster to make. Norms are 1, biases 0.

The tokenizer in the metadata is plausible: for llama and qwen2 presets a
gpt2 (byte-level BPE) vocabulary of the 256 byte tokens, a thousand
merges learnt from the repository's README.md, unused [PAD] tokens up to the
real size and the family's special tokens at their real ids, with
tokenizer.ggml.pre llama-bpe, smollm or qwen2; for gemma-2-2b a llama
(SentencePiece) vocabulary of <0xNN> byte tokens and the same pieces with
scores. Every text opens.

The file is written tensor by tensor in slices of rows, so memory stays
small whatever the size: Llama-3-8B in Q4_K_M is a 4.92 GB file (the size
of the real one). On this machine (2 shared cores) it took 88 s to write
with a peak of 70 MB resident; Qwen2.5-0.5B (0.40 GB in Q4_K_M, with Q5_0
and Q8_0 where its 896-wide rows are not whole 256-element blocks, as in the
real file; 0.53 GB in Q8_0) takes about 40 s, most of it learning the merges.
ggml's gguf.cpp opens both and ggml_validate_row_data accepts every tensor.
"""
import argparse
import collections
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "data", "gguf"))
import random_family_model as rfm  # noqa: E402
import convert  # noqa: E402
import ggml_quants as gq  # noqa: E402
import llama_quant  # noqa: E402
from gguf_format import Gguf, encode_kv, pad  # noqa: E402

SPECIALS = {"llama-bpe": (128000, ["<|begin_of_text|>", "<|end_of_text|>"]),
            "qwen2": (151643, ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]),
            "smollm": (0, ["<|endoftext|>", "<|im_start|>", "<|im_end|>"])}


def learn_merges(count):
    """Byte-level BPE merges learnt from README.md (most frequent pair first)."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    others = [b for b in range(256) if b not in printable]
    b2u = dict(zip(printable + others, rfm.byte_tokens()))  # byte_tokens() lists them in this order
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    words = collections.Counter("".join(b2u[b] for b in w.encode()) for w in re.findall(r" ?\w+| ?[^\s\w]+", text))
    words = {tuple(w): n for w, n in words.items()}
    merges = []
    while len(merges) < count:
        pairs = collections.Counter()
        for w, n in words.items():
            for p in zip(w, w[1:]):
                pairs[p] += n
        if not pairs:
            break
        (a, b), _ = pairs.most_common(1)[0]
        merges.append((a, b))
        new = {}
        for w, n in words.items():
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and w[i] == a and w[i + 1] == b:
                    out.append(a + b)
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            new[tuple(out)] = new.get(tuple(out), 0) + n
        words = new
    return merges


def tokenizer(config, preset):
    n = config["vocab_size"]
    merges = learn_merges(1000)
    if config["model_type"] == "gemma2":
        specials = ["<pad>", "<eos>", "<bos>", "<unk>"]
        tokens = specials + [f"<0x{b:02X}>" for b in range(256)]
        types = [3, 3, 3, 2] + [6] * 256
        pieces = ["▁"] + [(a + b).replace("Ġ", "▁") for a, b in merges]
        seen = set(tokens)
        for p in pieces:
            if p not in seen and len(tokens) < n:
                seen.add(p)
                tokens.append(p)
                types.append(1)
        scores = [0.0] * 260 + [-float(i) for i in range(len(tokens) - 260)]
        while len(tokens) < n:
            tokens.append(f"<unused{len(tokens)}>")
            types.append(5)
            scores.append(-1e9)
        return [("tokenizer.ggml.model", "str", "llama"), ("tokenizer.ggml.pre", "str", "default"),
                ("tokenizer.ggml.tokens", "arr:str", tokens), ("tokenizer.ggml.scores", "arr:f32", scores),
                ("tokenizer.ggml.token_type", "arr:i32", types), ("tokenizer.ggml.bos_token_id", "u32", 2),
                ("tokenizer.ggml.eos_token_id", "u32", 1), ("tokenizer.ggml.unknown_token_id", "u32", 3),
                ("tokenizer.ggml.padding_token_id", "u32", 0), ("tokenizer.ggml.add_bos_token", "bool", True),
                ("tokenizer.ggml.add_space_prefix", "bool", False)]
    pre = "qwen2" if config["model_type"] == "qwen2" else ("smollm" if preset.startswith("smollm") else "llama-bpe")
    first, specials = SPECIALS[pre]
    tokens = list(specials) if pre == "smollm" else []
    tokens += rfm.byte_tokens()
    seen = set(tokens)
    kept = []
    for a, b in merges:
        if a + b not in seen:
            seen.add(a + b)
            tokens.append(a + b)
            kept.append(f"{a} {b}")
    types = [3 if t in specials else 1 for t in tokens]
    while len(tokens) < n:
        i = len(tokens)
        k = i - first
        if pre != "smollm" and 0 <= k < len(specials):
            tokens.append(specials[k])
            types.append(3)
        elif pre == "llama-bpe" and k >= len(specials):
            tokens.append(f"<|reserved_special_token_{k - len(specials)}|>")
            types.append(3)
        else:
            tokens.append(f"[PAD{i}]")
            types.append(5)
    bos = first
    eos = first + (1 if pre == "llama-bpe" else 0)
    out = [("tokenizer.ggml.model", "str", "gpt2"), ("tokenizer.ggml.pre", "str", pre),
           ("tokenizer.ggml.tokens", "arr:str", tokens), ("tokenizer.ggml.token_type", "arr:i32", types),
           ("tokenizer.ggml.merges", "arr:str", kept), ("tokenizer.ggml.bos_token_id", "u32", bos),
           ("tokenizer.ggml.eos_token_id", "u32", eos)]
    if pre != "llama-bpe":
        out.append(("tokenizer.ggml.add_bos_token", "bool", False))
    return out


def random_blocks(kind, rows, n, std, rng):
    """rows x row_bytes of random blocks whose values spread about std around 0."""
    _, block, size = gq.TYPES[kind]
    nb = rows * (n // block)
    if kind in ("F32", "F16"):
        x = rng.standard_normal((rows, n), dtype=np.float32) * np.float32(std)
        return gq.quantize(kind, x)
    b = rng.integers(0, 256, (nb, size), dtype=np.uint8)
    if kind == "Q8_0":
        q = np.clip(rng.standard_normal((nb, 32)) * 40, -127, 127).astype(np.int8)
        b[:, 2:] = q.view(np.uint8)
        d = np.full(nb, std / 40, np.float32)
        b[:, 0:2] = gq.to_f16(d).view(np.uint8).reshape(nb, 2)
    elif kind == "Q4_K":  # y = d*sc*(q - 7.5) with sc = m and dmin = 7.5 d
        sc = rng.integers(32, 64, (nb, 8))
        b[:, 4:16] = gq.pack_scale_min_k4(sc, sc)
        d = np.full(nb, std / (48 * 4.6), np.float32)
        b[:, 0:2] = gq.to_f16(d).view(np.uint8).reshape(nb, 2)
        b[:, 2:4] = gq.to_f16(d * np.float32(7.5)).view(np.uint8).reshape(nb, 2)
    elif kind in ("Q5_0", "Q5_1"):  # y = d*(q - 16), or d*q + m with m = -15.5 d
        d = np.full(nb, std / 9.2, np.float32)
        b[:, 0:2] = gq.to_f16(d).view(np.uint8).reshape(nb, 2)
        if kind == "Q5_1":
            b[:, 2:4] = gq.to_f16(d * np.float32(-15.5)).view(np.uint8).reshape(nb, 2)
    elif kind == "Q6_K":  # y = d*sc*(q - 32)
        b[:, 192:208] = rng.integers(32, 128, (nb, 16)).astype(np.uint8)
        b[:, 208:210] = gq.to_f16(np.full(nb, std / (80 * 18.5), np.float32)).view(np.uint8).reshape(nb, 2)
    else:
        raise ValueError(kind)
    return b.reshape(rows, -1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("preset", choices=sorted(rfm.PRESETS))
    parser.add_argument("out")
    parser.add_argument("--type", choices=["Q4_K_M", "Q8_0"], default="Q4_K_M")
    parser.add_argument("--layers", type=int)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    config = dict(rfm.PRESETS[args.preset])
    if args.layers:
        config["num_hidden_layers"] = args.layers
    rng = np.random.default_rng(args.seed)
    name = f"{args.preset} (random weights)"
    kv = {"general.architecture": ("str", convert.ARCH[config["model_type"]]), "general.type": ("str", "model"),
          "general.name": ("str", name)}
    kv.update(convert.hparams(None, config, llama_quant.FILE_TYPES[args.type]))
    kv["general.quantization_version"] = ("u32", 2)
    for key, vtype, value in tokenizer(config, args.preset):
        kv[key] = (vtype, value)
    # tensors in GGUF names and ggml order, with the spread random_family_model.py gives them
    specs = {}
    rs = config.get("rope_scaling") or {}
    if rs.get("rope_type") == "llama3":
        specs["rope_freqs.weight"] = ([len(convert.llama3_rope_factors(config))], None)
    arch = convert.ARCH[config["model_type"]]
    for hf, shape, std in rfm.tensors(config):
        if arch.startswith("gemma") and hf == "lm_head.weight":
            continue
        specs[convert.gguf_name(hf, arch)] = (list(reversed(shape)), std)
    types = llama_quant.tensor_types({k: v[0] for k, v in specs.items()}, config["num_hidden_layers"], args.type)
    order = llama_quant.order(specs)
    g = Gguf()
    for key, (vtype, value) in kv.items():
        g.kv(key, vtype, value)
    sizes = {}
    for t in order:
        ne = specs[t][0]
        rows = int(np.prod(ne[1:])) if len(ne) > 1 else 1
        sizes[t] = rows * gq.row_bytes(types[t], ne[0])
        g.tensor(t, gq.TYPES[types[t]][0], ne, b"")
    at = 0  # offsets: the running sum, each padded to the alignment
    for t in g.tensors:
        t.info_offset = at
        at += sizes[t.name] + pad(sizes[t.name], 32)
    head = g.to_bytes()  # metadata and tensor records (empty data), padded to the alignment
    with open(args.out, "wb") as f:
        f.write(head)
        for t in order:
            ne, std = specs[t]
            if t == "rope_freqs.weight":
                f.write(convert.llama3_rope_factors(config).astype("<f4").tobytes())
            elif len(ne) == 1:
                value = 0.0 if t.endswith(".bias") else 1.0
                f.write(np.full(ne[0], value, "<f4").tobytes())
            else:
                step = max(1, (1 << 22) // ne[0])
                for start in range(0, ne[1], step):
                    f.write(random_blocks(types[t], min(step, ne[1] - start), ne[0], std, rng).tobytes())
            f.write(b"\0" * pad(sizes[t], 32))
    counts = collections.Counter(types.values())
    print(f"{args.out}: {os.path.getsize(args.out) / 1e9:.2f} GB, {dict(counts)}")


if __name__ == "__main__":
    main()
