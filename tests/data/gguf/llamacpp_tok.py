"""llama.cpp's two tokenizers, ported to Python to check that a GGUF's
tokenizer metadata gives the folder's token ids.

Written from llama.cpp's src/llama-vocab.cpp: llm_tokenizer_bpe_session
(regex pre-split chosen by tokenizer.ggml.pre, byte-to-unicode mapping,
ignore_merges, lowest merge rank first, unknown symbols split into byte
tokens) and llm_tokenizer_spm_session (space prefix, " " to U+2581, pairs
merged by the highest token score with the leftmost first on ties,
resegment through the recorded merges, <0xNN> byte fallback).
"""
import heapq

import regex

# llama-vocab.cpp's regex lists for the pre-tokenizers these fixtures use
GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"
PRE = {
    "llama-bpe": [r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
                  r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"],
    "qwen2": [r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"
              r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"],
    "smollm": [r"\p{N}", GPT2],
}


def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


def split(text, patterns):
    """unicode_regex_split: each regex splits the pieces of the one before, keeping unmatched text."""
    pieces = [text]
    for p in patterns:
        nxt = []
        for piece in pieces:
            at = 0
            for m in regex.finditer(p, piece):
                if m.start() > at:
                    nxt.append(piece[at:m.start()])
                nxt.append(m.group())
                at = m.end()
            if at < len(piece):
                nxt.append(piece[at:])
        pieces = nxt
    return [p for p in pieces if p]


def tokenize_bpe(meta, text):
    tokens = meta["tokenizer.ggml.tokens"]
    ids = {t: i for i, t in enumerate(tokens)}
    ranks = {}
    for r, m in enumerate(meta["tokenizer.ggml.merges"]):
        k = m.find(" ", 1)  # split at the first space at or after byte 1
        ranks.setdefault((m[:k], m[k + 1:]), r)
    pre = meta["tokenizer.ggml.pre"]
    ignore_merges = pre == "llama-bpe"
    add_bos = meta.get("tokenizer.ggml.add_bos_token", pre == "llama-bpe")
    b2u = bytes_to_unicode()
    out = [meta["tokenizer.ggml.bos_token_id"]] if add_bos else []
    for piece in split(text, PRE[pre]):
        word = "".join(b2u[b] for b in piece.encode("utf-8"))
        if ignore_merges and word in ids:
            out.append(ids[word])
            continue
        symbols = list(word)
        while len(symbols) > 1:
            best = min(((ranks.get((a, b), float("inf")), i) for i, (a, b) in enumerate(zip(symbols, symbols[1:]))))
            if best[0] == float("inf"):
                break
            i = best[1]
            symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
        for s in symbols:
            if s in ids:
                out.append(ids[s])
            else:
                out += [ids[b2u[b]] for b in s.encode("utf-8") if b2u[b] in ids]
    return out


def tokenize_spm(meta, text):
    tokens = meta["tokenizer.ggml.tokens"]
    scores = meta["tokenizer.ggml.scores"]
    ids = {t: i for i, t in enumerate(tokens)}
    if meta.get("tokenizer.ggml.add_space_prefix", True):
        text = " " + text
    text = text.replace(" ", "\u2581")
    sym = [{"text": c, "prev": i - 1, "next": i + 1 if i + 1 < len(text) else -1, "n": 1} for i, c in enumerate(text)]
    queue, merges = [], {}

    def add(left, right):
        if left == -1 or right == -1:
            return
        t = sym[left]["text"] + sym[right]["text"]
        if t not in ids:
            return
        heapq.heappush(queue, (-scores[ids[t]], left, right, len(t)))
        merges[t] = (left, right)

    for i in range(1, len(sym)):
        add(i - 1, i)
    while queue:
        _, left, right, size = heapq.heappop(queue)
        L, R = sym[left], sym[right]
        if L["n"] == 0 or R["n"] == 0 or len(L["text"]) + len(R["text"]) != size:
            continue
        L["text"] += R["text"]
        L["n"] += R["n"]
        R["n"] = 0
        R["text"] = ""
        L["next"] = R["next"]
        if R["next"] >= 0:
            sym[R["next"]]["prev"] = left
        add(L["prev"], left)
        add(left, L["next"])
    out = [meta["tokenizer.ggml.bos_token_id"]] if meta.get("tokenizer.ggml.add_bos_token", True) else []

    def resegment(t):
        # every merged symbol is a token (merges are only made from tokens), so
        # only single characters outside the vocabulary reach the byte fallback
        if t in ids:
            out.append(ids[t])
            return
        for b in t.encode("utf-8"):
            out.append(ids.get(f"<0x{b:02X}>", ids.get(chr(b))))

    i = 0
    while i != -1:
        resegment(sym[i]["text"])
        i = sym[i]["next"]
    return out


def tokenize(meta, text):
    return tokenize_bpe(meta, text) if meta["tokenizer.ggml.model"] == "gpt2" else tokenize_spm(meta, text)
