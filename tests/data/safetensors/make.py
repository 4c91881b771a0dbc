#!/usr/bin/python3
"""Independent safetensors writer and checker for tests/tst_safetensors.cpp.

Written from the format description (huggingface/safetensors README and
safetensors/src/tensor.rs), with struct + json + numpy only, so that the C++
reader is tested against bytes it did not produce.

  /usr/bin/python3 make.py            regenerate the *.safetensors files and expected.json here
  /usr/bin/python3 make.py --check FILE EXPECTED.json
                                      read FILE (written by our C++ writer) strictly and
                                      check it is what the reference writer makes of the
                                      tensors in EXPECTED.json; exit 0 when it is

Expected values are the float32 each stored element decodes to, written as
JSON numbers (Python's repr of that float32 as a double: exact) and as the
float32 bit patterns in hex ("bits").
"""
import json
import os
import struct
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "I16": 2, "U16": 2, "F16": 2,
         "BF16": 2, "I32": 4, "U32": 4, "F32": 4, "F64": 8, "I64": 8, "U64": 8}


def bf16_bits(values):
    """float32 -> bfloat16 bits, round to nearest even (as torch does)."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def encode(dtype, values):
    a = np.asarray(values)
    if dtype == "F32":
        return a.astype("<f4").tobytes()
    if dtype == "F16":
        return a.astype("<f2").tobytes()
    if dtype == "F64":
        return a.astype("<f8").tobytes()
    if dtype == "BF16":
        return bf16_bits(a).astype("<u2").tobytes()
    if dtype == "I64":
        return a.astype("<i8").tobytes()
    raise ValueError(dtype)


def decode(dtype, raw):
    """The float32 values stored bytes stand for (None for integer dtypes)."""
    if dtype == "F32":
        return np.frombuffer(raw, "<f4").astype(np.float32)
    if dtype == "F16":
        return np.frombuffer(raw, "<f2").astype(np.float32)
    if dtype == "F64":
        return np.frombuffer(raw, "<f8").astype(np.float32)
    if dtype == "BF16":
        return (np.frombuffer(raw, "<u2").astype(np.uint32) << 16).view(np.float32)
    return None


def write(path, tensors, metadata=None, pad=True, order=None):
    """tensors: list of (name, dtype, shape, values), data laid out in list order;
    the header lists them in `order` (names) if given."""
    header, blobs, offset = {}, [], 0
    if metadata is not None:
        header["__metadata__"] = metadata
    entries = {}
    for name, dtype, shape, values in tensors:
        raw = encode(dtype, values)
        assert len(raw) == int(np.prod(shape, dtype=np.int64)) * SIZES[dtype]
        entries[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    for name in order or [t[0] for t in tensors]:
        header[name] = entries[name]
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    if pad:
        text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for raw in blobs:
            f.write(raw)
    return len(text)


def read_strict(path):
    """An independent reader with the reference validator's rules."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 8:
        raise ValueError("shorter than 8 bytes")
    (n,) = struct.unpack("<Q", data[:8])
    if n > 100_000_000 or 8 + n > len(data):
        raise ValueError("bad header length %d" % n)
    pairs = json.loads(data[8:8 + n].decode("utf-8"), object_pairs_hook=lambda p: p)
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    header = dict(pairs)
    metadata = dict(header.pop("__metadata__", []))
    for k, v in metadata.items():
        if not isinstance(v, str):
            raise ValueError("metadata %s not a string" % k)
    buffer = data[8 + n:]
    out, start = {}, 0
    for name, entry in sorted(header.items(), key=lambda kv: tuple(dict(kv[1])["data_offsets"])):
        entry = dict(entry)
        begin, end = entry["data_offsets"]
        if begin != start or end < begin:
            raise ValueError("%s: offsets do not tile the buffer" % name)
        count = int(np.prod(entry["shape"], dtype=np.int64))
        if end - begin != count * SIZES[entry["dtype"]]:
            raise ValueError("%s: size mismatch" % name)
        start = end
        values = decode(entry["dtype"], buffer[begin:end])
        out[name] = {"dtype": entry["dtype"], "shape": entry["shape"], "data_offsets": [begin, end],
                     "values": None if values is None else [float(v) for v in values]}
        if values is not None:
            # The float32 bit patterns too: JSON readers may drop the sign of -0.0.
            out[name]["bits"] = ["%08x" % b for b in values.view(np.uint32)]
    if start != len(buffer):
        raise ValueError("tensors do not cover the buffer")
    return {"header_length": n, "metadata": metadata, "tensors": out}


DTYPE_ORDER = list(SIZES)  # the reference's enum order: its writer sorts by it, descending


def check(path, expected_path):
    """EXPECTED.json: {"metadata": {...}, "tensors": {name: {"dtype", "shape", "bits"}}}
    with the float32 values given to the writer as hex bit patterns. The file must be what the
    reference serializer writes for them, byte for byte in its header."""
    with open(expected_path, encoding="utf-8") as f:
        expected = json.load(f)
    with open(path, "rb") as f:
        data = f.read()
    got = read_strict(path)
    order = sorted(expected["tensors"].items(),
                   key=lambda kv: (-DTYPE_ORDER.index(kv[1]["dtype"]), kv[0].encode("utf-8")))
    header, offset, problems = {}, 0, []
    if expected["metadata"]:
        header["__metadata__"] = dict(sorted(expected["metadata"].items(), key=lambda kv: kv[0].encode("utf-8")))
    for name, t in order:
        given = np.array([int(b, 16) for b in t["bits"]], np.uint32).view(np.float32)
        stored = decode(t["dtype"], encode(t["dtype"], given))
        size = len(stored) * SIZES[t["dtype"]]
        header[name] = {"dtype": t["dtype"], "shape": t["shape"], "data_offsets": [offset, offset + size]}
        g = got["tensors"].get(name)
        want_bits = ["%08x" % b for b in stored.view(np.uint32)]
        if g is None or g["bits"] != want_bits or g["data_offsets"] != [offset, offset + size]:
            problems.append("tensor %s: got %s, expected offsets %s bits %s" % (name, g, [offset, offset + size], want_bits))
        offset += size
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    if data[8:8 + got["header_length"]] != text:
        problems.append("header %r, expected %r" % (data[8:8 + got["header_length"]], text))
    if got["metadata"] != expected["metadata"] or set(got["tensors"]) != set(expected["tensors"]):
        problems.append("metadata or names differ")
    for p in problems:
        print(p)
    print("ok" if not problems else "mismatch")
    return 1 if problems else 0


F16_VALUES = [1.0, -2.5, 65504.0, 6.103515625e-05, 5.960464477539063e-08, 0.1, -0.0, 1000.5]
BF16_VALUES = [1.0, 3.14159265, -1e30, 1e-30, 0.1, -7.75]


def make():
    files = {}
    files["f32.safetensors"] = (
        [("h.0.attn.c_attn.weight", "F32", [2, 3], [[0.5, -1.25, 3.0e-8], [1e30, -0.0, 1.4e-45]]),
         ("h.0.attn.c_attn.bias", "F32", [3], [0.1, 0.2, 0.3])],
        {"format": "pt", "note": "written by make.py"}, True, None)
    files["f16.safetensors"] = ([("wte.weight", "F16", [2, 4], F16_VALUES)], None, True, None)
    files["bf16.safetensors"] = ([("wpe.weight", "BF16", [3, 2], BF16_VALUES)], None, True, None)
    # An unpadded header of odd length: the data that follows is unaligned.
    files["odd-header.safetensors"] = ([("x", "F32", [3], [1.5, -2.0, 1e-3]),
                                        ("y", "BF16", [1], [2.0])], None, False, None)
    # Several dtypes, a scalar and an empty tensor; the header lists names in
    # an order unlike the data's.
    files["mixed.safetensors"] = (
        [("position_ids", "I64", [1, 4], [[0, 1, 2, 3]]),
         ("ln.weight", "F64", [2], [0.1, -1e-300]),
         ("empty", "F32", [0, 3], []),
         ("scale", "F32", [], 0.125),
         ("ln.bias", "F16", [2], [0.25, -0.5])],
        {}, False, ["scale", "empty", "ln.bias", "position_ids", "ln.weight"])
    expected = {}
    for name, (tensors, metadata, pad, order) in files.items():
        path = os.path.join(HERE, name)
        write(path, tensors, metadata, pad, order)
        expected[name] = read_strict(path)
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--check":
        sys.exit(check(sys.argv[2], sys.argv[3]))
    make()
