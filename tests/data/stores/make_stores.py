#!/usr/bin/python3
"""stores.json: fake Ollama, LM Studio and llama.cpp stores for the model
list tests, and what a correct model list shows for each entry.

    /usr/bin/python3 tests/data/stores/make_stores.py

The C++ test lays every store out in a temporary folder from stores.json
alone (no Python at test time): each file is a JSON value ("json"), a text
("text"), or a copy of a committed file ("copy", relative to the
repository root). It also writes files/, the two halves of a split GGUF.

Layouts from ollama's manifest/paths.go (manifests/HOST/NAMESPACE/MODEL/TAG,
blobs/sha256-HEX, BlobsPath's ^sha256[:-][0-9a-fA-F]{64}$),
manifest/manifest.go (schemaVersion 2, the docker manifest media type, the
config layer, Manifests' glob manifests/*/*/*/*), types/model/name.go
(defaults registry.ollama.ai, library, latest; DisplayShortest drops the
default host and namespace), types/model/config.go (the config blob),
server/images.go (the last application/vnd.ollama.image.model layer is the
weights); LM Studio's documented models/PUBLISHER/REPO/FILE.gguf; llama.cpp's
common download cache (OWNER_REPO_FILE with a .json sidecar holding url and
etag, and gguf-split's NAME-0000K-of-0000N.gguf parts with split.no,
split.count and split.tensors.count).
"""
import hashlib
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "gguf"))
from gguf_format import Gguf, Reader  # noqa: E402
from ggml_quants import TYPE_NAMES, TYPES  # noqa: E402

FILE_TYPES = {0: "F32", 1: "F16", 7: "Q8_0", 15: "Q4_K_M", 32: "BF16"}
MANIFEST = "application/vnd.docker.distribution.manifest.v2+json"
CONFIG = "application/vnd.docker.container.image.v1+json"


def rel(path):
    return os.path.relpath(path, ROOT)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def most_bytes(bytes_by_type):
    """The type holding the most bytes (ties to the first name in order), "F32" when none."""
    if not bytes_by_type:
        return "F32"
    return sorted(bytes_by_type.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]


def facts(*paths):
    """family, parameter count, quantisation label, format and size on disk of a GGUF (all its parts).

    format is the contract's model.format: "gguf-" and the type holding the
    most bytes of the 2-D tensors (a Q4_K_M file is mostly Q4_K)."""
    params, size, family, ftype, by_type = 0, 0, None, None, {}
    for p in paths:
        data = read(p)
        info = Reader(data).parse()
        size += len(data)
        for t in info["tensors"].values():
            n = 1
            for d in t["ne"]:
                n *= d
            params += n
            if len(t["ne"]) >= 2:
                name = TYPE_NAMES[t["type"]]
                _, block, block_bytes = TYPES[name]
                by_type[name] = by_type.get(name, 0) + n // block * block_bytes
        family = family or info["kv"].get("general.architecture")
        ftype = ftype if ftype is not None else info["kv"].get("general.file_type")
    return {"family": family, "parameters": params, "quantisation": FILE_TYPES[ftype],
            "format": "gguf-" + most_bytes(by_type), "size_on_disk": size}


SAFETENSORS_BYTES = {"F32": 4, "F16": 2, "BF16": 2}


def safetensors_facts(folder, family):
    """A model folder's facts: parameters = elements of its tensors (these folders hold
    only the model's weights), format = "safetensors-" and the dtype of the most bytes,
    size_on_disk = bytes of all its files."""
    data = read(os.path.join(folder, "model.safetensors"))
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    params, by_type = 0, {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        count = 1
        for d in t["shape"]:
            count *= d
        params += count
        by_type[t["dtype"]] = by_type.get(t["dtype"], 0) + count * SAFETENSORS_BYTES[t["dtype"]]
    size = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
    return {"family": family, "parameters": params, "format": "safetensors-" + most_bytes(by_type),
            "size_on_disk": size}


def digest(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def layer(media, data, **extra):
    return dict({"mediaType": media, "digest": digest(data), "size": len(data)}, **extra)


def ollama():
    files, models = [], []
    gguf_dir = os.path.join(ROOT, "tests", "data", "gguf")
    qwen = os.path.join(gguf_dir, "quantised", "qwen2-q8_0.gguf")
    llama = os.path.join(gguf_dir, "quantised", "llama-q4_k_m.gguf")
    hostile = os.path.join(gguf_dir, "hostile", "version-4.gguf")
    template = b"{{ if .System }}<|im_start|>system\n{{ .System }}<|im_end|>\n{{ end }}<|im_start|>user\n{{ .Prompt }}<|im_end|>\n"
    params = json.dumps({"stop": ["<|im_end|>"], "temperature": 0.7}).encode()
    license_ = b"Apache License 2.0 (a stand-in text)\n"

    def blob(data, copy=None):
        path = "blobs/" + digest(data).replace(":", "-")
        if all(f["path"] != path for f in files):
            files.append({"path": path, "copy": rel(copy)} if copy else {"path": path, "text": data.decode()})
        return path

    def config(family, label, ftype):
        c = {"model_format": "gguf", "model_family": family, "model_families": [family], "model_type": label,
             "file_type": ftype, "architecture": "amd64", "os": "linux"}
        data = json.dumps(c, separators=(",", ":")).encode()
        blob(data)
        return layer(CONFIG, data)

    def manifest(path, layers, cfg):
        files.append({"path": "manifests/" + path,
                      "json": {"schemaVersion": 2, "mediaType": MANIFEST, "config": cfg, "layers": layers}})

    qwen_data, llama_data = read(qwen), read(llama)
    blob(qwen_data, qwen), blob(llama_data, llama)
    for t in (template, params, license_):
        blob(t)
    common = [layer("application/vnd.ollama.image.template", template),
              layer("application/vnd.ollama.image.license", license_),
              layer("application/vnd.ollama.image.params", params)]
    qcfg = config("qwen2", "0.5B", "Q8_0")
    manifest("registry.ollama.ai/library/qwen2.5/0.5b",
             [layer("application/vnd.ollama.image.model", qwen_data)] + common, qcfg)
    manifest("registry.ollama.ai/library/qwen2.5/latest",
             [layer("application/vnd.ollama.image.model", qwen_data)] + common, qcfg)
    for name in ("qwen2.5:0.5b", "qwen2.5:latest"):
        models.append(dict({"name": name, "gguf": "blobs/" + digest(qwen_data).replace(":", "-")}, **facts(qwen)))
    # one blob under two names is one file: the list shows it once, saying where else it is
    models[-1]["same_file_as"] = "qwen2.5:0.5b"
    # a vision-style manifest: the projector is a second GGUF, never the model
    manifest("hf.co/tiny-org/Llama-Tiny-GGUF/Q4_K_M",
             [layer("application/vnd.ollama.image.model", llama_data),
              layer("application/vnd.ollama.image.projector", qwen_data)] + common[:1],
             config("llama", "1M", "Q4_K_M"))
    models.append(dict({"name": "hf.co/tiny-org/Llama-Tiny-GGUF:Q4_K_M",
                        "gguf": "blobs/" + digest(llama_data).replace(":", "-")}, **facts(llama)))
    files.append({"path": "manifests/registry.ollama.ai/library/broken/latest", "text": "{\"schemaVersion\": 2, \"layers\": ["})
    models.append({"name": "broken:latest", "error": "the manifest is not valid JSON", "words": ["manifest"]})
    missing = b"GGUF bytes that were never downloaded"
    manifest("registry.ollama.ai/library/missing/latest",
             [layer("application/vnd.ollama.image.model", missing)] + common, config("llama", "8B", "Q4_K_M"))
    models.append({"name": "missing:latest", "error": "its weights blob is not in blobs/",
                   "words": [digest(missing).replace(":", "-")]})
    tensor = b"\0" * 64
    manifest("registry.ollama.ai/library/safetensors-style/latest",
             [layer("application/vnd.ollama.image.tensor", tensor, name="model.embed_tokens.weight"),
              layer("application/vnd.ollama.image.json", b"{}", name="config.json")] + common,
             config("qwen3", "0.6B", "BF16"))
    blob(tensor)
    blob(b"{}")
    models.append({"name": "safetensors-style:latest", "error": "no GGUF weights (a model stored one tensor per layer)",
                   "words": ["GGUF"]})
    bad = layer("application/vnd.ollama.image.model", b"x")
    bad["digest"] = "sha256:not-hex"
    manifest("registry.ollama.ai/library/bad-digest/latest", [bad], config("llama", "1B", "Q8_0"))
    models.append({"name": "bad-digest:latest", "error": "a layer digest that is not sha256 and 64 hex digits",
                   "words": ["digest"]})
    # A digest with a line break after its 64 digits: a pattern ending in "$"
    # matches before a final line break, which let this through to a message
    # of two lines (found by fuzz_ollama).
    broken_line = layer("application/vnd.ollama.image.model", b"y")
    broken_line["digest"] += "\n"
    manifest("registry.ollama.ai/library/digest-line-break/latest", [broken_line], config("llama", "1B", "Q8_0"))
    models.append({"name": "digest-line-break:latest", "error": "a layer digest followed by a line break",
                   "words": ["digest", "64 hex digits"]})
    hostile_data = read(hostile)
    blob(hostile_data, hostile)
    manifest("registry.ollama.ai/library/hostile/latest",
             [layer("application/vnd.ollama.image.model", hostile_data)], config("llama", "1B", "Q8_0"))
    models.append({"name": "hostile:latest", "error": "the GGUF is version 4", "words": ["version 4"]})
    files.append({"path": "manifests/registry.ollama.ai/library/too-shallow", "text": "ignored: not at depth 4"})
    return {"root": "ollama/models", "environment": {"OLLAMA_MODELS": "ollama/models"},
            "files": sorted(files, key=lambda f: f["path"]), "models": models,
            "not_listed": ["manifests/registry.ollama.ai/library/too-shallow (not HOST/NAMESPACE/MODEL/TAG)",
                           "blobs of template, params, license and projector layers"]}


def split_files():
    """families/llama-tied.gguf split in two as gguf-split writes it."""
    src = os.path.join(ROOT, "tests", "data", "gguf", "families", "llama-tied.gguf")
    data = read(src)
    info = Reader(data).parse()
    names = list(info["tensors"])
    half = len(names) // 2
    out = []
    for k, part in enumerate((names[:half], names[half:])):
        g = Gguf()
        if k == 0:
            for key, value in info["kv"].items():
                vtype = info["types"][key]
                if vtype == "arr":
                    elem = {str: "str", float: "f32", int: "i32"}[type(value[0])]
                    g.arr(key, elem, value)
                else:
                    g.kv(key, vtype, value)
        g.kv("split.no", "u16", k).kv("split.count", "u16", 2).kv("split.tensors.count", "i32", len(names))
        for name in part:
            t = info["tensors"][name]
            n = 1
            for d in t["ne"]:
                n *= d
            start = info["data_start"] + t["offset"]
            g.tensor(name, t["type"], t["ne"], data[start:start + 4 * n])
        path = os.path.join(HERE, "files", f"llama-tied-F32-0000{k + 1}-of-00002.gguf")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        g.write(path)
        out.append(path)
    return out


def lmstudio(parts):
    gguf_dir = os.path.join(ROOT, "tests", "data", "gguf")
    qwen = os.path.join(gguf_dir, "quantised", "qwen2-q8_0.gguf")
    gemma = os.path.join(gguf_dir, "families", "gemma.gguf")
    files = [{"path": "lmstudio-community/Qwen2-Tiny-GGUF/qwen2-tiny-Q8_0.gguf", "copy": rel(qwen)},
             {"path": "lmstudio-community/Qwen2-Tiny-GGUF/mmproj-qwen2-tiny-f16.gguf", "copy": rel(gemma)},
             {"path": "google/gemma-tiny-GGUF/gemma-tiny-F32.gguf", "copy": rel(gemma)},
             {"path": "tiny-org/Llama-Tied-GGUF/llama-tied-F32-00001-of-00002.gguf", "copy": rel(parts[0])},
             {"path": "tiny-org/Llama-Tied-GGUF/llama-tied-F32-00002-of-00002.gguf", "copy": rel(parts[1])},
             {"path": "tiny-org/Half-GGUF/half-F32-00001-of-00002.gguf", "copy": rel(parts[0])},
             {"path": "stray.gguf", "copy": rel(qwen)},
             {"path": "tiny-org/Notes/README.md", "text": "not a model\n"}]
    models = [dict({"name": "lmstudio-community/Qwen2-Tiny-GGUF/qwen2-tiny-Q8_0.gguf"}, **facts(qwen)),
              dict({"name": "google/gemma-tiny-GGUF/gemma-tiny-F32.gguf"}, **facts(gemma)),
              dict({"name": "tiny-org/Llama-Tied-GGUF/llama-tied-F32-00001-of-00002.gguf", "parts": 2}, **facts(*parts)),
              {"name": "tiny-org/Half-GGUF/half-F32-00001-of-00002.gguf",
               "error": "part 2 of 2 is missing", "words": ["00002-of-00002"]}]
    return {"root": "lmstudio/models", "environment": {},
            "note": "the folder is ~/.lmstudio/models (older installs ~/.cache/lm-studio/models); the test passes it "
                    "as the LM Studio folder",
            "files": files, "models": models,
            "not_listed": ["mmproj-*.gguf (a vision projector)", "stray.gguf (directly in models/, which LM Studio "
                           "does not read)", "README.md", "the second part of a split model (listed with the first)"]}


def llamacpp():
    gguf_dir = os.path.join(ROOT, "tests", "data", "gguf")
    qwen = os.path.join(gguf_dir, "quantised", "qwen2-q8_0.gguf")
    llama = os.path.join(gguf_dir, "families", "llama.gguf")
    url = "https://huggingface.co/ggml-org/Qwen2-Tiny-GGUF/resolve/main/qwen2-tiny-q8_0.gguf"
    files = [{"path": "ggml-org_Qwen2-Tiny-GGUF_qwen2-tiny-q8_0.gguf", "copy": rel(qwen)},
             {"path": "ggml-org_Qwen2-Tiny-GGUF_qwen2-tiny-q8_0.gguf.json",
              "json": {"etag": "\"0123abcd\"", "lastModified": "Tue, 01 Apr 2025 10:00:00 GMT", "url": url}},
             {"path": "manifest=ggml-org=Qwen2-Tiny-GGUF=latest.json", "json": {"ggufFile": {"rfilename": "qwen2-tiny-q8_0.gguf"}}},
             {"path": "tiny_org_llama_F32.gguf", "copy": rel(llama)},
             {"path": "tiny_org_llama_F32.gguf.etag", "text": "\"feed\"\n"},
             {"path": "partial_download.gguf.downloadInProgress", "text": "GGUF"}]
    models = [dict({"name": "ggml-org/Qwen2-Tiny-GGUF/qwen2-tiny-q8_0.gguf", "from": "the .json sidecar's url"},
                   **facts(qwen)),
              dict({"name": "tiny_org_llama_F32.gguf", "from": "the file name (no sidecar url)"}, **facts(llama))]
    return {"root": "llamacpp-cache", "environment": {"LLAMA_CACHE": "llamacpp-cache"}, "files": files,
            "models": models, "not_listed": ["*.json, *.etag sidecars and manifest=*.json",
                                             "*.downloadInProgress (an unfinished download)"]}


def huggingface():
    """A Hugging Face hub cache: models--ORG--NAME/{refs/main, blobs/HASH, snapshots/REVISION/FILE -> ../../blobs/HASH}
    (huggingface_hub's layout; llama.cpp's -hf downloads land here too since it moved its cache there)."""
    files, models = [], []
    revision = "0123456789abcdef0123456789abcdef01234567"

    def entry(repo, named_files):
        folder = "models--" + repo.replace("/", "--")
        files.append({"path": folder + "/refs/main", "text": revision})
        for name, content in named_files:
            data = read(content) if isinstance(content, str) else content
            blob = folder + "/blobs/" + hashlib.sha256(data).hexdigest()
            if all(f["path"] != blob for f in files):
                files.append(dict({"path": blob}, **({"copy": rel(content)} if isinstance(content, str)
                                                    else {"text": data.decode()})))
            depth = name.count("/")
            files.append({"path": f"{folder}/snapshots/{revision}/{name}",
                          "link": "../" * (2 + depth) + "blobs/" + hashlib.sha256(data).hexdigest()})

    llama = os.path.join(ROOT, "tests", "data", "families", "llama-bf16")
    entry("tiny-org/llama-bf16", [(f, os.path.join(llama, f)) for f in sorted(os.listdir(llama))])
    models.append(dict({"name": "tiny-org/llama-bf16"}, **safetensors_facts(llama, "llama")))
    gguf = os.path.join(ROOT, "tests", "data", "gguf", "quantised", "llama-q4_k_m.gguf")
    entry("tiny-org/Llama-Tiny-GGUF", [("llama-tiny-Q4_K_M.gguf", gguf), ("README.md", b"a model card\n")])
    models.append(dict({"name": "tiny-org/Llama-Tiny-GGUF/llama-tiny-Q4_K_M.gguf"}, **facts(gguf)))
    entry("openai-community/gpt2-medium", [("config.json", b'{"model_type": "gpt2"}'),
                                           ("pytorch_model.bin", b"pickled weights stand-in\n")])
    models.append({"name": "openai-community/gpt2-medium", "error": "only pytorch_model.bin, which is not read",
                   "words": ["pytorch_model.bin"]})
    files.append({"path": "datasets--wikitext--wikitext/refs/main", "text": revision})
    files.append({"path": "version.txt", "text": "1"})
    return {"root": "huggingface/hub", "environment": {"HF_HUB_CACHE": "huggingface/hub"},
            "files": files, "models": models,
            "not_listed": ["datasets--* (not models)", "README.md beside a GGUF file", "version.txt"]}


def main():
    parts = split_files()
    stores = {"note": "written by make_stores.py; the C++ test lays out each store under a temporary folder "
                      "(paths relative to the store's root; copy paths relative to the repository root) and "
                      "compares the model list with models (name, family, parameters = elements of all tensors "
                      "of all parts, quantisation from general.file_type, format = the contract's model.format "
                      "(the type of the most bytes of 2-D tensors), size_on_disk = bytes of the GGUF "
                      "file or parts, or of a model folder's files; same_file_as: the entry is that one's file "
                      "under another name, listed once; error entries: listed with a one-line reason "
                      "containing words); a file given as link is a symbolic link to that relative target",
              "ollama": ollama(), "lmstudio": lmstudio(parts), "llamacpp": llamacpp(), "huggingface": huggingface()}
    with open(os.path.join(HERE, "stores.json"), "w", encoding="utf-8") as f:
        json.dump(stores, f, indent=1, ensure_ascii=False)
        f.write("\n")
    for k in ("ollama", "lmstudio", "llamacpp", "huggingface"):
        print(k, len(stores[k]["files"]), "files,", len(stores[k]["models"]), "entries")


if __name__ == "__main__":
    main()
