#pragma once
// Opening a model's tokenizer files. Each loader returns the tokenizer, or
// nothing and one line naming the file and what is wrong with it, e.g.
// "merges.txt: line 7: expected two symbols, got 3". The files are untrusted:
// nothing in them can crash, hang or make a loader allocate without bound.

#include "modeltokenizer.h"

#include <QByteArray>
#include <QString>
#include <memory>

namespace attn {

using TokenizerPtr = std::shared_ptr<const ModelTokenizer>;

// Tokenizer files larger than this are refused before they are read.
constexpr qint64 kMaxTokenizerFileBytes = 64 * 1024 * 1024;

// GPT-2 byte-level BPE: vocab.json (token -> id) and merges.txt (one "a b"
// pair per line, after an optional "#version" line). "<|endoftext|>", when in
// the vocabulary, is the BOS and EOS token and is recognised in the text.
TokenizerPtr parseGpt2Tokenizer(const QByteArray &vocabJson, const QByteArray &mergesTxt, QString *error,
                                const QString &vocabName = QStringLiteral("vocab.json"),
                                const QString &mergesName = QStringLiteral("merges.txt"));

// BERT WordPiece: vocab.txt (one piece per line, id = line number from 0) and
// optionally tokenizer_config.json (`do_lower_case`, default true;
// `strip_accents`; `tokenize_chinese_chars`; `unk_token` … `mask_token`).
// Pass an empty `configJson` when there is no config file.
TokenizerPtr parseBertTokenizer(const QByteArray &vocabTxt, const QByteArray &configJson, QString *error,
                                const QString &vocabName = QStringLiteral("vocab.txt"),
                                const QString &configName = QStringLiteral("tokenizer_config.json"));

// Hugging Face tokenizer.json: model.type "BPE" or "WordPiece" (with the
// BertNormalizer's lowercase, strip_accents and handle_chinese_chars).
// BPE: byte level (a pre-tokenizer ending in ByteLevel, after Split regexes
// or Digits: GPT-2, Llama 3, Qwen, SmolLM) or SentencePiece style (the
// Prepend/Replace normalizers or the Metaspace pre-tokenizer, byte_fallback,
// fuse_unk: Llama 2, Mistral, Gemma, Phi-3); NFC/NFD/NFKC/NFKD normalizers;
// ignore_merges; added_tokens with their lstrip, rstrip, single_word and
// normalized flags. The tokens put around a text (a BOS) follow the
// post_processor and `configJson` (tokenizer_config.json; pass a null array
// when there is none), as transformers decides (tokenizerconfig.cpp).
// Anything else is refused, naming the place: "tokenizer.json:
// pre_tokenizer.pretokenizers[0].type: \"Whitespace\" is not supported (…)".
TokenizerPtr parseTokenizerJson(const QByteArray &json, QString *error,
                                const QString &name = QStringLiteral("tokenizer.json"), const QByteArray &configJson = {},
                                const QString &configName = QStringLiteral("tokenizer_config.json"));

// The same from files; messages name the file by its file name.
TokenizerPtr loadGpt2Tokenizer(const QString &vocabJsonPath, const QString &mergesTxtPath, QString *error);
TokenizerPtr loadBertTokenizer(const QString &vocabTxtPath, const QString &configJsonPath, QString *error);
// `configPath` empty: no tokenizer_config.json.
TokenizerPtr loadTokenizerJson(const QString &path, QString *error, const QString &configPath = QString());

// The tokenizer of a model folder, for config.json's model_type: "gpt2"
// (vocab.json + merges.txt, else tokenizer.json), "bert" (vocab.txt with
// tokenizer_config.json when present, else tokenizer.json), or one of
// kTokenizerJsonModelTypes (tokenizer.json with tokenizer_config.json when
// present; its model must be BPE).
TokenizerPtr loadTokenizerFromFolder(const QString &dir, const QString &modelType, QString *error);
// "llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2", "gemma3_text",
// "gemma3", "phi3".
extern const QStringList kTokenizerJsonModelTypes;

// Reads at most kMaxTokenizerFileBytes; "NAME: what is wrong" on failure.
bool readTokenizerFile(const QString &path, QByteArray *bytes, QString *error);

} // namespace attn
