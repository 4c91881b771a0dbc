#!/usr/bin/python3
"""What Hugging Face transformers makes of the Llama-style model folders this program trains.

The Llama counterpart of hf_reference.py (GPT-2), independent of the C++ like
it: numpy and regex, no torch needed, no transformers, no code of this
project but two Python references written from transformers' sources. It
reads a folder as these would, from their sources:
  configuration_llama.py     LlamaConfig's fields and defaults (num_key_value_heads
                             None -> num_attention_heads, head_dim None ->
                             hidden_size // num_attention_heads, rms_norm_eps
                             1e-6, rope_theta 1e4, tie_word_embeddings False);
  modeling_llama.py          LlamaForCausalLM: the tensors it expects (nn.Linear
                             [out, in], biases only with attention_bias or
                             mlp_bias, lm_head.weight unless tied:
                             _tied_weights_keys), RMSNorm, rotate_half rotary,
                             repeat_kv, SwiGLU (ACT2FN["silu"]), causal softmax;
  modeling_rope_utils.py     the inverse frequencies (default, linear, llama3)
                             and partial_rotary_factor;
  tokenization_utils_fast.py PreTrainedTokenizerFast: tokenizer.json through the
                             tokenizers library, and tokenizer_config.json's
                             add_bos_token / add_eos_token, which newer releases
                             turn into the post-processor and older ones leave
                             to tokenizer.json's;
  huggingface/tokenizers     added tokens split off first, the ByteLevel and Split
                             pre-tokenizers (Isolated), BPE by merge rank,
                             ignore_merges, TemplateProcessing;
and the safetensors format with modeling_utils' metadata check, read by
hf_reference.py's read_safetensors. The forward pass and the BPE merge are
tests/data/families/make_fixtures.py's (`forward`, `bpe`, `inv_freq`,
`spec_from_config`), written from the same sources for the family fixtures;
when torch is installed scripts/bench_llama_torch.py's Model (transformers'
eager attention in torch) checks every number again, in float64 to 1e-10,
and in float32 as transformers runs, which shows how far that is.

For each folder in MODELS it checks the files, prints what transformers would
do differently (exit status 1 if anything), measures how much each wrong
convention would move the numbers (the traps, so that a program using one
fails tst_hfllamalayout's 1e-5), and writes hf_llama_reference.json beside
this script: per text the token ids, every layer's and head's attention
weights of the last query row, and the next-token probabilities, which
tst_hfllamalayout compares with this program's tokenizer and forward pass.

Run: /usr/bin/python3 tests/data/learn/hf_llama_reference.py
     /usr/bin/python3 tests/data/learn/hf_llama_reference.py --check DIR [TEXT ...]
     (any llama folder, e.g. one `attention-explorer train --family llama` just
     wrote; writes nothing. hf_reference.py --check DIR sends a llama folder here.)
"""

import json
import os
import sys

import numpy as np
import regex

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
OUTPUT = os.path.join(HERE, "hf_llama_reference.json")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "data", "families"))
import hf_reference as gpt2  # noqa: E402  (read_safetensors, check_layout, softmax)
import make_fixtures as fixtures  # noqa: E402  (spec_from_config, forward, bpe, bytes_to_unicode)

# name -> (folder under the repository, texts)
MODELS = {
    "pronoun-llama": ("resources/examples/models/pronoun-llama", [
        "The small boy found the old red lamp and it",
        "Today, the old robot followed the small queen twice and she",
        "Later, the big king passed the little bell slowly and it",
    ]),
    # `attention-explorer train --task pronoun --family llama --tie-embeddings
    # --layers 2 --heads 2 --kv-heads 1 --d-model 16 --context 16 --steps 400 --seed 5`
    "llama-tied": ("tests/data/learn/llama-tied", [
        "The girl passed the red box and it",
        "Then the man hit the bell twice and he",
        "Today, the old woman saw the small cup again and she",
    ]),
}
# How much a wrong convention must move the numbers for the reference texts to
# tell it apart: ten times tst_hfllamalayout's tolerance.
TRAP_MARGIN = 1e-4

# ---------------------------------------------------------------- config.json

# LlamaConfig.__init__'s defaults, and PretrainedConfig's for the fields the model reads.
LLAMA_DEFAULTS = {
    "vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
    "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu", "max_position_embeddings": 2048,
    "initializer_range": 0.02, "rms_norm_eps": 1e-6, "use_cache": True, "pad_token_id": None, "bos_token_id": 1,
    "eos_token_id": 2, "pretraining_tp": 1, "tie_word_embeddings": False, "rope_theta": 10000.0,
    "rope_scaling": None, "attention_bias": False, "attention_dropout": 0.0, "mlp_bias": False, "head_dim": None,
}
# What LlamaForCausalLM's construction or forward pass reads.
MODEL_FIELDS = {"vocab_size", "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
                "num_key_value_heads", "hidden_act", "max_position_embeddings", "rms_norm_eps",
                "tie_word_embeddings", "rope_theta", "rope_scaling", "attention_bias", "mlp_bias", "head_dim"}
# Fields every config may carry that change nothing in the model built (or only training).
HARMLESS = {"model_type", "architectures", "transformers_version", "torch_dtype", "dtype", "_name_or_path",
            "initializer_range", "use_cache", "attention_dropout", "pretraining_tp", "pad_token_id",
            "bos_token_id", "eos_token_id", "output_attentions", "output_hidden_states", "return_dict",
            "torchscript", "use_bfloat16", "id2label", "label2id", "task_specific_params"}
TORCH_DTYPES = {"float32": "F32", "float16": "F16", "bfloat16": "BF16", "float64": "F64"}
ROPE_TYPES = ("default", "linear", "llama3")  # the ones make_fixtures.inv_freq computes


def read_config(path, problems, notes):
    """The values LlamaConfig would hold, and what in the file changes the model."""
    raw = json.load(open(path, encoding="utf-8"))
    config = dict(LLAMA_DEFAULTS, **raw)
    if raw.get("model_type") != "llama":
        problems.append(f"config.json: model_type {raw.get('model_type')!r}: AutoConfig would not build LlamaConfig")
    if "LlamaForCausalLM" not in (raw.get("architectures") or []):
        notes.append("config.json: architectures does not name LlamaForCausalLM (pipelines pick the class from it)")
    for key in sorted(MODEL_FIELDS - set(raw)):
        notes.append(f"config.json: no {key}: LlamaConfig takes {LLAMA_DEFAULTS[key]!r}")
    for key in sorted(set(raw) - set(LLAMA_DEFAULTS) - HARMLESS - {"rope_parameters", "partial_rotary_factor"}):
        notes.append(f"config.json: {key} is not a LlamaConfig field: kept as an attribute, the model ignores it")
    # Releases since 5.0 write rope_theta and rope_scaling as one rope_parameters.
    rope = raw.get("rope_parameters")
    if rope is not None:
        config["rope_theta"] = rope.get("rope_theta", config["rope_theta"])
        config["rope_scaling"] = None if rope.get("rope_type", "default") == "default" else rope
    if config["num_key_value_heads"] is None:
        config["num_key_value_heads"] = config["num_attention_heads"]
    heads, kv = config["num_attention_heads"], config["num_key_value_heads"]
    if config["head_dim"] is None:
        if config["hidden_size"] % heads:
            problems.append(f"config.json: hidden_size {config['hidden_size']} is not a multiple of "
                            f"num_attention_heads {heads} and no head_dim: the attention's view() fails")
        config["head_dim"] = config["hidden_size"] // heads
    if heads % kv:
        problems.append(f"config.json: num_attention_heads {heads} is not a multiple of num_key_value_heads {kv}: "
                        "repeat_kv cannot pair them")
    rotary = int(config["head_dim"] * raw.get("partial_rotary_factor", 1.0))
    if rotary % 2:
        problems.append(f"config.json: {rotary} rotary dimensions per head, not even: rotate_half cannot pair them")
    if raw.get("partial_rotary_factor", 1.0) != 1.0:
        problems.append(f"config.json: partial_rotary_factor {raw['partial_rotary_factor']}: "
                        "the rotary embedding turns only part of each head")
    if config["hidden_act"] != "silu":
        problems.append(f"config.json: hidden_act {config['hidden_act']!r}, not silu: another gate in the MLP")
    if config["attention_bias"]:
        problems.append("config.json: attention_bias true: q, k, v and o projections get biases")
    if config["mlp_bias"]:
        problems.append("config.json: mlp_bias true: gate, up and down projections get biases")
    scaling = config["rope_scaling"]
    if scaling is not None:
        kind = scaling.get("rope_type", scaling.get("type"))
        if kind not in ROPE_TYPES:
            problems.append(f"config.json: rope_scaling type {kind!r}: this script does not compute it")
        elif kind != "default":
            notes.append(f"config.json: rope_scaling {kind}: positions turn at rescaled frequencies")
    dtype = raw.get("torch_dtype", raw.get("dtype"))
    if dtype is not None and dtype not in TORCH_DTYPES:
        problems.append(f"config.json: torch_dtype {dtype!r} is not a floating-point type "
                        "from_pretrained(torch_dtype=\"auto\") can load in")
    return config


def expected_tensors(config):
    """LlamaForCausalLM's state dict for `config` (name -> [out, in] shape)."""
    d, hd, inner, vocab = config["hidden_size"], config["head_dim"], config["intermediate_size"], config["vocab_size"]
    q, kv = config["num_attention_heads"] * hd, config["num_key_value_heads"] * hd
    shapes = {"model.embed_tokens.weight": [vocab, d]}
    for i in range(config["num_hidden_layers"]):
        p = f"model.layers.{i}."
        shapes.update({p + "input_layernorm.weight": [d], p + "post_attention_layernorm.weight": [d],
                       p + "self_attn.q_proj.weight": [q, d], p + "self_attn.k_proj.weight": [kv, d],
                       p + "self_attn.v_proj.weight": [kv, d], p + "self_attn.o_proj.weight": [d, q],
                       p + "mlp.gate_proj.weight": [inner, d], p + "mlp.up_proj.weight": [inner, d],
                       p + "mlp.down_proj.weight": [d, inner]})
        if config["attention_bias"]:
            shapes.update({p + "self_attn.q_proj.bias": [q], p + "self_attn.k_proj.bias": [kv],
                           p + "self_attn.v_proj.bias": [kv], p + "self_attn.o_proj.bias": [d]})
        if config["mlp_bias"]:
            shapes.update({p + "mlp.gate_proj.bias": [inner], p + "mlp.up_proj.bias": [inner],
                           p + "mlp.down_proj.bias": [d]})
    shapes["model.norm.weight"] = [d]
    if not config["tie_word_embeddings"]:
        shapes["lm_head.weight"] = [vocab, d]
    return shapes


def check_tensors(tensors, config, problems, notes):
    expected = expected_tensors(config)
    # The rotary inverse frequencies were a persistent buffer in releases before 4.31.
    ignorable = {f"model.layers.{i}.self_attn.rotary_emb.inv_freq" for i in range(config["num_hidden_layers"])}
    if config["tie_word_embeddings"] and "lm_head.weight" in tensors:
        embed, head = tensors.get("model.embed_tokens.weight"), tensors["lm_head.weight"]
        if embed is None or embed[1].shape != head[1].shape or not np.array_equal(embed[1], head[1]):
            problems.append("model.safetensors: lm_head.weight differs from model.embed_tokens.weight, but "
                            "tie_word_embeddings is true: transformers replaces it by the embedding")
        ignorable.add("lm_head.weight")
    names = {n: n for n in tensors}
    weights, layout = gpt2.check_layout(tensors, names, expected, ignorable, "LlamaForCausalLM", problems, notes)
    stored = {entry[0] for entry in layout.values()}
    dtype = TORCH_DTYPES.get(config.get("torch_dtype", config.get("dtype")))
    if dtype and stored and stored != {dtype}:
        problems.append(f"config.json: torch_dtype {config.get('torch_dtype')!r} but the tensors are "
                        f"{', '.join(sorted(stored))}: from_pretrained(torch_dtype=\"auto\") computes in another type")
    return weights, layout


# ---------------------------------------------------------------- tokenizer

GPT2_PATTERN = fixtures.GPT2_SPLIT  # ByteLevel's own regex (use_regex true)


def split_isolated(pattern, text):
    """tokenizers' Split with behavior Isolated: every match, and every stretch between matches, a piece."""
    pieces, position = [], 0
    for match in regex.finditer(pattern, text):
        if match.start() > position:
            pieces.append(text[position:match.start()])
        if match.end() > match.start():
            pieces.append(match.group())
        position = match.end()
    if position < len(text):
        pieces.append(text[position:])
    return pieces


def token_content(value):
    """tokenizer_config.json names a token as a string or as an AddedToken dict."""
    return value.get("content") if isinstance(value, dict) else value


class TokenizerJson:
    """PreTrainedTokenizerFast over a byte-level BPE tokenizer.json (GPT-2's or Llama 3's kind)."""

    def __init__(self, folder, config, problems, notes):
        self.problems = problems
        data = json.load(open(os.path.join(folder, "tokenizer.json"), encoding="utf-8"))
        path = os.path.join(folder, "tokenizer_config.json")
        settings = json.load(open(path, encoding="utf-8")) if os.path.exists(path) else {}
        if not settings:
            notes.append("tokenizer_config.json: absent: AutoTokenizer takes PreTrainedTokenizerFast with no BOS")
        model = data.get("model") or {}
        if model.get("type") != "BPE":
            problems.append(f"tokenizer.json: model.type {model.get('type')!r}: not the BPE this script reads")
        for key in ("dropout", "continuing_subword_prefix", "end_of_word_suffix", "byte_fallback"):
            if model.get(key):
                problems.append(f"tokenizer.json: model.{key} {model[key]!r}: this script does not read it")
        self.vocab = dict(model.get("vocab") or {})
        if len(set(self.vocab.values())) != len(self.vocab):
            problems.append("tokenizer.json: two tokens of model.vocab share an id")
        merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in model.get("merges") or []]
        for rank, merge in enumerate(merges):
            if len(merge) != 2:
                problems.append(f"tokenizer.json: merge {rank} has {len(merge)} parts")
                continue
            for part in (merge[0], merge[1], merge[0] + merge[1]):
                if part not in self.vocab:  # tokenizers' BPE builder: MergeTokenOutOfVocabulary
                    problems.append(f"tokenizer.json: merge {rank} {' '.join(merge)!r}: {part!r} is not in the vocabulary")
        self.ranks = {m: r for r, m in enumerate(merges) if len(m) == 2}
        self.ignore_merges = bool(model.get("ignore_merges", False))
        self.byte_encoder = fixtures.bytes_to_unicode()
        self.byte_decoder = {c: b for b, c in self.byte_encoder.items()}
        missing = [c for c in self.byte_encoder.values() if c not in self.vocab]
        if missing:
            notes.append(f"tokenizer.json: {len(missing)} of ByteLevel's 256 byte characters are not in the "
                         "vocabulary: a text with one loses it (no unk_token)")

        if data.get("normalizer") is not None:
            problems.append(f"tokenizer.json: normalizer {data['normalizer'].get('type')!r}: this script reads none")
        self.patterns = self.read_pre_tokenizer(data.get("pre_tokenizer"))

        # Added tokens are matched in the raw text before anything else.
        self.added = {}
        for token in data.get("added_tokens") or []:
            content, token_id = token.get("content"), token.get("id")
            if content in self.vocab and self.vocab[content] != token_id:
                problems.append(f"tokenizer.json: added token {content!r} is {token_id}, the vocabulary's {self.vocab[content]}")
            if token.get("normalized") and data.get("normalizer") is not None:
                problems.append(f"tokenizer.json: added token {content!r} is normalized: this script does not read it")
            self.added[content] = token_id
        self.ids = dict(self.vocab, **self.added)
        self.decoder = {i: t for t, i in self.ids.items()}

        # Which tokens go around a text: tokenizer.json's post-processor (what
        # releases before 5 use for PreTrainedTokenizerFast), and the one
        # update_post_processor builds from tokenizer_config.json's
        # add_bos_token / add_eos_token when the file sets either (newer releases).
        self.template = self.read_post_processor(data.get("post_processor"))
        bos, eos = token_content(settings.get("bos_token")), token_content(settings.get("eos_token"))
        self.bos_id = self.ids.get(bos) if bos is not None else None
        if bos is not None and self.bos_id is None:
            problems.append(f"tokenizer_config.json: bos_token {bos!r} is not a token of tokenizer.json")
        if eos is not None and eos not in self.ids:
            problems.append(f"tokenizer_config.json: eos_token {eos!r} is not a token of tokenizer.json")
        if "add_bos_token" in settings or "add_eos_token" in settings:
            rebuilt = []
            if settings.get("add_bos_token") and bos is not None:
                rebuilt.append(self.ids.get(bos))
            rebuilt.append("A")
            if settings.get("add_eos_token") and eos is not None:
                rebuilt.append(self.ids.get(eos))
            if rebuilt != self.template:
                problems.append(f"tokenizer_config.json: add_bos_token / add_eos_token make {rebuilt}, tokenizer.json's "
                                f"post-processor {self.template}: transformers releases would tokenize differently")
        if settings.get("tokenizer_class") not in ("PreTrainedTokenizerFast", "LlamaTokenizerFast", None):
            notes.append(f"tokenizer_config.json: tokenizer_class {settings.get('tokenizer_class')!r}")
        if config["bos_token_id"] != self.bos_id:
            problems.append(f"config.json: bos_token_id {config['bos_token_id']} is not the tokenizer's bos_token "
                            f"{bos!r} ({self.bos_id}): generate() would start from another token")
        if config["eos_token_id"] is not None and config["eos_token_id"] != self.ids.get(eos):
            problems.append(f"config.json: eos_token_id {config['eos_token_id']} is not the tokenizer's eos_token")
        if self.ids and max(self.ids.values()) >= config["vocab_size"]:
            notes.append(f"tokenizer.json: {len(self.ids)} tokens, the model {config['vocab_size']}: "
                         f"a text needing an id >= {config['vocab_size']} makes the model raise IndexError")
        longest = settings.get("model_max_length")
        if isinstance(longest, int) and longest > config["max_position_embeddings"]:
            notes.append(f"tokenizer_config.json: model_max_length {longest} is more than max_position_embeddings")

    def read_pre_tokenizer(self, pre):
        """The regexes applied in turn (Split Isolated, or ByteLevel's own), then the byte mapping."""
        steps = pre.get("pretokenizers", []) if pre and pre.get("type") == "Sequence" else [pre]
        patterns = []
        for i, step in enumerate(steps):
            kind = (step or {}).get("type")
            last = i == len(steps) - 1
            if kind == "Split" and not last and step.get("behavior") == "Isolated" and not step.get("invert"):
                pattern = step.get("pattern", {})
                patterns.append(pattern["Regex"] if "Regex" in pattern else regex.escape(pattern.get("String", "")))
            elif kind == "ByteLevel" and last:
                if step.get("add_prefix_space"):
                    self.problems.append("tokenizer.json: ByteLevel add_prefix_space true: this script does not read it")
                if step.get("use_regex", True):
                    patterns.append(GPT2_PATTERN)
            else:
                self.problems.append(f"tokenizer.json: pre_tokenizer step {i} ({kind!r}): this script reads Split "
                                     "regexes followed by ByteLevel")
        return patterns

    def read_post_processor(self, post):
        """TemplateProcessing's single template as ids and "A" (the text); ByteLevel steps change no id."""
        steps = post.get("processors", []) if post and post.get("type") == "Sequence" else [post]
        template = ["A"]
        for step in steps:
            kind = (step or {}).get("type")
            if kind in (None, "ByteLevel"):
                continue
            if kind != "TemplateProcessing":
                self.problems.append(f"tokenizer.json: post_processor {kind!r}: this script reads TemplateProcessing")
                continue
            specials = step.get("special_tokens", {})
            template = []
            for piece in step.get("single", []):
                if "Sequence" in piece:
                    template.append("A")
                    continue
                name = piece["SpecialToken"]["id"]
                ids = specials.get(name, {}).get("ids", [])
                if ids != [self.ids.get(name)]:
                    self.problems.append(f"tokenizer.json: post_processor's {name!r} is {ids}, "
                                         f"the vocabulary's {self.ids.get(name)}")
                template += ids
        return template

    def bpe(self, piece):
        if self.ignore_merges and piece in self.vocab:
            return [piece]
        return fixtures.bpe(piece, self.ranks)

    def encode_plain(self, text):
        pieces = [text]
        for pattern in self.patterns:
            pieces = [p for piece in pieces for p in split_isolated(pattern, piece)]
        tokens = []
        for piece in pieces:
            tokens += self.bpe("".join(self.byte_encoder[b] for b in piece.encode("utf-8")))
        unknown = [t for t in tokens if t not in self.vocab]
        if unknown:
            raise SystemExit(f"text {text!r}: {unknown} not in tokenizer.json's vocabulary")
        return [self.vocab[t] for t in tokens]

    def encode(self, text):
        ids = []
        if self.added:
            alternatives = "|".join(regex.escape(t) for t in sorted(self.added, key=len, reverse=True))
            for part in split_isolated(alternatives, text):
                ids += [self.added[part]] if part in self.added else self.encode_plain(part)
        else:
            ids = self.encode_plain(text)
        return [i for piece in self.template for i in (ids if piece == "A" else [piece])]

    def text_of(self, token_id):
        token = self.decoder[token_id]
        if token in self.added:
            return token
        return bytes(self.byte_decoder[c] for c in token).decode("utf-8", errors="replace")


# ---------------------------------------------------------------- forward pass

def run(spec, weights, ids, trap=frozenset()):
    """LlamaForCausalLM(input_ids, output_attentions=True) in eval mode, float64:
    (attentions [layer][head] n x n, next-token probabilities)."""
    out = fixtures.forward(spec, weights, ids, trap=trap)
    return [[h["weights"] for h in layer["heads"]] for layer in out["layers"]], out["next_token"]


def traps_of(spec, config):
    """The wrong conventions a reader could have, as fixtures.forward's traps or a changed spec."""
    traps = {"interleaved": (spec, {"interleaved"}),  # Meta's and GGUF's adjacent pairs, not rotate_half
             "theta-500000": (dict(spec, rope=[(500000.0, None)] * spec["layers"]), set()),
             "eps-default": (spec, {"eps-default"})}  # LlamaConfig's 1e-6 instead of the file's
    if 1 < spec["kv"] < spec["heads"]:
        traps["kv-modulo"] = (spec, {"kv-modulo"})  # query head h on key/value head h % kv_heads
    if not spec["tied"]:
        traps["embedding-as-head"] = (spec, {"embedding-as-head"})  # the tied head where lm_head is separate
    if config["rms_norm_eps"] == 1e-6:
        del traps["eps-default"]
    return traps


def torch_second_opinion(config, weights, ids, attentions, probabilities):
    """scripts/bench_llama_torch.py's Model: float64 must agree; float32 is how far transformers is."""
    try:
        import torch
    except ImportError:
        return None, None
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import bench_llama_torch as bench
    results = []
    for dtype in (torch.float64, torch.float32):
        model = bench.Model(config, {k: torch.tensor(np.asarray(v, dtype=np.float64), dtype=dtype)
                                     for k, v in weights.items()})
        with torch.inference_mode():
            got = model.forward(torch.tensor(ids))
        worst = float(np.abs(got["probabilities"].double().numpy() - probabilities).max())
        for l, layer in enumerate(attentions):
            for h, a in enumerate(layer):
                worst = max(worst, float(np.abs(got["weights"][l][h].double().numpy() - a).max()))
        results.append(worst)
    return results


# ---------------------------------------------------------------- driver

def reference_of(name, texts, folder):
    problems, notes = [], []
    config = read_config(os.path.join(folder, "config.json"), problems, notes)
    tensors, metadata = gpt2.read_safetensors(os.path.join(folder, "model.safetensors"), problems)
    weights, layout = check_tensors(tensors, config, problems, notes) if not problems else ({}, {})
    tokenizer = TokenizerJson(folder, config, problems, notes)
    if problems:
        return {"problems": problems, "notes": notes}
    spec = fixtures.spec_from_config(dict(config, rope_scaling=config["rope_scaling"]))
    traps = {t: 0.0 for t in traps_of(spec, config)}
    results, agreement, spread, second = [], 0.0, 0.0, (None, None)
    for text in texts:
        ids = tokenizer.encode(text)
        if max(ids) >= config["vocab_size"]:
            raise SystemExit(f"{name}: {text!r} needs ids beyond the model's vocabulary")
        if len(ids) > config["max_position_embeddings"]:
            raise SystemExit(f"{name}: {text!r} is {len(ids)} tokens, the model has {config['max_position_embeddings']}")
        attentions, probabilities = run(spec, weights, ids)
        for trap, (trap_spec, names) in traps_of(spec, config).items():
            a2, p2 = run(trap_spec, weights, ids, frozenset(names))
            moved = max(float(np.abs(p2 - probabilities).max()),
                        max(float(np.abs(x - y).max()) for lx, ly in zip(a2, attentions) for x, y in zip(lx, ly)))
            traps[trap] = max(traps[trap], moved)
        second = torch_second_opinion(config, weights, ids, attentions, probabilities)
        if second[0] is not None:
            agreement, spread = max(agreement, second[0]), max(spread, second[1])
        order = sorted(range(len(probabilities)), key=lambda t: (-probabilities[t], t))[:10]
        results.append({
            "text": text,
            "ids": ids,
            "tokens": [tokenizer.text_of(t) for t in ids],
            "last_row_weights": [[a[-1].tolist() for a in layer] for layer in attentions],
            "next_token_top10": [{"id": t, "token": tokenizer.text_of(t), "probability": float(probabilities[t])}
                                 for t in order],
            "next_token_probabilities": probabilities.tolist(),
        })
    if second[0] is None:
        print(f"{name}: torch not installed: no second opinion")
    else:
        print(f"{name}: bench_llama_torch.py agrees to {agreement:.1e} in float64; "
              f"float32 differs from float64 by at most {spread:.2e}")
        if agreement > 1e-10:
            problems.append(f"bench_llama_torch.py disagrees with this script by {agreement:.1e}")
    return {
        "folder": os.path.relpath(folder, ROOT),
        "config": {key: config[key] for key in ("model_type", "vocab_size", "hidden_size", "intermediate_size",
                                                "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
                                                "head_dim", "hidden_act", "rms_norm_eps", "rope_theta",
                                                "rope_scaling", "attention_bias", "mlp_bias", "tie_word_embeddings",
                                                "max_position_embeddings", "bos_token_id", "eos_token_id",
                                                "torch_dtype")},
        "safetensors_metadata": metadata,
        "tensors": layout,
        "tokenizer": {"tokens": len(tokenizer.ids), "merges": len(tokenizer.ranks), "bos_token_id": tokenizer.bos_id,
                      "template": tokenizer.template},
        "traps": traps,
        "notes": notes,
        "problems": problems,
        "texts": results,
    }


def report(prefix, ref):
    for line in ref["notes"]:
        print(f"{prefix}note: {line}")
    for line in ref["problems"]:
        print(f"{prefix}PROBLEM: {line}")
    if ref.get("traps"):
        print(f"{prefix}a reader with a wrong convention would move the numbers by: "
              + ", ".join(f"{t} {v:.2g}" for t, v in ref["traps"].items()))
    for t in ref.get("texts", []):
        top = t["next_token_top10"][0]
        print(f"{prefix}{t['text']!r}: ids {t['ids']}, next {top['token']!r} {top['probability']:.4f}")


def check_folder(folder, texts):
    """--check DIR [TEXT ...]: what transformers would make of another folder; writes nothing."""
    ref = reference_of(os.path.basename(os.path.normpath(folder)), texts, folder)
    report("", ref)
    return 1 if ref["problems"] else 0


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--check":
        return check_folder(sys.argv[2], sys.argv[3:])
    out = {"format": "attention-explorer-hf-llama-reference", "script": "tests/data/learn/hf_llama_reference.py",
           "models": {}}
    failed = False
    for name, (folder, texts) in MODELS.items():
        ref = reference_of(name, texts, os.path.join(ROOT, folder))
        out["models"][name] = ref
        report(f"{name}: ", ref)
        failed = failed or bool(ref["problems"])
        for trap, moved in ref.get("traps", {}).items():
            if moved < TRAP_MARGIN:
                print(f"{name}: PROBLEM: the texts do not tell {trap} apart (it moves the numbers by {moved:.1e})")
                failed = True
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
