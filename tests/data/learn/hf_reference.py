#!/usr/bin/python3
"""What Hugging Face transformers makes of the model folders this program trains.

An independent reference, numpy and regex only (no torch, no transformers, no
code of this project), written from transformers' GPT-2 sources:
  configuration_gpt2.py  GPT2Config's fields, defaults and attribute_map;
  modeling_gpt2.py       GPT2LMHeadModel: the tensors it expects, Conv1D
                         (y = x.W + b, W stored [in, out]), the attention
                         (c_attn split q | k | v, heads, 1/sqrt(head_dim),
                         causal mask, softmax), pre-LayerNorm blocks, the MLP
                         with ACT2FN[activation_function], ln_f, the lm_head
                         tied to wte;
  tokenization_gpt2.py   GPT2Tokenizer: bytes_to_unicode, the pre-tokenizer
                         pattern, merges.txt read as split("\\n")[1:-1], BPE
                         by merge rank, vocab.json lookup;
and the safetensors format (8-byte little-endian header length, JSON header,
raw little-endian data) with the metadata check of transformers'
modeling_utils (format "pt", "tf", "flax" or "mlx").

For each shipped model folder it checks the files, prints what transformers
would do differently (exit status 1 if anything), and writes
tests/data/learn/hf_reference.json: per text the token ids, every layer's and
head's attention weights of the last query row, and the next-token
probabilities after the last position, which tst_hflayout compares with this
program's tokenizer and forward pass.

Run: /usr/bin/python3 tests/data/learn/hf_reference.py
     /usr/bin/python3 tests/data/learn/hf_reference.py --check DIR [TEXT ...]
     (any model folder, e.g. one `attention-explorer train` just wrote; writes nothing;
     a folder whose config.json says model_type llama is checked by hf_llama_reference.py)
"""

import json
import math
import os
import sys

import numpy as np
import regex

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
OUTPUT = os.path.join(HERE, "hf_reference.json")

MODELS = {
    "induction": ["qmEjxBtrkwaDcsqmEjxBt", "abcdefgFEDCBAabcdefgFE"],
    "pronoun": [
        "The girl passed the red box and it",
        "Today, the old robot followed the small queen twice and she",
        "Later, the big king found the little lamp slowly and it",
    ],
}

# ---------------------------------------------------------------- safetensors

DTYPES = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4", "I16": "<i2",
          "I8": "i1", "U8": "u1", "BOOL": "?", "U16": "<u2", "U32": "<u4", "U64": "<u8"}


def read_safetensors(path, problems):
    """name -> numpy array (BF16 widened to float32), and the metadata."""
    data = open(path, "rb").read()
    if len(data) < 8:
        raise SystemExit(f"{path}: shorter than the 8-byte header length")
    n = int.from_bytes(data[:8], "little")
    if n > 100_000_000 or 8 + n > len(data):
        raise SystemExit(f"{path}: header length {n} does not fit the file")
    header = json.loads(data[8:8 + n].decode("utf-8"))
    buffer = memoryview(data)[8 + n:]
    metadata = header.pop("__metadata__", None)
    tensors, spans = {}, []
    for name, entry in header.items():
        dtype, shape, (begin, end) = entry["dtype"], entry["shape"], entry["data_offsets"]
        count = int(np.prod(shape, dtype=np.int64))
        if dtype == "BF16":
            if end - begin != 2 * count:
                problems.append(f"model.safetensors: {name}: {end - begin} bytes for {count} BF16 values")
                continue
            raw = np.frombuffer(buffer[begin:end], dtype="<u2").astype(np.uint32) << 16
            array = raw.view(np.float32)
        else:
            np_dtype = np.dtype(DTYPES[dtype])
            if end - begin != np_dtype.itemsize * count:
                problems.append(f"model.safetensors: {name}: {end - begin} bytes for {count} {dtype} values")
                continue
            array = np.frombuffer(buffer[begin:end], dtype=np_dtype)
        tensors[name] = (dtype, array.reshape(shape))
        spans.append((begin, end))
    # safetensors' own validator: the tensors tile the buffer from 0, no gaps.
    position = 0
    for begin, end in sorted(spans):
        if begin != position:
            problems.append(f"model.safetensors: data offsets leave a gap or overlap at byte {position}")
        position = end
    if position != len(buffer):
        problems.append(f"model.safetensors: the tensors end at {position}, the buffer at {len(buffer)}")
    # modeling_utils.load_state_dict refuses an archive without this metadata.
    if metadata is None or metadata.get("format") not in ("pt", "tf", "flax", "mlx"):
        problems.append(f"model.safetensors: __metadata__.format is {metadata and metadata.get('format')!r}: "
                        "transformers refuses the archive (\"does not contain the valid metadata\")")
    return tensors, metadata


# ---------------------------------------------------------------- config.json

# GPT2Config.__init__'s defaults, and PretrainedConfig's for the fields the
# GPT-2 model classes read.
GPT2_DEFAULTS = {
    "vocab_size": 50257, "n_positions": 1024, "n_embd": 768, "n_layer": 12, "n_head": 12, "n_inner": None,
    "activation_function": "gelu_new", "resid_pdrop": 0.1, "embd_pdrop": 0.1, "attn_pdrop": 0.1,
    "layer_norm_epsilon": 1e-5, "initializer_range": 0.02, "summary_type": "cls_index", "summary_use_proj": True,
    "summary_activation": None, "summary_proj_to_labels": True, "summary_first_dropout": 0.1,
    "scale_attn_weights": True, "use_cache": True, "bos_token_id": 50256, "eos_token_id": 50256,
    "scale_attn_by_inverse_layer_idx": False, "reorder_and_upcast_attn": False,
}
PRETRAINED_DEFAULTS = {"tie_word_embeddings": True, "add_cross_attention": False, "pruned_heads": {},
                       "is_encoder_decoder": False, "pad_token_id": None}
# The fields GPT2LMHeadModel's construction or forward pass reads.
MODEL_FIELDS = {"vocab_size", "n_positions", "n_embd", "n_layer", "n_head", "n_inner", "activation_function",
                "layer_norm_epsilon", "scale_attn_weights", "scale_attn_by_inverse_layer_idx",
                "reorder_and_upcast_attn"}
ATTRIBUTE_MAP = {"hidden_size": "n_embd", "max_position_embeddings": "n_positions",
                 "num_attention_heads": "n_head", "num_hidden_layers": "n_layer"}
# Fields every config carries (PretrainedConfig) that change nothing in the model built.
PRETRAINED_HARMLESS = {"model_type", "architectures", "transformers_version", "torch_dtype", "_name_or_path",
                       "task_specific_params", "id2label", "label2id", "output_attentions",
                       "output_hidden_states", "return_dict", "torchscript", "use_bfloat16"}


def gelu_new(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * np.power(x, 3.0))))


def gelu_erf(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


# activations.ACT2FN, the entries a GPT-2 config may name.
ACTIVATIONS = {
    "gelu_new": gelu_new, "gelu_pytorch_tanh": gelu_new, "gelu": gelu_erf,
    "gelu_fast": lambda x: 0.5 * x * (1.0 + np.tanh(x * 0.7978845608 * (1.0 + 0.044715 * x * x))),
    "quick_gelu": lambda x: x / (1.0 + np.exp(-1.702 * x)), "relu": lambda x: np.maximum(x, 0.0),
    "silu": lambda x: x / (1.0 + np.exp(-x)), "swish": lambda x: x / (1.0 + np.exp(-x)), "tanh": np.tanh,
    "linear": lambda x: x,
}


def read_config(path, problems, notes):
    """The values GPT2Config would hold, and what in the file changes the model."""
    raw = json.load(open(path, encoding="utf-8"))
    config = dict(GPT2_DEFAULTS, **PRETRAINED_DEFAULTS)
    for key, value in raw.items():
        config[ATTRIBUTE_MAP.get(key, key)] = value
    if raw.get("model_type") != "gpt2":
        problems.append(f"config.json: model_type {raw.get('model_type')!r}: AutoConfig would not build GPT2Config")
    if "GPT2LMHeadModel" not in (raw.get("architectures") or []):
        notes.append("config.json: architectures does not name GPT2LMHeadModel (pipelines pick the class from it)")
    for key in sorted(MODEL_FIELDS - set(raw)):
        notes.append(f"config.json: no {key}: GPT2Config takes {GPT2_DEFAULTS[key]!r}")
    for key in sorted(set(raw) - set(GPT2_DEFAULTS) - set(PRETRAINED_DEFAULTS) - set(ATTRIBUTE_MAP)
                      - PRETRAINED_HARMLESS):
        notes.append(f"config.json: {key} is not a GPT2Config field: kept as an attribute, the model ignores it")
    # What transformers would build differently from a plain GPT-2 of these sizes.
    if config["n_embd"] % config["n_head"]:
        problems.append(f"config.json: n_embd {config['n_embd']} is not a multiple of n_head {config['n_head']}: "
                        "GPT2Attention raises ValueError")
    if config["activation_function"] not in ACTIVATIONS:
        problems.append(f"config.json: activation_function {config['activation_function']!r} is not in ACT2FN")
    elif config["activation_function"] != "gelu_new":
        problems.append(f"config.json: activation_function {config['activation_function']!r}, not gelu_new")
    if not config["scale_attn_weights"]:
        problems.append("config.json: scale_attn_weights false: scores are not divided by sqrt(head_dim)")
    if config["scale_attn_by_inverse_layer_idx"]:
        problems.append("config.json: scale_attn_by_inverse_layer_idx true: layer i's scores also divided by i + 1")
    if config["add_cross_attention"]:
        problems.append("config.json: add_cross_attention true: every block gets crossattention weights")
    if not config["tie_word_embeddings"]:
        problems.append("config.json: tie_word_embeddings false: lm_head.weight is a separate tensor")
    if config["pruned_heads"]:
        problems.append(f"config.json: pruned_heads {config['pruned_heads']}: those heads are removed at load")
    for key in ("bos_token_id", "eos_token_id"):
        token = config[key]
        if token is not None and 0 <= token < config["vocab_size"]:
            notes.append(f"config.json: {key} {token} is an ordinary token of the model: generate() "
                         + ("stops when it produces it" if key == "eos_token_id" else "starts from it if given no input"))
    return config


def expected_tensors(config):
    """GPT2LMHeadModel's state dict for `config` (unprefixed, as the gpt2 checkpoint on the Hub writes it)."""
    d, inner = config["n_embd"], config["n_inner"] or 4 * config["n_embd"]
    shapes = {"wte.weight": [config["vocab_size"], d], "wpe.weight": [config["n_positions"], d]}
    for i in range(config["n_layer"]):
        p = f"h.{i}."
        shapes.update({p + "ln_1.weight": [d], p + "ln_1.bias": [d],
                       p + "attn.c_attn.weight": [d, 3 * d], p + "attn.c_attn.bias": [3 * d],
                       p + "attn.c_proj.weight": [d, d], p + "attn.c_proj.bias": [d],
                       p + "ln_2.weight": [d], p + "ln_2.bias": [d],
                       p + "mlp.c_fc.weight": [d, inner], p + "mlp.c_fc.bias": [inner],
                       p + "mlp.c_proj.weight": [inner, d], p + "mlp.c_proj.bias": [d]})
    shapes.update({"ln_f.weight": [d], "ln_f.bias": [d]})
    return shapes


def check_tensors(tensors, config, problems, notes):
    """The weights by unprefixed name, as from_pretrained would load them."""
    prefixed = [n for n in tensors if n.startswith("transformer.")]
    strip = len(prefixed) > 0
    if strip and len(prefixed) != len([n for n in tensors if n != "lm_head.weight"]):
        problems.append("model.safetensors: some names have the transformer. prefix and some not")
    names = {(n[len("transformer."):] if strip and n.startswith("transformer.") else n): n for n in tensors}
    # Buffers and the tied head: _keys_to_ignore_on_load_missing (older
    # releases) or non-persistent buffers and _tied_weights_keys (newer): no warning.
    ignorable = {"lm_head.weight"} | {f"h.{i}.attn.{b}" for i in range(config["n_layer"]) for b in ("bias", "masked_bias")}
    return check_layout(tensors, names, expected_tensors(config), ignorable, "GPT2LMHeadModel", problems, notes)


def check_layout(tensors, names, expected, ignorable, model_class, problems, notes):
    """What from_pretrained makes of the archive's tensors: `names` maps the
    name the model class knows to the stored one; `expected` is the class's
    state dict (name -> shape), `ignorable` what it loads without a warning
    though it is not in it (tied weights, buffers). Returns the weights by
    the class's names, and their dtypes and shapes."""
    for name in sorted(set(expected) - set(names)):
        problems.append(f"model.safetensors: no {name}: transformers warns it is newly initialized (random)")
    for name in sorted(set(names) - set(expected) - ignorable):
        problems.append(f"model.safetensors: {name} is not a {model_class} weight: "
                        "transformers warns \"Some weights of the model checkpoint ... were not used\"")
    for name in sorted(set(names) & ignorable):
        notes.append(f"model.safetensors: {name} present, ignored (tied or a buffer)")
    weights = {}
    for name, shape in expected.items():
        if name not in names:
            continue
        dtype, array = tensors[names[name]]
        if list(array.shape) != shape:
            problems.append(f"model.safetensors: {name} is {list(array.shape)}, {model_class} expects {shape}"
                            " (\"size mismatch\" error)")
        elif dtype not in ("F32", "F16", "BF16", "F64"):
            problems.append(f"model.safetensors: {name} is {dtype}, not a floating-point type")
        elif not np.all(np.isfinite(array)):
            problems.append(f"model.safetensors: {name} holds a NaN or an infinity")
        else:
            weights[name] = array
    return weights, {name: [tensors[names[name]][0], shape] for name, shape in expected.items() if name in names}


# ---------------------------------------------------------------- tokenizer

PATTERN = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, [chr(c) for c in cs]))


class Gpt2Tokenizer:
    def __init__(self, folder, config, problems, notes):
        self.encoder = json.load(open(os.path.join(folder, "vocab.json"), encoding="utf-8"))
        self.decoder = {i: t for t, i in self.encoder.items()}
        if len(self.decoder) != len(self.encoder):
            problems.append("vocab.json: two tokens share an id")
        text = open(os.path.join(folder, "merges.txt"), encoding="utf-8").read()
        lines = text.split("\n")
        # GPT2Tokenizer drops the first line whatever it is, and the last (empty after a final newline).
        if not lines[0].startswith("#version"):
            problems.append(f"merges.txt: first line {lines[0]!r} is not #version: GPT2Tokenizer drops it as one")
        if lines[-1] != "":
            problems.append("merges.txt: no newline at the end: GPT2Tokenizer drops the last merge")
        merges = [tuple(line.split()) for line in lines[1:-1]]
        self.ranks = dict(zip(merges, range(len(merges))))
        for rank, merge in enumerate(merges):
            if len(merge) != 2:
                problems.append(f"merges.txt: merge {rank} has {len(merge)} parts")
                continue
            # The fast tokenizer (tokenizers' BPE builder) refuses a merge whose parts or result are unknown.
            for part in (merge[0], merge[1], merge[0] + merge[1]):
                if part not in self.encoder:
                    problems.append(f"merges.txt: merge {rank} {' '.join(merge)!r}: {part!r} is not in vocab.json "
                                    "(GPT2TokenizerFast: MergeTokenOutOfVocabulary)")
        self.byte_encoder = bytes_to_unicode()
        self.byte_decoder = {c: b for b, c in self.byte_encoder.items()}
        if len(self.encoder) > config["vocab_size"]:
            notes.append(f"vocab.json: {len(self.encoder)} tokens, the model {config['vocab_size']}: "
                         f"a text needing an id >= {config['vocab_size']} makes the model raise IndexError")
        if "<|endoftext|>" not in self.encoder:
            notes.append("vocab.json: no <|endoftext|>, GPT2Tokenizer's unk, bos and eos token: releases since "
                         f"4.34 add it as token {len(self.encoder)}, beyond the model's vocabulary")

    def bpe(self, token):
        word = tuple(token)
        if len(word) < 2:
            return list(word)
        while True:
            pairs = {(a, b) for a, b in zip(word, word[1:])}
            bigram = min(pairs, key=lambda pair: self.ranks.get(pair, float("inf")))
            if bigram not in self.ranks:
                break
            first, second = bigram
            merged, i = [], 0
            while i < len(word):
                if i < len(word) - 1 and word[i] == first and word[i + 1] == second:
                    merged.append(first + second)
                    i += 2
                else:
                    merged.append(word[i])
                    i += 1
            word = tuple(merged)
            if len(word) == 1:
                break
        return list(word)

    def encode(self, text):
        pieces = []
        for chunk in PATTERN.findall(text):
            pieces += self.bpe("".join(self.byte_encoder[b] for b in chunk.encode("utf-8")))
        unknown = [p for p in pieces if p not in self.encoder]
        if unknown:
            raise SystemExit(f"text {text!r}: {unknown} not in vocab.json")
        return [self.encoder[p] for p in pieces]

    def text_of(self, token_id):
        return bytes(self.byte_decoder[c] for c in self.decoder[token_id]).decode("utf-8", errors="replace")


# ---------------------------------------------------------------- forward pass

def layer_norm(x, weight, bias, eps):
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)  # biased, as nn.LayerNorm
    return (x - mean) / np.sqrt(variance + eps) * weight + bias


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def forward(weights, config, ids, dtype):
    """GPT2LMHeadModel(input_ids, output_attentions=True) in eval mode: (attentions [layer][head] n x n, logits n x V)."""
    w = {name: array.astype(dtype) for name, array in weights.items()}
    n, d, heads = len(ids), config["n_embd"], config["n_head"]
    head_dim = d // heads
    eps = config["layer_norm_epsilon"]
    act = ACTIVATIONS[config["activation_function"]]
    if n > config["n_positions"]:
        raise SystemExit(f"{n} tokens, the model has {config['n_positions']} positions")
    h = w["wte.weight"][ids] + w["wpe.weight"][np.arange(n)]
    causal = np.tril(np.ones((n, n), dtype=bool))
    attentions = []
    for i in range(config["n_layer"]):
        p = f"h.{i}."
        x = layer_norm(h, w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        qkv = x @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]  # Conv1D: no transpose
        q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
        split = lambda t: t.reshape(n, heads, head_dim).transpose(1, 0, 2)  # _split_heads
        q, k, v = split(q), split(k), split(v)
        scores = q @ k.transpose(0, 2, 1)
        if config["scale_attn_weights"]:
            scores = scores / dtype(math.sqrt(head_dim))
        if config["scale_attn_by_inverse_layer_idx"]:
            scores = scores / dtype(i + 1)
        scores = np.where(causal, scores, np.finfo(dtype).min)
        a = softmax(scores)
        attentions.append(a)
        context = (a @ v).transpose(1, 0, 2).reshape(n, d)  # _merge_heads
        h = h + context @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        x = layer_norm(h, w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        x = act(x @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"])
        h = h + x @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
    h = layer_norm(h, w["ln_f.weight"], w["ln_f.bias"], eps)
    return attentions, h @ w["wte.weight"].T  # lm_head tied to wte, no bias


# ---------------------------------------------------------------- driver

def reference_of(name, texts, folder=None):
    folder = folder or os.path.join(ROOT, "resources", "examples", "models", name)
    problems, notes = [], []
    config = read_config(os.path.join(folder, "config.json"), problems, notes)
    tensors, metadata = read_safetensors(os.path.join(folder, "model.safetensors"), problems)
    weights, layout = check_tensors(tensors, config, problems, notes)
    tokenizer = Gpt2Tokenizer(folder, config, problems, notes)
    if problems:
        return {"problems": problems, "notes": notes}
    results, spread = [], 0.0
    for text in texts:
        ids = tokenizer.encode(text)
        if max(ids) >= config["vocab_size"]:
            raise SystemExit(f"{name}: {text!r} needs ids beyond the model's vocabulary")
        attentions, logits = forward(weights, config, ids, np.float64)
        probabilities = softmax(logits[-1])
        # transformers runs in float32: how far that is from this float64 answer.
        attentions32, logits32 = forward(weights, config, ids, np.float32)
        spread = max(spread, float(np.abs(softmax(logits32[-1].astype(np.float64)) - probabilities).max()),
                     max(float(np.abs(a32 - a).max()) for a32, a in zip(attentions32, attentions)))
        order = sorted(range(len(probabilities)), key=lambda t: (-probabilities[t], t))[:10]
        results.append({
            "text": text,
            "ids": ids,
            "tokens": [tokenizer.text_of(t) for t in ids],
            "last_row_weights": [[a[head, -1].tolist() for head in range(config["n_head"])] for a in attentions],
            "next_token_top10": [{"id": t, "token": tokenizer.text_of(t), "probability": float(probabilities[t])}
                                 for t in order],
            "next_token_probabilities": probabilities.tolist(),
        })
    print(f"{name}: float32 differs from float64 by at most {spread:.2e}")
    return {
        "folder": os.path.relpath(folder, ROOT),
        "config": {key: config[key] for key in ("model_type", "vocab_size", "n_positions", "n_embd", "n_layer",
                                                "n_head", "n_inner", "activation_function", "layer_norm_epsilon",
                                                "scale_attn_weights", "scale_attn_by_inverse_layer_idx",
                                                "tie_word_embeddings", "add_cross_attention")},
        "safetensors_metadata": metadata,
        "tensors": layout,
        "vocab_json_tokens": len(tokenizer.encoder),
        "merges": len(tokenizer.ranks),
        "notes": notes,
        "problems": problems,
        "texts": results,
    }


def check_folder(folder, texts):
    """--check DIR [TEXT ...]: what transformers would make of another folder; writes nothing."""
    model_type = json.load(open(os.path.join(folder, "config.json"), encoding="utf-8")).get("model_type")
    if model_type == "llama":
        import hf_llama_reference  # a Llama-style folder, as LlamaForCausalLM reads it
        return hf_llama_reference.check_folder(folder, texts)
    if model_type != "gpt2":
        print(f"PROBLEM: config.json: model_type {model_type!r}: these scripts check gpt2 and llama folders")
        return 1
    ref = reference_of(os.path.basename(os.path.normpath(folder)), texts, folder)
    for line in ref["notes"]:
        print(f"note: {line}")
    for line in ref["problems"]:
        print(f"PROBLEM: {line}")
    for t in ref.get("texts", []):
        top = t["next_token_top10"][0]
        print(f"{t['text']!r}: ids {t['ids']}, next {top['token']!r} {top['probability']:.4f}")
    return 1 if ref["problems"] else 0


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--check":
        return check_folder(sys.argv[2], sys.argv[3:])
    out = {"format": "attention-explorer-hf-reference", "script": "tests/data/learn/hf_reference.py", "models": {}}
    failed = False
    for name, texts in MODELS.items():
        ref = reference_of(name, texts)
        out["models"][name] = ref
        for line in ref["notes"]:
            print(f"{name}: note: {line}")
        for line in ref["problems"]:
            print(f"{name}: PROBLEM: {line}")
            failed = True
        for t in ref.get("texts", []):
            top = t["next_token_top10"][0]
            print(f"{name}: {t['text']!r}: {len(t['ids'])} tokens, next {top['token']!r} {top['probability']:.4f}")
    if failed:
        print("transformers would not load or run these folders as this program does; nothing written")
        return 1
    with open(OUTPUT, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {os.path.relpath(OUTPUT, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
