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

// Hugging Face tokenizer.json: model.type "BPE" (with the ByteLevel
// pre-tokenizer, as GPT-2) or "WordPiece" (with the BertNormalizer's
// lowercase, strip_accents and handle_chinese_chars); added_tokens are
// recognised in the text.
TokenizerPtr parseTokenizerJson(const QByteArray &json, QString *error,
                                const QString &name = QStringLiteral("tokenizer.json"));

// The same from files; messages name the file by its file name.
TokenizerPtr loadGpt2Tokenizer(const QString &vocabJsonPath, const QString &mergesTxtPath, QString *error);
TokenizerPtr loadBertTokenizer(const QString &vocabTxtPath, const QString &configJsonPath, QString *error);
TokenizerPtr loadTokenizerJson(const QString &path, QString *error);

// The tokenizer of a model folder, for config.json's model_type "gpt2"
// (vocab.json + merges.txt, else tokenizer.json) or "bert" (vocab.txt with
// tokenizer_config.json when present, else tokenizer.json).
TokenizerPtr loadTokenizerFromFolder(const QString &dir, const QString &modelType, QString *error);

// Reads at most kMaxTokenizerFileBytes; "NAME: what is wrong" on failure.
bool readTokenizerFile(const QString &path, QByteArray *bytes, QString *error);

} // namespace attn
