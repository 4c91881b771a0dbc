#pragma once
// The byte-level BPE tokenizer (vocab.json, merges.txt) of a model trained
// here, so the model's tokens come back from the text exactly: one token per
// symbol of its task, whether the symbol is one byte ("a") or a word (" box").

#include <QByteArray>
#include <QString>
#include <optional>
#include <vector>

namespace attn {

struct ByteLevelTokenizerFiles
{
    QByteArray vocabJson, mergesTxt;
};

// Ids 0 ... symbols - 1 are the symbols, in order. After them come the
// tokens byte-level readers need but the model does not know: every byte
// that is not a symbol, and every partial word the merges pass through. A
// text that needs one is refused by the reader's vocabulary check, naming
// it, instead of being mapped to something else.
//
// A word of several bytes is built by merges from its first byte onwards
// ("Ġ b", "Ġb o", "Ġbo x"). The merges of words that start with a space come
// first: a space occurs only at a word's start, so in such a word its own
// next merge is always the first that applies, and it comes out whole. Then
// the other words' ("T h", "Th e"), which come out whole too if no such
// word's first byte occurs inside another of them (a capital starts each in
// the pronoun task). Symbols that break this, or repeat, are refused with
// one line.
std::optional<ByteLevelTokenizerFiles> byteLevelTokenizerFiles(const std::vector<QByteArray> &symbols,
                                                               QString *error);

} // namespace attn
