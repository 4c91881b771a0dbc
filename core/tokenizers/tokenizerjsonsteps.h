#pragma once
// tokenizer.json's normalizer, pre-tokenizer and post-processor, read into
// the tokenizer's steps (internal to core/tokenizers). Each returns false
// with "NAME: PATH: what is wrong" naming the place in the file.

#include "bpetokenizer.h"
#include "pretokenizer.h"
#include "textnormalizer.h"
#include "tokenizerparsing.h"

#include <QHash>
#include <QJsonValue>
#include <optional>
#include <vector>

namespace attn::tokenizerparsing {

bool readNormalizer(const JsonContext &c, const QJsonValue &v, const QString &path, TextNormalizer *out);
bool readPreTokenizer(const JsonContext &c, const QJsonValue &v, const QString &path, PreTokenizer *out);

// The post-processor's template for one text: the ids put before and after it.
struct PostTemplate
{
    std::vector<int> prefix;
    std::vector<int> suffix;
};
bool readPostProcessor(const JsonContext &c, const QJsonValue &v, const QString &path, int vocabSize, PostTemplate *out);

// What tokenizer_config.json says about the tokens around a text.
struct TokenizerConfigFile
{
    bool present = false;
    QString name;
    std::optional<bool> addBos; // add_bos_token, when the file has it
    std::optional<bool> addEos;
    QString bos, eos, pad;      // bos_token … (a string or {"content": …}); empty: none
    QString tokenizerClass;
};
bool readTokenizerConfig(const QByteArray &json, const QString &name, TokenizerConfigFile *out, QString *error);

// Decides the tokens around the text and the special ids, as transformers
// does: see tokenizerconfig.cpp.
bool applyTokenizerConfig(const TokenizerConfigFile &config, const QHash<QString, int> &ids, const PostTemplate &fromJson,
                          TokenizerSteps *steps, QString *error);

} // namespace attn::tokenizerparsing
