#pragma once
// The byte-level BPE tokenizer (vocab.json, merges.txt) of a model trained
// here, so the model's tokens come back from the text exactly: one token per
// symbol of its task, whether the symbol is one byte ("a") or a word (" box").

#include <QByteArray>
#include <QString>
#include <QStringList>
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
//
// `special` (an id, or -1) is a token such as kBeginningOfText: written to the
// vocabulary under its text at its id, with no merges (readers take it whole,
// as an added token).
std::optional<ByteLevelTokenizerFiles> byteLevelTokenizerFiles(const std::vector<QByteArray> &symbols,
                                                               QString *error, int special = -1);

struct TokenizerJsonFiles
{
    QByteArray tokenizerJson, tokenizerConfigJson;
};

// The same vocabulary and merges as Hugging Face tokenizer.json (a BPE model
// behind GPT-2's ByteLevel pre-tokenizer, as Llama 3's byte-level BPE), with
// `beginning` (an id of `symbols`) an added special token that the
// post-processor puts before every text, as Llama tokenizers add their BOS;
// and tokenizer_config.json naming it the bos_token (no EOS: the tasks have
// none). `maxLength`: the model's positions, tokenizer_config's model_max_length.
std::optional<TokenizerJsonFiles> tokenizerJsonFiles(const std::vector<QByteArray> &symbols, int beginning,
                                                     int maxLength, QString *error);

} // namespace attn
