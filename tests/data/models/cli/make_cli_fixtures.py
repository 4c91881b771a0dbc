#!/usr/bin/python3
"""Tokenizer files and expected numbers for tests/tst_cli_model.cpp.

Run with /usr/bin/python3 (numpy, regex) from anywhere; rewrites the files
next to this one. Nothing here comes from the C++ code under test:

- gpt2-tokenizer/: a byte-level BPE vocabulary (all 256 byte symbols, as
  GPT-2's needs) whose first 29 ids are the tiny gpt2 fixture's vocabulary, so
  that "Hello world!<|endoftext|> the the end" encodes to the fixture's token
  ids [3, 17, 0, 28, 9, 9, 21]. The ids are checked below with GPT-2's own
  algorithm (openai/gpt-2 encoder.py: its regex and bpe()).
- bert-tokenizer/vocab.txt: 31 pieces, so that "The [MASK] cats [MASK]"
  becomes the tiny bert fixture's ids [2, 11, 4, 27, 30, 4, 3].
- cli_expected.json: attention rollout (Abnar & Zuidema) of both fixtures and
  the gpt2 fixture with head 0:1 switched off, from a numpy forward pass of
  the committed F32 checkpoints (checked against ../expected.json first).
"""
import json
import math
import os
import struct
import sys

import numpy as np
import regex

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.dirname(HERE)
sys.path.insert(0, MODELS)
from make_fixtures import (BERT_CONFIG, BERT_IDS, GPT2_CONFIG, GPT2_IDS, gelu_erf, gelu_new,  # noqa: E402
                           layer_norm, softmax)

# ---------------------------------------------------------------- GPT-2 tokenizer


def bytes_to_unicode():
    """openai/gpt-2 encoder.py: printable bytes stand for themselves, the rest are shifted past 255."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


# (left, right) in rank order; every piece they make is in the vocabulary.
MERGES = [("l", "l"), ("H", "e"), ("He", "ll"), ("Hell", "o"),
          ("Ġ", "w"), ("o", "r"), ("Ġw", "or"), ("l", "d"), ("Ġwor", "ld"),
          ("Ġ", "t"), ("h", "e"), ("Ġt", "he"),
          ("e", "n"), ("en", "d"), ("Ġ", "end")]
# The fixture's 29 ids; 28 is <|endoftext|> (its bos/eos_token_id).
PIECES = {0: "!", 3: "Hello", 9: "Ġthe", 17: "Ġworld", 21: "Ġend", 28: "<|endoftext|>"}
GPT2_TEXT = "Hello world!<|endoftext|> the the end"


def gpt2_vocab():
    used = ["H", "e", "l", "o", "Ġ", "w", "r", "d", "t", "h", "n", "."] + [a + b for a, b in MERGES]
    used = [p for p in dict.fromkeys(used) if p not in PIECES.values()]
    free = [i for i in range(29) if i not in PIECES]
    assert len(used) == len(free), (len(used), len(free))
    vocab = dict(PIECES)
    vocab.update(zip(free, used))
    rest = [c for c in bytes_to_unicode().values() if c not in vocab.values()]
    vocab.update(zip(range(29, 29 + len(rest)), rest))
    return {piece: i for i, piece in sorted(vocab.items())}


def bpe(word, ranks):
    """encoder.py's bpe(): merge the lowest-ranked pair everywhere, repeat."""
    word = list(word)
    while len(word) > 1:
        pairs = [(ranks.get((a, b), math.inf), i) for i, (a, b) in enumerate(zip(word, word[1:]))]
        rank, _ = min(pairs)
        if rank == math.inf:
            break
        out, i = [], 0
        while i < len(word):
            if i + 1 < len(word) and ranks.get((word[i], word[i + 1])) == rank:
                out.append(word[i] + word[i + 1])
                i += 2
            else:
                out.append(word[i])
                i += 1
        word = out
    return word


def gpt2_encode(text, vocab):
    pattern = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")
    b2u, ranks = bytes_to_unicode(), {m: r for r, m in enumerate(MERGES)}
    ids = []
    for part_index, part in enumerate(text.split("<|endoftext|>")):
        if part_index:
            ids.append(vocab["<|endoftext|>"])
        for word in pattern.findall(part):
            ids += [vocab[p] for p in bpe("".join(b2u[b] for b in word.encode()), ranks)]
    return ids


# ---------------------------------------------------------------- BERT tokenizer

BERT_PIECES = {0: "[PAD]", 1: "[UNK]", 2: "[CLS]", 3: "[SEP]", 4: "[MASK]", 11: "the", 27: "cat", 30: "##s"}
BERT_FILLER = ["a", "dog", "sat", "on", "mat", "is", "it", "was", "big", "box", "robot", "moved", "heavy",
               "because", "##ing", "##ed", "and", "of", "to", "in", ".", "she", "##es"]
BERT_TEXT = "The [MASK] cats [MASK]"


def bert_vocab():
    pieces = dict(BERT_PIECES)
    pieces.update(zip([i for i in range(31) if i not in BERT_PIECES], BERT_FILLER))
    assert len(pieces) == 31
    return [pieces[i] for i in range(31)]


def bert_encode(text, vocab):
    """Enough of BERT's tokenizer for this text: lower-case, split on spaces, keep [MASK], greedy pieces."""
    ids = [vocab.index("[CLS]")]
    for word in text.split():
        if word == "[MASK]":
            ids.append(vocab.index(word))
            continue
        word, start = word.lower(), 0
        while start < len(word):
            end = len(word)
            while vocab.count(("##" if start else "") + word[start:end]) == 0:
                end -= 1
            ids.append(vocab.index(("##" if start else "") + word[start:end]))
            start = end
    return ids + [vocab.index("[SEP]")]


# ---------------------------------------------------------------- forward passes with ablation


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    out = {}
    for name, t in header.items():
        if name == "__metadata__" or t["dtype"] != "F32":
            continue
        a, b = t["data_offsets"]
        out[name.removeprefix("transformer.").removeprefix("bert.")] = \
            np.frombuffer(data[8 + n + a:8 + n + b], "<f4").reshape(t["shape"]).astype(np.float64)
    return out


def heads(q, k, v, n_head, causal, ablated):
    n, d = q.shape
    hd = d // n_head
    weights, context = [], np.zeros((n, d))
    for h in range(n_head):
        sl = slice(h * hd, (h + 1) * hd)
        s = q[:, sl] @ k[:, sl].T / math.sqrt(hd)
        if causal:
            s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
        w = softmax(s)
        weights.append(w)
        if h not in ablated:  # a switched-off head adds nothing to the context
            context[:, sl] = w @ v[:, sl]
    return weights, context


def gpt2_forward(p, ids, ablate=()):
    cfg, d = GPT2_CONFIG, GPT2_CONFIG["n_embd"]
    eps = cfg["layer_norm_epsilon"]
    h = p["wte.weight"][ids] + p["wpe.weight"][:len(ids)]
    layers = []
    for i in range(cfg["n_layer"]):
        pre = f"h.{i}."
        a = layer_norm(h, p[pre + "ln_1.weight"], p[pre + "ln_1.bias"], eps)
        qkv = a @ p[pre + "attn.c_attn.weight"] + p[pre + "attn.c_attn.bias"]
        w, z = heads(qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:], cfg["n_head"], True,
                     {hh for ll, hh in ablate if ll == i})
        layers.append(w)
        h = h + z @ p[pre + "attn.c_proj.weight"] + p[pre + "attn.c_proj.bias"]
        m = layer_norm(h, p[pre + "ln_2.weight"], p[pre + "ln_2.bias"], eps)
        h = h + gelu_new(m @ p[pre + "mlp.c_fc.weight"] + p[pre + "mlp.c_fc.bias"]) @ p[pre + "mlp.c_proj.weight"] \
            + p[pre + "mlp.c_proj.bias"]
    final = layer_norm(h, p["ln_f.weight"], p["ln_f.bias"], eps)
    return layers, softmax(final[-1] @ p["wte.weight"].T)


def bert_forward(p, ids):
    cfg = BERT_CONFIG
    eps = cfg["layer_norm_eps"]
    e = "embeddings."
    h = p[e + "word_embeddings.weight"][ids] + p[e + "token_type_embeddings.weight"][0] \
        + p[e + "position_embeddings.weight"][:len(ids)]
    h = layer_norm(h, p[e + "LayerNorm.weight"], p[e + "LayerNorm.bias"], eps)

    def lin(x, name):
        return x @ p[name + ".weight"].T + p[name + ".bias"]

    layers = []
    for i in range(cfg["num_hidden_layers"]):
        pre = f"encoder.layer.{i}."
        q, k, v = (lin(h, pre + "attention.self." + t) for t in ("query", "key", "value"))
        w, z = heads(q, k, v, cfg["num_attention_heads"], False, set())
        layers.append(w)
        h = layer_norm(h + lin(z, pre + "attention.output.dense"), p[pre + "attention.output.LayerNorm.weight"],
                       p[pre + "attention.output.LayerNorm.bias"], eps)
        m = gelu_erf(lin(h, pre + "intermediate.dense"))
        h = layer_norm(h + lin(m, pre + "output.dense"), p[pre + "output.LayerNorm.weight"],
                       p[pre + "output.LayerNorm.bias"], eps)
    return layers


def rollout(layers):
    """Abnar & Zuidema: Ã = 0.5·mean_h(A) + 0.5·I, rows renormalised; R = Ã_{L-1} ⋯ Ã_0."""
    r = np.eye(layers[0][0].shape[0])
    for w in layers:
        a = 0.5 * np.mean(w, axis=0) + 0.5 * np.eye(r.shape[0])
        a /= a.sum(axis=-1, keepdims=True)
        r = a @ r
    return r


def main():
    vocab = gpt2_vocab()
    assert gpt2_encode(GPT2_TEXT, vocab) == GPT2_IDS, gpt2_encode(GPT2_TEXT, vocab)
    os.makedirs(os.path.join(HERE, "gpt2-tokenizer"), exist_ok=True)
    with open(os.path.join(HERE, "gpt2-tokenizer", "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    with open(os.path.join(HERE, "gpt2-tokenizer", "merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in MERGES))

    bvocab = bert_vocab()
    assert bert_encode(BERT_TEXT, bvocab) == BERT_IDS, bert_encode(BERT_TEXT, bvocab)
    os.makedirs(os.path.join(HERE, "bert-tokenizer"), exist_ok=True)
    with open(os.path.join(HERE, "bert-tokenizer", "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("".join(piece + "\n" for piece in bvocab))

    with open(os.path.join(MODELS, "expected.json")) as f:
        expected = json.load(f)
    gp = read_safetensors(os.path.join(MODELS, "gpt2-f32", "model.safetensors"))
    bp = read_safetensors(os.path.join(MODELS, "bert-f32", "model.safetensors"))
    g_layers, g_next = gpt2_forward(gp, GPT2_IDS)
    b_layers = bert_forward(bp, BERT_IDS)
    for ours, theirs in ((g_layers, expected["gpt2"]["layers"]), (b_layers, expected["bert"]["layers"])):
        for w_layer, e_layer in zip(ours, theirs):
            for w, e in zip(w_layer, e_layer["heads"]):
                assert np.allclose(w, e["weights"], atol=1e-12)
    assert np.allclose(g_next, expected["gpt2"]["next_token"], atol=1e-12)

    a_layers, a_next = gpt2_forward(gp, GPT2_IDS, ablate=[(0, 1)])
    out = {
        "note": "written by make_cli_fixtures.py from a numpy forward pass of the F32 fixtures",
        "gpt2": {"text": GPT2_TEXT, "token_ids": GPT2_IDS, "rollout": rollout(g_layers).tolist(),
                 "tokens": ["Hello", " world", "!", "<|endoftext|>", " the", " the", " end"]},
        "bert": {"text": BERT_TEXT, "token_ids": BERT_IDS, "rollout": rollout(b_layers).tolist(),
                 "tokens": ["[CLS]", "the", "[MASK]", "cat", "##s", "[MASK]", "[SEP]"]},
        "gpt2_ablate_0_1": {"layers": [[w.tolist() for w in layer] for layer in a_layers],
                            "next_token": a_next.tolist(), "rollout": rollout(a_layers).tolist()},
    }
    with open(os.path.join(HERE, "cli_expected.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print("wrote gpt2-tokenizer/, bert-tokenizer/, cli_expected.json")


if __name__ == "__main__":
    main()
