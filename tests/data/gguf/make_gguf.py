#!/usr/bin/python3
"""GGUF test files and their expected numbers, for the C++ GGUF reader.

    /usr/bin/python3 tests/data/gguf/make_gguf.py [--check-c QCHECK]

rewrites, next to this file (README.md describes every file and key):
- blocks/: one tensor per type (F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0,
  Q5_1, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K) and blocks.json with the float32
  values ggml's dequantisation gives for each;
- families/: the F32 conversion of every folder of tests/data/families as
  llama.cpp's converter writes it (convert.py);
- quantised/: a llama model written as llama-quantize writes Q4_K_M and a
  qwen2 model as Q8_0;
- hostile/: malformed files and hostile.json (hostile.py);
- expected.json: the numbers each model file must give.

Needs numpy and python3-regex (no torch). Independent of the C++: the GGUF
layout from ggml's gguf docs and gguf-py, the quantisers from ggml-quants.c
(ggml_quants.py), the reading rules from llama.cpp (reading.py), the
reference forward from tests/data/families/make_fixtures.py (imported).
Every model file is read back with gguf_format.Reader and its tokenizer
metadata run through llama.cpp's tokenizers (llamacpp_tok.py) to give the
folder's token ids. --check-c names a helper built from ggml's sources that
quantises, dequantises and opens GGUF files with ggml's own gguf.cpp
(README.md shows how to build it); with it every block value, every model
file and every hostile file is also checked against ggml.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import convert  # noqa: E402
import hostile  # noqa: E402
import ggml_quants as gq  # noqa: E402
import llama_quant  # noqa: E402
import llamacpp_tok  # noqa: E402
import reading  # noqa: E402
from gguf_format import Gguf  # noqa: E402
from reading import mf  # noqa: E402

FAMILIES = os.path.join(HERE, "..", "families")
RNG = np.random.default_rng(2030)
QCHECK = None


def nested(a):
    return np.asarray(a, dtype=np.float64).tolist()


def write_json(path, value, compact=False):
    with open(path, "w", encoding="utf-8") as f:
        if compact:
            json.dump(value, f, separators=(",", ":"), ensure_ascii=False)
        else:
            json.dump(value, f, indent=1, ensure_ascii=False)
        f.write("\n")


def ggml_open(path, dump_dir=None):
    """The helper's view of a file through ggml's gguf.cpp: (accepted, output lines)."""
    args = [QCHECK, "gguf", path] + ([dump_dir] if dump_dir else [])
    r = subprocess.run(args, capture_output=True, text=True)
    return r.returncode == 0, r.stdout + r.stderr


# ---------------------------------------------------------------- blocks


def crafted_blocks(name, count):
    """Block bytes that reach every code path: random codes (every nibble, every
    high bit set and unset), scales of both signs, subnormal and large halves."""
    _, block, size = gq.TYPES[name]
    b = RNG.integers(0, 256, (count, size), dtype=np.uint8)
    halves = np.array([0x3C00, 0xBC00, 0x2E66, 0xAE66, 0x0001, 0x8201, 0x7BFF, 0xF400, 0x0000, 0x1400], np.uint16)
    fields = {"Q4_0": [0], "Q4_1": [0, 2], "Q5_0": [0], "Q5_1": [0, 2], "Q8_0": [0], "Q2_K": [80, 82],
              "Q3_K": [108], "Q4_K": [0, 2], "Q5_K": [0, 2], "Q6_K": [208]}[name]
    for i in range(count):
        for k, off in enumerate(fields):
            h = halves[(i * len(fields) + k) % len(halves)]
            b[i, off], b[i, off + 1] = h & 0xFF, h >> 8
    if name in ("Q4_0", "Q4_1", "Q5_0", "Q5_1"):  # one block with all 16 nibble values in order, both halves
        qs = {"Q4_0": 2, "Q4_1": 4, "Q5_0": 6, "Q5_1": 8}[name]
        b[0, qs:qs + 16] = np.arange(16) | (np.arange(15, -1, -1) << 4)
    if name in ("Q5_0", "Q5_1"):  # high bits: block 0 alternating, block 1 all set
        qh = {"Q5_0": 2, "Q5_1": 4}[name]
        b[0, qh:qh + 4] = 0x55
        b[1, qh:qh + 4] = 0xFF
    return b


def blocks():
    out = os.path.join(HERE, "blocks")
    os.makedirs(out, exist_ok=True)
    table = {}
    for name, (tid, block, size) in gq.TYPES.items():
        if block == 1:
            n, rows = 64, 3
            x = (RNG.standard_normal((rows, n)) * 2).astype(np.float32)
            x[1, :8] = [0.0, -0.0, 1.0, -1.0, 6e-8, -6e-8, 65504.0, 1e-40]  # zeros, subnormals, the F16 maximum
            data = gq.quantize(name, x)
            note = "row 1 starts with 0, -0, ±1, F16 subnormals, the F16 maximum and an F32 subnormal"
        else:
            n = 2 * block
            rows = 3
            x = (RNG.standard_normal((1, n)) * 0.7).astype(np.float32)
            x[0, :block // 4] += 1.5  # a shifted first sub-block: a min that matters
            data = np.concatenate([gq.quantize(name, x), crafted_blocks(name, 4).reshape(2, -1)])
            note = ("row 0: two blocks quantised from floats by ggml's reference quantiser; rows 1-2: four blocks of "
                    "random codes with scales of both signs, F16 subnormals and large values")
        values = gq.dequantize(name, data, n)
        file = f"{name.lower()}.gguf"
        g = Gguf().s("general.architecture", "blocks").s("general.name", f"{name} blocks")
        g.tensor("blocks", tid, [n, rows], data.tobytes())
        g.write(os.path.join(out, file))
        table[name] = {"file": file, "tensor": "blocks", "type": tid, "ne": [n, rows], "block_elements": block,
                       "block_bytes": size, "what": note, "values": [[float(v) for v in r] for r in values]}
        if QCHECK:
            with tempfile.TemporaryDirectory() as d:
                ok, text = ggml_open(os.path.join(out, file), d)
                got = np.fromfile(os.path.join(d, "blocks.f32"), np.float32).reshape(rows, n)
                assert ok and np.array_equal(got.view(np.uint32), values.view(np.uint32)), f"{name}: ggml disagrees"
    write_json(os.path.join(out, "blocks.json"), {
        "note": "written by make_gguf.py: values are the float32 results of ggml's dequantize_row_* "
                "(ggml_quants.py, checked bit for bit against ggml's C); rows in ne[1] order",
        "types": table}, compact=True)
    print("blocks:", ", ".join(table), "(checked against ggml)" if QCHECK else "")


# ---------------------------------------------------------------- families


def compare(a, case):
    worst = 0.0
    for la, lb in zip(a["layers"], case["layers"]):
        for ha, hb in zip(la["heads"], lb["heads"]):
            worst = max(worst, float(np.abs(ha["weights"] - np.asarray(hb["weights"])).max()),
                        float(np.abs(ha["scores"] - np.asarray(hb["scores"])).max()))
    return max(worst, float(np.abs(a["next_token"] - np.asarray(case["next_token"]["probabilities"])).max()))


def numbers(s, ref, abl, ids):
    n = len(ids)
    return {"model": {"layers": s["layers"], "heads": s["heads"], "kv_heads": s["kv"], "head_dim": s["head_dim"],
                      "d_model": s["d"], "vocab": s["vocab"], "windows": s["windows"], "rotary_dims": s["rotary"],
                      "scaling": s["scaling"], "attn_softcap": s["attn_cap"], "final_softcap": s["final_cap"]},
            "token_ids": ids,
            "layers": [{"window": L["window"], "heads": [{"weights": nested(h["weights"]), "scores": nested(h["scores"])}
                                                        for h in L["heads"]]} for L in ref["layers"]],
            "next_token": {"position": n - 1, "probabilities": nested(ref["next_token"])},
            "ablated": {"layer": mf.ABLATE[0], "head": mf.ABLATE[1],
                        "next_token": {"position": n - 1, "probabilities": nested(abl["next_token"])}}}


WHY = {"mistral": "the converter writes no sliding window for arch llama, so llama.cpp reads no window "
                  "(the folder has a window of 3 on every layer)",
       "qwen2-window": "the converter writes no sliding window for qwen2 (the folder's layer 1 has a window of 3)",
       "gemma2": "no key carries query_pre_attn_scalar (24 here): llama.cpp scales by 1/sqrt(key_length) "
                 "(1/sqrt(n_embd/n_head) for the 27B model only)",
       "gemma3_text": "no key carries query_pre_attn_scalar (12) or the layer pattern: llama.cpp scales by "
                      "1/sqrt(key_length) and makes layers il % 6 < 5 sliding (all three here), turning with "
                      "rope.freq_base_swa (10000, unscaled)"}


def families(expected):
    out = os.path.join(HERE, "families")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(FAMILIES, "expected.json"), encoding="utf-8") as f:
        folder_expected = json.load(f)
    case_of = {fo: c for c, v in folder_expected["cases"].items() for fo in v["folders"]}
    for folder in sorted(case_of):
        config, tj, tc, hf = convert.read_folder(os.path.join(FAMILIES, folder))
        kv, _ = convert.metadata(config, tj, tc, folder, convert.FILE_TYPE["F32"])
        path = os.path.join(out, folder + ".gguf")
        convert.write(path, kv, convert.gguf_tensors(config, hf))
        meta, tensors, _ = reading.load(path)
        case = folder_expected["cases"][case_of[folder]]
        ids = llamacpp_tok.tokenize(meta, folder_expected["text"])
        assert ids == case["token_ids"], f"{folder}: llama.cpp's tokenizer gives {ids}, the folder {case['token_ids']}"
        s, ref, abl = reading.run(meta, tensors, ids)
        diff = compare(ref, case)
        entry = {"folder": folder, "architecture": meta["general.architecture"],
                 "tokenizer": meta["tokenizer.ggml.model"], "pre": meta["tokenizer.ggml.pre"]}
        if case_of[folder] in WHY:
            assert diff > 1e-3, f"{folder}: expected to differ from the folder, differs by {diff}"
            entry.update({"same_as_folder": False, "why": WHY[case_of[folder]], "largest_difference": diff})
            entry.update(numbers(s, ref, abl, ids))
        else:
            assert diff < 2e-6, f"{folder}: differs from the folder by {diff}"
            entry.update({"same_as_folder": True, "largest_difference": diff})
        expected["files"][f"families/{folder}.gguf"] = entry
        if QCHECK:
            ok, text = ggml_open(path)
            assert ok, f"{folder}: ggml refuses it: {text}"
        print(f"families/{folder}.gguf: {os.path.getsize(path)} bytes, {meta['general.architecture']}, "
              f"{'same as the folder' if entry['same_as_folder'] else 'differs'} ({diff:.2g})")


# ---------------------------------------------------------------- quantised


def quantised_cases():
    """(file, config, tokenizer, file type): shapes whose rows are whole K-quant blocks."""
    t_llama3, t_qwen = mf.byte_level_tokenizer("llama3"), mf.byte_level_tokenizer("qwen2")
    llama = mf.common(
        "llama", "LlamaForCausalLM", t_llama3, attention_bias=False, head_dim=64, hidden_act="silu",
        hidden_size=256, intermediate_size=256, max_position_embeddings=131072, mlp_bias=False,
        num_attention_heads=4, num_hidden_layers=2, num_key_value_heads=2, rms_norm_eps=1e-05,
        rope_theta=500000.0, rope_scaling={"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                                           "original_max_position_embeddings": 8192, "rope_type": "llama3"},
        tie_word_embeddings=False,
        bos_token_id=t_llama3["special_ids"]["<|begin_of_text|>"], eos_token_id=t_llama3["special_ids"]["<|end_of_text|>"])
    qwen = mf.common(
        "qwen2", "Qwen2ForCausalLM", t_qwen, hidden_act="silu", hidden_size=64, intermediate_size=96,
        max_position_embeddings=32768, num_attention_heads=4, num_hidden_layers=2, num_key_value_heads=2,
        rms_norm_eps=1e-06, rope_theta=1000000.0, tie_word_embeddings=True, use_sliding_window=False,
        bos_token_id=t_qwen["special_ids"]["<|endoftext|>"], eos_token_id=t_qwen["special_ids"]["<|endoftext|>"])
    return [("llama-q4_k_m.gguf", llama, t_llama3, "Q4_K_M"), ("qwen2-q8_0.gguf", qwen, t_qwen, "Q8_0")]


def quantised(expected):
    out = os.path.join(HERE, "quantised")
    os.makedirs(out, exist_ok=True)
    for file, config, tok, ftype in quantised_cases():
        s = mf.spec_from_config(config)
        P = mf.make_weights(config, s)
        for name, w in P.items():  # keep activations moderate at these widths
            if w.ndim == 2 and "embed" not in name:
                P[name] = (w * np.float32(np.sqrt(16.0 / w.shape[1]))).astype(np.float32)
        kv, _ = convert.metadata(config, tok["json"], tok["config"], file[:-5], llama_quant.FILE_TYPES[ftype])
        tensors = dict(convert.gguf_tensors(config, {k: P[k] for k in sorted(P)}))
        shapes = {n: list(reversed(w.shape)) for n, w in tensors.items()}
        types = llama_quant.tensor_types(shapes, config["num_hidden_layers"], ftype)
        path = os.path.join(out, file)
        convert.write(path, kv, [(n, tensors[n]) for n in llama_quant.order(tensors)], types)
        meta, deq, got_types = reading.load(path)
        assert got_types == types
        ids = llamacpp_tok.tokenize(meta, mf.TEXT)
        assert ids == tok["ids"], f"{file}: {ids} != {tok['ids']}"
        s2, ref, abl = reading.run(meta, deq, ids)
        counts = {}
        for t in types.values():
            counts[t] = counts.get(t, 0) + 1
        entry = {"file_type": ftype, "tensor_types": dict(sorted(types.items())), "type_counts": counts,
                 "same_as_folder": False, "why": "its own weights (no folder); numbers from the dequantised weights"}
        entry.update(numbers(s2, ref, abl, ids))
        expected["files"][f"quantised/{file}"] = entry
        if QCHECK:
            with tempfile.TemporaryDirectory() as d:
                ok, text = ggml_open(path, d)
                assert ok, text
                for name, w in deq.items():
                    got = np.fromfile(os.path.join(d, name + ".f32"), np.float32)
                    assert np.array_equal(got.view(np.uint32), w.reshape(-1).view(np.uint32)), f"{file} {name}"
        print(f"quantised/{file}: {os.path.getsize(path)} bytes, {counts}")


def hostile_files():
    out = os.path.join(HERE, "hostile")
    rows = hostile.write_all(out)
    with open(os.path.join(out, "base.gguf"), "wb") as f:
        f.write(hostile.base_bytes())
    if QCHECK:
        ok, text = ggml_open(os.path.join(out, "base.gguf"))
        assert ok, f"ggml refuses the valid base: {text}"
        for r in rows:
            ok, text = ggml_open(os.path.join(out, r["file"]))
            invalid = "valid=0" in text
            r["ggml"] = ("refused by gguf.cpp" if not ok else
                         "opened by gguf.cpp; ggml_validate_row_data refuses its data" if invalid else
                         "opened by gguf.cpp (a model reader must refuse it)")
    write_json(os.path.join(out, "hostile.json"), {
        "note": "written by make_gguf.py (hostile.py): every file must be refused with exit 2 and one line "
                "containing each of words (case-insensitive); base.gguf is the valid model they are made from",
        "base": "base.gguf", "files": rows})
    print(f"hostile: {len(rows)} files, {sum(r['bytes'] for r in rows)} bytes")


def main():
    global QCHECK
    if "--check-c" in sys.argv:
        QCHECK = os.path.abspath(sys.argv[sys.argv.index("--check-c") + 1])
    expected = {"note": "written by make_gguf.py; see README.md", "text": mf.TEXT,
                "ablate": {"layer": mf.ABLATE[0], "head": mf.ABLATE[1]}, "files": {}}
    blocks()
    families(expected)
    quantised(expected)
    hostile_files()
    write_json(os.path.join(HERE, "expected.json"), expected, compact=True)


if __name__ == "__main__":
    main()
