#!/usr/bin/python3
"""Expected token ids for tests/tst_bpe.cpp and tests/tst_wordpiece.cpp.

An implementation independent of the C++ one: GPT-2's byte-level BPE as
openai/gpt-2 src/encoder.py does it (the `regex` module, string merges), and
BERT's WordPiece as transformers' BertTokenizer does it (BasicTokenizer and
WordpieceTokenizer, with unicodedata for NFD and categories). Both split the
special tokens out of the text first, as Hugging Face's tokenizers do.

Before writing anything it checks itself against ids published outside this
project: llama.cpp's models/ggml-vocab-{gpt-2,bert-bge}.gguf.{inp,out} (the
ids Hugging Face's tokenizers give) and the documentation examples.

    /usr/bin/python3 tests/data/tokenizers/make_expected.py

writes tests/data/tokenizers/expected.json.
"""
import json
import os
import unicodedata

import regex

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------- GPT-2 BPE
def bytes_to_unicode():
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) \
        + list(range(ord("®"), ord("ÿ") + 1))
    chars = printable[:]
    n = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            chars.append(256 + n)
            n += 1
    return dict(zip(printable, map(chr, chars)))


class Gpt2:
    PATTERN = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")
    SPECIAL = "<|endoftext|>"

    def __init__(self, folder):
        self.encoder = json.load(open(os.path.join(folder, "vocab.json"), encoding="utf-8"))
        lines = open(os.path.join(folder, "merges.txt"), encoding="utf-8").read().split("\n")[1:-1]
        self.ranks = {tuple(line.split()): i for i, line in enumerate(lines)}
        self.byte_encoder = bytes_to_unicode()
        self.cache = {}

    def bpe(self, token):
        if token in self.cache:
            return self.cache[token]
        word = tuple(token)
        while len(word) > 1:
            pairs = set(zip(word, word[1:]))
            best = min(pairs, key=lambda p: self.ranks.get(p, float("inf")))
            if best not in self.ranks:
                break
            merged, i = [], 0
            while i < len(word):
                if i < len(word) - 1 and (word[i], word[i + 1]) == best:
                    merged.append(word[i] + word[i + 1])
                    i += 2
                else:
                    merged.append(word[i])
                    i += 1
            word = tuple(merged)
        self.cache[token] = word
        return word

    def encode_ordinary(self, text):
        ids = []
        for piece in self.PATTERN.findall(text):
            mapped = "".join(self.byte_encoder[b] for b in piece.encode("utf-8"))
            ids.extend(self.encoder[t] for t in self.bpe(mapped))
        return ids

    def encode(self, text):
        ids = []
        for k, part in enumerate(text.split(self.SPECIAL)):
            if k:
                ids.append(self.encoder[self.SPECIAL])
            ids.extend(self.encode_ordinary(part))
        return ids


# ----------------------------------------------------------- BERT WordPiece
def is_whitespace(c):
    return c in " \t\n\r" or unicodedata.category(c) == "Zs"


def is_control(c):
    return c not in "\t\n\r" and unicodedata.category(c).startswith("C")


def is_punctuation(c):
    cp = ord(c)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(c).startswith("P")


def is_cjk(cp):
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


class Bert:
    SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

    def __init__(self, vocab_txt, lower=True):
        lines = open(vocab_txt, encoding="utf-8").read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        self.vocab = {t: i for i, t in enumerate(lines)}
        self.lower = lower

    def basic(self, text):
        out = []
        for c in text:  # clean, then space out CJK ideographs
            if ord(c) == 0 or ord(c) == 0xFFFD or is_control(c):
                continue
            if is_whitespace(c):
                out.append(" ")
            elif is_cjk(ord(c)):
                out.append(" " + c + " ")
            else:
                out.append(c)
        text = unicodedata.normalize("NFC", "".join(out))
        words = []
        for word in text.split():
            if self.lower:
                word = word.lower()
                word = "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")
            current = ""
            for c in word:
                if is_punctuation(c):
                    if current:
                        words.append(current)
                    words.append(c)
                    current = ""
                else:
                    current += c
            if current:
                words.append(current)
        return words

    def wordpiece(self, word):
        if len(word) > 100:
            return ["[UNK]"]
        pieces, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = ("##" if start else "") + word[start:end]
                if piece in self.vocab:
                    break
                end -= 1
            if end == start:
                return ["[UNK]"]
            pieces.append(piece)
            start = end
        return pieces

    def encode_ordinary(self, text):
        return [self.vocab[p] for w in self.basic(text) for p in self.wordpiece(w)]

    def split_specials(self, text):
        # Leftmost match; these five never overlap, so longest is the only one.
        parts, i, start = [], 0, 0
        while i < len(text):
            hit = next((s for s in self.SPECIALS if text.startswith(s, i)), None)
            if hit:
                parts.append(text[start:i])
                parts.append(hit)
                i += len(hit)
                start = i
            else:
                i += 1
        parts.append(text[start:])
        return parts

    def encode(self, text, add_cls_sep=True):
        ids = []
        for part in self.split_specials(text):
            ids.extend([self.vocab[part]] if part in self.SPECIALS else self.encode_ordinary(part))
        return [self.vocab["[CLS]"]] + ids + [self.vocab["[SEP]"]] if add_cls_sep else ids


# ------------------------------------------------------------------- checks
def llama_cpp_pairs(name):
    base = os.path.join(HERE, "llama.cpp", "ggml-vocab-%s.gguf" % name)
    texts = open(base + ".inp", encoding="utf-8").read().split("\n__ggml_vocab_test__\n")
    texts.pop()  # after the last marker
    ids = open(base + ".out", encoding="utf-8").read().split("\n")[:-1]
    assert len(texts) == len(ids), (len(texts), len(ids))
    return [(t, [int(x) for x in line.split()]) for t, line in zip(texts, ids)]


HARD = [
    "Hello world", " Hello world", "Hello, my dog is cute",
    "I'm", "don't", "they'll", "we've", "she'd", "you're", "'S", "'s", "DON'T", "I’m curious",
    "a  b", "a   b", "\t", "a\tb", "a\t\tb", "\n", "\n\n", "a\nb", "a \n b", " \n ", "\r\n", "  leading",
    "trailing  ", "   ", "1234567", "3.14", "-42", "1,000,000", "2024-01-01",
    "🙂", "👍🏽", "👨‍👩‍👧‍👦 family", "🏳️‍🌈", "🇫🇷🇯🇵", "😶‍🌫️", "🦙.cpp",
    "中文字符", "日本語のテキスト", "한국어", "我想在apple工作",
    "café", "naïve", "cafe\u0301", "Ångström", "İstanbul", "ΟΔΥΣΣΕΥΣ", "straße", "ﬁne",
    "مرحبا بالعالم", "שלום עולם", "abc מילה def",
    "Mixed: 3 cafés, 2 🐈 and 中文!", "",
    "Hello<|endoftext|>world", "<|endoftext|>", " <|endoftext|> ", "a<|endoftext|><|endoftext|>b", "<|endoftext",
    "the [MASK] sat on the mat", "[MASK]", "the[MASK]sat", "[mask] [CLS] [SEP] [UNK] [PAD]", "[MASK",
    "x" * 101, "x" * 100, "supercalifragilisticexpialidocious" * 4,
    "control\x00chars\x07here\ufffd", "zero\u200bwidth", "nbsp\u00a0here", "line\u2028sep", "mongolian\u180evs",
    "ideographic\u3000space", "keycap 1\ufe0f\u20e3", "ümlaut ÜMLAUT", "Tab\tand\vvertical\x0c",
    "email@example.com", "C++ & C#", "$100 (approx.) – 50%", "“quotes” «guillemets»", "...", "!!!!!!",
    "The robot moved the box because it was heavy",
]


def main():
    gpt2 = Gpt2(os.path.join(HERE, "gpt2"))
    bert = Bert(os.path.join(HERE, "bert-base-uncased", "vocab.txt"))

    assert gpt2.encode("Hello world") == [15496, 995]
    assert bert.encode("Hello, my dog is cute") == [101, 7592, 1010, 2026, 3899, 2003, 10140, 102]
    for name, tok in (("gpt-2", gpt2), ("bert-bge", bert)):
        pairs = llama_cpp_pairs(name)
        for text, ids in pairs:
            got = tok.encode(text) if name == "gpt-2" else tok.encode(text, add_cls_sep=False)
            assert got == ids, (name, text, got, ids)
        print("%s: agrees with llama.cpp's %d Hugging Face examples" % (name, len(pairs)))

    cased = Bert(os.path.join(HERE, "bert-base-uncased", "vocab.txt"), lower=False)
    out = {
        "gpt2": [{"text": t, "ids": gpt2.encode(t)} for t in HARD],
        "bert": [{"text": t, "ids": bert.encode(t)} for t in HARD],
        # The same vocabulary with do_lower_case false: case and accents stay.
        "bert_cased": [{"text": t, "ids": cased.encode(t)} for t in HARD],
    }
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(out, f, ensure_ascii=True, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
