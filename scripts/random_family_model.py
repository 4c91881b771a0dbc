#!/usr/bin/python3
"""Writes a Llama-family model folder of random weights in the shape of a real
checkpoint, for benchmarks and screenshots when no real one is at hand (its
attention patterns and next-token guesses mean nothing).

    /usr/bin/python3 scripts/random_family_model.py PRESET OUT_DIR [--dtype F32|BF16]
                     [--layers N] [--seed 1] [--tokenizer tokenizer.json]

PRESET is one of (shapes and config keys from each model's own config.json):

    qwen2.5-0.5b   Qwen/Qwen2.5-0.5B: qwen2, 24 layers, 14 heads, 2 key/value heads,
                   d_model 896, intermediate 4864, vocab 151936, q/k/v biases, tied
    smollm2-135m   HuggingFaceTB/SmolLM2-135M: llama, 30 layers, 9 heads, 3 kv,
                   d_model 576, intermediate 1536, vocab 49152, tied
    llama-3.2-1b   meta-llama/Llama-3.2-1B: llama, 16 layers, 32 heads, 8 kv,
                   d_model 2048, intermediate 8192, vocab 128256, llama3 rope, tied
    gemma-2-2b     google/gemma-2-2b: gemma2, 26 layers, 8 heads, 4 kv, head_dim 256,
                   d_model 2304, intermediate 9216, vocab 256000, soft-caps, tied
    llama-3-8b     meta-llama/Meta-Llama-3-8B: llama, 32 layers, 32 heads, 8 kv,
                   d_model 4096, intermediate 14336, vocab 128256, separate lm_head

The folder gets config.json, model.safetensors (F32, or BF16 rounded to
nearest even; written tensor by tensor in slices of rows, so memory stays
small whatever the model's size: Llama-3-8B in F32 is a 32 GB file but needs
well under 1 GB of memory), tokenizer.json and tokenizer_config.json. The
tokenizer is the file given with --tokenizer (its tokenizer_config.json too,
when one lies beside it), or else a stand-in: byte-level BPE with the 256 byte
tokens and the family's special tokens (SentencePiece-style with byte
fallback for gemma-2-2b), so every text opens, one token per byte.
--layers keeps only the first N layers (for a quick look).

Benchmark the result with `attention-explorer bench --model OUT_DIR` and
scripts/bench_llama_torch.py OUT_DIR.
"""
import argparse
import json
import os
import shutil
import struct

import numpy as np

PRESETS = {
    "qwen2.5-0.5b": {
        "architectures": ["Qwen2ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 151643,
        "eos_token_id": 151643, "hidden_act": "silu", "hidden_size": 896, "initializer_range": 0.02,
        "intermediate_size": 4864, "max_position_embeddings": 32768, "max_window_layers": 24, "model_type": "qwen2",
        "num_attention_heads": 14, "num_hidden_layers": 24, "num_key_value_heads": 2, "rms_norm_eps": 1e-06,
        "rope_theta": 1000000.0, "sliding_window": 32768, "tie_word_embeddings": True,
        "transformers_version": "4.40.1", "use_cache": True, "use_mrope": False, "use_sliding_window": False,
        "vocab_size": 151936},
    "smollm2-135m": {
        "architectures": ["LlamaForCausalLM"], "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 0,
        "eos_token_id": 0, "hidden_act": "silu", "hidden_size": 576, "initializer_range": 0.041666666666666664,
        "intermediate_size": 1536, "is_llama_config": True, "max_position_embeddings": 8192, "mlp_bias": False,
        "model_type": "llama", "num_attention_heads": 9, "num_hidden_layers": 30, "num_key_value_heads": 3,
        "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_interleaved": False, "rope_scaling": None,
        "rope_theta": 100000, "tie_word_embeddings": True, "transformers_version": "4.40.1", "use_cache": True,
        "vocab_size": 49152},
    "llama-3.2-1b": {
        "architectures": ["LlamaForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
        "bos_token_id": 128000, "eos_token_id": 128001, "head_dim": 64, "hidden_act": "silu", "hidden_size": 2048,
        "initializer_range": 0.02, "intermediate_size": 8192, "max_position_embeddings": 131072, "mlp_bias": False,
        "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 16, "num_key_value_heads": 8,
        "pretraining_tp": 1, "rms_norm_eps": 1e-05,
        "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                         "original_max_position_embeddings": 8192, "rope_type": "llama3"},
        "rope_theta": 500000.0, "tie_word_embeddings": True, "transformers_version": "4.45.0.dev0",
        "use_cache": True, "vocab_size": 128256},
    "gemma-2-2b": {
        "architectures": ["Gemma2ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
        "attn_logit_softcapping": 50.0, "bos_token_id": 2, "cache_implementation": "hybrid", "eos_token_id": 1,
        "final_logit_softcapping": 30.0, "head_dim": 256, "hidden_act": "gelu_pytorch_tanh",
        "hidden_activation": "gelu_pytorch_tanh", "hidden_size": 2304, "initializer_range": 0.02,
        "intermediate_size": 9216, "max_position_embeddings": 8192, "model_type": "gemma2",
        "num_attention_heads": 8, "num_hidden_layers": 26, "num_key_value_heads": 4, "pad_token_id": 0,
        "query_pre_attn_scalar": 256, "rms_norm_eps": 1e-06, "rope_theta": 10000.0, "sliding_window": 4096,
        "transformers_version": "4.42.4", "use_cache": True, "vocab_size": 256000},
    "llama-3-8b": {
        "architectures": ["LlamaForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
        "bos_token_id": 128000, "eos_token_id": 128001, "hidden_act": "silu", "hidden_size": 4096,
        "initializer_range": 0.02, "intermediate_size": 14336, "max_position_embeddings": 8192,
        "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
        "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": None, "rope_theta": 500000.0,
        "tie_word_embeddings": False, "transformers_version": "4.40.0.dev0", "use_cache": True,
        "vocab_size": 128256},
}

SPECIALS = {"qwen2": ["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
            "smollm": ["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
            "llama3": ["<|begin_of_text|>", "<|end_of_text|>"]}


def tensors(c):
    """(name, shape, std) of every tensor, in the order Hugging Face names them."""
    d, H, L, I, V = (c["hidden_size"], c["num_attention_heads"], c["num_hidden_layers"], c["intermediate_size"],
                     c["vocab_size"])
    KV, hd = c.get("num_key_value_heads", H), c.get("head_dim") or d // H
    gemma = c["model_type"].startswith("gemma")
    norm = 0.0 if gemma else 1.0  # Gemma multiplies by 1 + w
    out = [("model.embed_tokens.weight", (V, d), 0.02)]
    for l in range(L):
        p = f"model.layers.{l}."
        out += [(p + "input_layernorm.weight", (d,), norm), (p + "post_attention_layernorm.weight", (d,), norm)]
        if c["model_type"] == "gemma2":
            out += [(p + "pre_feedforward_layernorm.weight", (d,), norm),
                    (p + "post_feedforward_layernorm.weight", (d,), norm)]
        # Larger query and key weights than an initialisation's, so that the random heads are not all uniform.
        out += [(p + "self_attn.q_proj.weight", (H * hd, d), 0.06), (p + "self_attn.k_proj.weight", (KV * hd, d), 0.06),
                (p + "self_attn.v_proj.weight", (KV * hd, d), 0.02), (p + "self_attn.o_proj.weight", (d, H * hd), 0.02)]
        if c["model_type"] == "qwen2":
            out += [(p + "self_attn.q_proj.bias", (H * hd,), 0.02), (p + "self_attn.k_proj.bias", (KV * hd,), 0.02),
                    (p + "self_attn.v_proj.bias", (KV * hd,), 0.02)]
        out += [(p + "mlp.gate_proj.weight", (I, d), 0.02), (p + "mlp.up_proj.weight", (I, d), 0.02),
                (p + "mlp.down_proj.weight", (d, I), 0.02)]
    out.append(("model.norm.weight", (d,), norm))
    if not c.get("tie_word_embeddings", gemma):
        out.append(("lm_head.weight", (V, d), 0.02))
    return out


def encode(block, dtype):
    if dtype == "F32":
        return block.astype("<f4").tobytes()
    bits = block.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype("<u2").tobytes()  # round to nearest even


def write_safetensors(path, specs, dtype, rng):
    size = 4 if dtype == "F32" else 2
    header, offset = {"__metadata__": {"format": "pt"}}, 0
    for name, shape, _ in specs:
        n = int(np.prod(shape)) * size
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + n]}
        offset += n
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for name, shape, std in specs:
            if len(shape) == 1:
                f.write(encode(np.full(shape, std, dtype=np.float32), dtype))
                continue
            rows = max(1, (1 << 23) // shape[1])  # slices of about 8M values
            for start in range(0, shape[0], rows):
                block = rng.standard_normal((min(rows, shape[0] - start), shape[1]), dtype=np.float32) * std
                f.write(encode(block, dtype))
    return offset


def byte_tokens():
    """The 256 byte tokens of byte-level BPE (GPT-2's byte-to-character table), in
    GPT-2's vocabulary order: the printable bytes as themselves, then the others
    as the characters 256, 257, ... in byte order."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) \
        + list(range(ord("®"), ord("ÿ") + 1))
    others = [b for b in range(256) if b not in printable]
    return [chr(b) for b in printable] + [chr(256 + i) for i in range(len(others))]


def added(i, content):
    return {"id": i, "content": content, "single_word": False, "lstrip": False, "rstrip": False,
            "normalized": False, "special": True}


def stand_in_tokenizer(preset, c):
    """A tokenizer that opens every text: one token per byte, plus the family's special tokens."""
    if c["model_type"] == "gemma2":
        specials = ["<pad>", "<eos>", "<bos>", "<unk>"]
        vocab = {s: i for i, s in enumerate(specials)}
        vocab.update({f"<0x{b:02X}>": 4 + b for b in range(256)})
        vocab["▁"] = len(vocab)
        data = {"version": "1.0", "truncation": None, "padding": None,
                "added_tokens": [added(i, s) for i, s in enumerate(specials)],
                "normalizer": {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}, "pre_tokenizer": None,
                "post_processor": {"type": "TemplateProcessing",
                                   "single": [{"SpecialToken": {"id": "<bos>", "type_id": 0}},
                                              {"Sequence": {"id": "A", "type_id": 0}}],
                                   "pair": [{"SpecialToken": {"id": "<bos>", "type_id": 0}},
                                            {"Sequence": {"id": "A", "type_id": 0}},
                                            {"SpecialToken": {"id": "<bos>", "type_id": 1}},
                                            {"Sequence": {"id": "B", "type_id": 1}}],
                                   "special_tokens": {"<bos>": {"id": "<bos>", "ids": [2], "tokens": ["<bos>"]}}},
                "decoder": {"type": "Sequence", "decoders": [
                    {"type": "Replace", "pattern": {"String": "▁"}, "content": " "}, {"type": "ByteFallback"},
                    {"type": "Fuse"}]},
                "model": {"type": "BPE", "dropout": None, "unk_token": "<unk>", "continuing_subword_prefix": None,
                          "end_of_word_suffix": None, "fuse_unk": True, "byte_fallback": True,
                          "ignore_merges": False, "vocab": vocab, "merges": []}}
        config = {"add_bos_token": True, "add_eos_token": False, "bos_token": "<bos>", "eos_token": "<eos>",
                  "pad_token": "<pad>", "unk_token": "<unk>", "tokenizer_class": "GemmaTokenizer"}
        return data, config
    style = "qwen2" if c["model_type"] == "qwen2" else ("smollm" if preset.startswith("smollm") else "llama3")
    specials = SPECIALS[style]
    vocab, tokens = {}, []
    if style == "smollm":
        tokens = specials[:]
    tokens += byte_tokens()
    vocab = {t: i for i, t in enumerate(tokens)}
    if style == "smollm":
        added_tokens = [added(i, s) for i, s in enumerate(specials)]
    else:  # the real files number their special tokens after the merges: at the top of the vocabulary
        first = c["bos_token_id"] if style == "llama3" else c["eos_token_id"]
        added_tokens = [added(first + i, s) for i, s in enumerate(specials)]
        # Ids run without gaps, as in the real files, so the ids between the
        # bytes and the special tokens (the real merges' results) are held by
        # tokens that no text produces.
        for i in range(len(tokens), first):
            vocab[f"<|unused_{i}|>"] = i
    pre = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    post = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": True}
    config = {"add_bos_token": False, "bos_token": None, "eos_token": specials[0] if style != "llama3" else specials[1],
              "tokenizer_class": "PreTrainedTokenizerFast"}
    if style == "llama3":
        bos = specials[0]
        post = {"type": "Sequence", "processors": [post, {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": bos, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": bos, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": bos, "type_id": 1}}, {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {bos: {"id": bos, "ids": [added_tokens[0]["id"]], "tokens": [bos]}}}]}
        config.update({"add_bos_token": True, "bos_token": bos})
    data = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": added_tokens, "normalizer": None,
            "pre_tokenizer": pre, "post_processor": post,
            "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
            "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                      "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
                      "ignore_merges": False, "vocab": vocab, "merges": []}}
    return data, config


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("preset", choices=sorted(PRESETS))
    parser.add_argument("out")
    parser.add_argument("--dtype", choices=["F32", "BF16"], default="F32")
    parser.add_argument("--layers", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tokenizer", help="a real tokenizer.json to copy (its tokenizer_config.json too)")
    args = parser.parse_args()
    config = dict(PRESETS[args.preset])
    if args.layers:
        config["num_hidden_layers"] = args.layers
        if "max_window_layers" in config:
            config["max_window_layers"] = min(config["max_window_layers"], args.layers)
    config["torch_dtype"] = "float32" if args.dtype == "F32" else "bfloat16"
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    size = write_safetensors(os.path.join(args.out, "model.safetensors"), tensors(config), args.dtype,
                             np.random.default_rng(args.seed))
    if args.tokenizer:
        shutil.copy(args.tokenizer, os.path.join(args.out, "tokenizer.json"))
        beside = os.path.join(os.path.dirname(os.path.abspath(args.tokenizer)), "tokenizer_config.json")
        if os.path.exists(beside):
            shutil.copy(beside, os.path.join(args.out, "tokenizer_config.json"))
    else:
        data, tok_config = stand_in_tokenizer(args.preset, config)
        for name, value in (("tokenizer.json", data), ("tokenizer_config.json", tok_config)):
            with open(os.path.join(args.out, name), "w", encoding="utf-8") as f:
                json.dump(value, f, indent=2, ensure_ascii=False)
                f.write("\n")
    print(f"wrote {args.out}: {args.preset}, {config['num_hidden_layers']} layers, {args.dtype}, "
          f"{size / 2 ** 20:.0f} MiB of weights")


if __name__ == "__main__":
    main()
