#pragma once
// A fast reading of tokenizer.json's two large fields, model.vocab and
// model.merges (Qwen's: 151,643 tokens and 151,387 merges, 11 MB), without
// building a QJsonValue for each (internal to core/tokenizers). Qt's parser
// then reads the rest with those two fields emptied. Anything unusual (an
// escape that makes a lone surrogate, a token listed twice, an id that is not
// a plain integer, malformed JSON) makes the scan give up, and Qt's parser
// reads the whole file, whose checks name the problem.

#include "tokenizerparsing.h"

#include <QByteArray>
#include <vector>

namespace attn::tokenizerparsing {

struct ScannedModel
{
    std::vector<VocabEntry> vocab;
    std::vector<MergeText> merges;
    // The file with model.vocab as {} and model.merges as [].
    QByteArray rest;
};

bool scanTokenizerJson(const QByteArray &json, ScannedModel *out);

} // namespace attn::tokenizerparsing
