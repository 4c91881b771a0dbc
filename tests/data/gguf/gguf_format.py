"""A GGUF writer (versions 2 and 3, every metadata value type, arrays,
alignment) and a reader for checking what was written, both with struct.

Written from ggml's docs/gguf.md and gguf.h, llama.cpp's gguf-py
gguf_writer.py (what a writer emits: general.architecture first, each
tensor's data padded to the alignment) and ggml/src/gguf.cpp (what a reader
accepts). Not from the C++ it tests.

The writer works in two layers so that the hostile files can break any
rule: encode_* turn values into bytes, and Gguf.to_bytes() lays out a file
from key/value records and tensor records whose every field (counts,
lengths, dimensions, types, offsets) can be overridden.
"""
import struct

import numpy as np

MAGIC = b"GGUF"
DEFAULT_ALIGNMENT = 32

# gguf_type (gguf.h), with the struct code of the scalar ones
VALUE_TYPES = {"u8": (0, "<B"), "i8": (1, "<b"), "u16": (2, "<H"), "i16": (3, "<h"), "u32": (4, "<I"),
               "i32": (5, "<i"), "f32": (6, "<f"), "bool": (7, "<?"), "str": (8, None), "arr": (9, None),
               "u64": (10, "<Q"), "i64": (11, "<q"), "f64": (12, "<d")}
TYPE_BY_ID = {v[0]: k for k, v in VALUE_TYPES.items()}


def encode_string(text, length=None):
    """uint64 byte length (or a forged one), then the bytes, no terminating NUL."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    return struct.pack("<Q", len(data) if length is None else length) + data


def encode_scalar(vtype, value):
    if vtype == "str":
        return encode_string(value)
    return struct.pack(VALUE_TYPES[vtype][1], value)


def encode_array(elem, values, count=None):
    """uint32 element type, uint64 element count, the elements back to back."""
    elem_id = VALUE_TYPES[elem][0]
    head = struct.pack("<IQ", elem_id, len(values) if count is None else count)
    if elem == "str":
        return head + b"".join(encode_string(v) for v in values)
    if elem == "arr":  # nested arrays: values are (elem, values) pairs
        return head + b"".join(encode_array(e, v) for e, v in values)
    code = VALUE_TYPES[elem][1]
    return head + np.asarray(values, dtype=np.dtype(code)).tobytes()


def encode_kv(key, vtype, value, key_length=None):
    """One key/value record; vtype "arr:ELEM" for arrays."""
    if vtype.startswith("arr:"):
        body = struct.pack("<I", 9) + encode_array(vtype[4:], value)
    else:
        body = struct.pack("<I", VALUE_TYPES[vtype][0]) + encode_scalar(vtype, value)
    return encode_string(key, key_length) + body


def pad(n, alignment):
    return (alignment - n % alignment) % alignment


class Tensor:
    """A tensor record. ne is in ggml order (ne[0] contiguous); data is the raw bytes."""

    def __init__(self, name, ggml_type, ne, data, offset=None, n_dims=None, info_offset=None):
        self.name, self.ggml_type, self.ne, self.data = name, ggml_type, list(ne), bytes(data)
        self.offset, self.n_dims = offset, n_dims
        self.info_offset = info_offset  # a forged offset written in the record only (the data stays put)

    def info(self, offset):
        n_dims = len(self.ne) if self.n_dims is None else self.n_dims
        return (encode_string(self.name) + struct.pack("<I", n_dims)
                + b"".join(struct.pack("<Q", d & 0xFFFFFFFFFFFFFFFF) for d in self.ne)
                + struct.pack("<IQ", self.ggml_type, offset if self.info_offset is None else self.info_offset))


class Gguf:
    def __init__(self, version=3, alignment=DEFAULT_ALIGNMENT):
        self.version = version
        self.alignment = alignment  # data alignment used for layout (general.alignment is written by the caller)
        self.kvs = []  # raw records
        self.tensors = []

    # key/value helpers -------------------------------------------------
    def kv(self, key, vtype, value):
        self.kvs.append(encode_kv(key, vtype, value))
        return self

    def raw_kv(self, record):
        self.kvs.append(record)
        return self

    def u32(self, key, v):
        return self.kv(key, "u32", int(v))

    def f32(self, key, v):
        return self.kv(key, "f32", float(v))

    def s(self, key, v):
        return self.kv(key, "str", v)

    def b(self, key, v):
        return self.kv(key, "bool", bool(v))

    def arr(self, key, elem, values):
        return self.kv(key, "arr:" + elem, values)

    def tensor(self, name, ggml_type, ne, data, **kw):
        self.tensors.append(Tensor(name, ggml_type, ne, data, **kw))
        return self

    # layout --------------------------------------------------------------
    def layout(self):
        """Offsets each tensor gets: the running sum, each padded to the alignment."""
        offsets, at = [], 0
        for t in self.tensors:
            offsets.append(at if t.offset is None else t.offset)
            at += len(t.data) + pad(len(t.data), self.alignment)
        return offsets

    def to_bytes(self, magic=MAGIC, n_tensors=None, n_kv=None, truncate_at=None):
        offsets = self.layout()
        head = magic + struct.pack("<I", self.version)
        if self.version == 1:  # version 1 had 32-bit counts
            head += struct.pack("<II", len(self.tensors) if n_tensors is None else n_tensors,
                                len(self.kvs) if n_kv is None else n_kv)
        else:
            head += struct.pack("<QQ", len(self.tensors) if n_tensors is None else n_tensors,
                                len(self.kvs) if n_kv is None else n_kv)
        meta = head + b"".join(self.kvs) + b"".join(t.info(o) for t, o in zip(self.tensors, offsets))
        out = bytearray(meta + b"\0" * pad(len(meta), self.alignment))
        start = len(out)
        for t, o in zip(self.tensors, offsets):
            end = start + o + len(t.data)
            if len(out) < end:
                out += b"\0" * (end - len(out))
            out[start + o:end] = t.data
            out += b"\0" * pad(len(out) - start, self.alignment)
        data = bytes(out)
        return data if truncate_at is None else data[:truncate_at]

    def write(self, path, **kw):
        data = self.to_bytes(**kw)
        with open(path, "wb") as f:
            f.write(data)
        return len(data)


# ---------------------------------------------------------------- reader (for checks)


class Reader:
    """Parses what Gguf wrote (little-endian, version 2 or 3), checking every bound."""

    def __init__(self, data):
        self.d, self.p = memoryview(data), 0

    def take(self, n):
        if n < 0 or self.p + n > len(self.d):
            raise ValueError(f"wants {n} bytes at {self.p}, file has {len(self.d)}")
        b = bytes(self.d[self.p:self.p + n])
        self.p += n
        return b

    def unpack(self, code):
        return struct.unpack(code, self.take(struct.calcsize(code)))[0]

    def string(self):
        return self.take(self.unpack("<Q")).decode("utf-8")

    def value(self, tid):
        name = TYPE_BY_ID[tid]
        if name == "str":
            return self.string()
        if name == "arr":
            elem, count = self.unpack("<I"), self.unpack("<Q")
            if TYPE_BY_ID[elem] == "arr":
                raise ValueError("nested array")
            return [self.value(elem) for _ in range(count)]
        return self.unpack(VALUE_TYPES[name][1])

    def parse(self):
        if self.take(4) != MAGIC:
            raise ValueError("not GGUF")
        version = self.unpack("<I")
        if version not in (2, 3):
            raise ValueError(f"version {version}")
        n_tensors, n_kv = self.unpack("<Q"), self.unpack("<Q")
        kv, types = {}, {}
        for _ in range(n_kv):
            key = self.string()
            tid = self.unpack("<I")
            if key in kv:
                raise ValueError(f"duplicate key {key}")
            kv[key], types[key] = self.value(tid), TYPE_BY_ID[tid]
        tensors = {}
        for _ in range(n_tensors):
            name = self.string()
            n_dims = self.unpack("<I")
            ne = [self.unpack("<Q") for _ in range(n_dims)]
            tensors[name] = {"ne": ne, "type": self.unpack("<I"), "offset": self.unpack("<Q")}
        align = kv.get("general.alignment", DEFAULT_ALIGNMENT)
        start = self.p + pad(self.p, align)
        return {"version": version, "kv": kv, "types": types, "tensors": tensors, "data_start": start,
                "alignment": align}
