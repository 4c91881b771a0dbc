#!/usr/bin/env python3
"""The Euclidean norm of a few rows of gpt2-f32's token embedding (wte), read
straight from model.safetensors with the standard library only: the expected
numbers of tst_inputedit's tokenEmbeddingNorm case."""
import json, math, os, struct

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "gpt2-f32", "model.safetensors"), "rb") as f:
    (length,) = struct.unpack("<Q", f.read(8))
    header = json.loads(f.read(length))
    data = f.read()
name = "wte.weight" if "wte.weight" in header else "transformer.wte.weight"
info = header[name]
rows, cols = info["shape"]
start, _ = info["data_offsets"]
for token in (0, 3, rows - 1):
    row = struct.unpack_from("<%df" % cols, data, start + token * cols * 4)
    print(token, repr(math.sqrt(sum(float(x) * float(x) for x in row))))
print("rows", rows)
