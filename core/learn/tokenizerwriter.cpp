#include "learn/tokenizerwriter.h"

#include "tokenizers/bytelevel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <set>

namespace attn {
namespace {

QString byteLevel(const QByteArray &bytes)
{
    QString text;
    for (const char b : bytes)
        text.append(QChar(bytelevel::byteToChar(static_cast<unsigned char>(b))));
    return text;
}

QString shown(const QByteArray &symbol)
{
    return QStringLiteral("\"%1\"").arg(byteLevel(symbol));
}

// The vocabulary (byte-level text -> id) and the merges ("a b"), in rank order.
struct Bpe
{
    QJsonObject vocab;
    QStringList merges;
};

std::optional<Bpe> buildBpe(const std::vector<QByteArray> &symbols, int special, QString *error)
{
    // Words that start with a space first, then the others (see the header).
    std::set<QByteArray> seen;
    std::set<char> otherStarts, insideOthers;
    std::vector<const QByteArray *> ordered;
    for (const QByteArray &s : symbols) {
        if (s.isEmpty() || !seen.insert(s).second) {
            *error = QStringLiteral("the task's token %1 is empty or appears twice").arg(shown(s));
            return std::nullopt;
        }
        const bool isSpecial = &s - symbols.data() == special;
        if (!isSpecial && s.size() > 1 && s.indexOf(' ', 1) > 0) {
            *error = QStringLiteral("the task's token %1 has a space inside").arg(shown(s));
            return std::nullopt;
        }
        if (!isSpecial && s.size() > 1 && s.front() == ' ')
            ordered.push_back(&s);
    }
    for (const QByteArray &s : symbols)
        if (&s - symbols.data() != special && s.size() > 1 && s.front() != ' ') {
            ordered.push_back(&s);
            otherStarts.insert(s.front());
            insideOthers.insert(s.begin() + 1, s.end());
        }
    for (const char c : otherStarts)
        if (insideOthers.count(c)) {
            *error = QStringLiteral("the task's words cannot be merged back: %1 starts a word and occurs inside one")
                         .arg(shown(QByteArray(1, c)));
            return std::nullopt;
        }

    Bpe bpe;
    std::set<QByteArray> inVocab;
    int id = 0;
    auto add = [&](const QByteArray &token) {
        if (inVocab.insert(token).second)
            bpe.vocab.insert(byteLevel(token), id++);
    };
    for (const QByteArray &s : symbols)
        add(s);
    for (int b = 0; b < 256; ++b)
        add(QByteArray(1, char(b)));
    std::set<QByteArray> merged;
    for (const QByteArray *s : ordered)
        for (qsizetype k = 1; k < s->size(); ++k) {
            const QByteArray result = s->left(k + 1);
            if (!merged.insert(result).second)
                continue; // a prefix two words share is merged once
            bpe.merges << byteLevel(s->left(k)) + QLatin1Char(' ') + byteLevel(s->mid(k, 1));
            add(result);
        }
    return bpe;
}

} // namespace

std::optional<ByteLevelTokenizerFiles> byteLevelTokenizerFiles(const std::vector<QByteArray> &symbols,
                                                               QString *error, int special)
{
    const std::optional<Bpe> bpe = buildBpe(symbols, special, error);
    if (!bpe)
        return std::nullopt;
    QByteArray merges("#version: 0.2\n");
    for (const QString &m : bpe->merges)
        merges += m.toUtf8() + '\n';
    return ByteLevelTokenizerFiles{QJsonDocument(bpe->vocab).toJson(QJsonDocument::Compact), merges};
}

std::optional<TokenizerJsonFiles> tokenizerJsonFiles(const std::vector<QByteArray> &symbols, int beginning,
                                                     int maxLength, QString *error)
{
    if (beginning < 0 || std::size_t(beginning) >= symbols.size()) {
        *error = QStringLiteral("the task has no beginning token");
        return std::nullopt;
    }
    const std::optional<Bpe> bpe = buildBpe(symbols, beginning, error);
    if (!bpe)
        return std::nullopt;
    const QString bos = QString::fromUtf8(symbols[std::size_t(beginning)]);
    // GPT-2's pre-tokenizer (its regex, no prefix space) and decoder, as its own tokenizer.json has them.
    const QJsonObject byteLevelStep{{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", true},
                                    {"use_regex", true}};
    const QJsonObject bosPiece{{"SpecialToken", QJsonObject{{"id", bos}, {"type_id", 0}}}};
    auto sequence = [](const char *id, int type) {
        return QJsonObject{{"Sequence", QJsonObject{{"id", id}, {"type_id", type}}}};
    };
    const QJsonObject postProcessor{
        {"type", "TemplateProcessing"},
        {"single", QJsonArray{bosPiece, sequence("A", 0)}},
        {"pair", QJsonArray{bosPiece, sequence("A", 0), bosPiece, sequence("B", 1)}},
        {"special_tokens", QJsonObject{{bos, QJsonObject{{"id", bos}, {"ids", QJsonArray{beginning}},
                                                         {"tokens", QJsonArray{bos}}}}}}};
    const QJsonObject model{{"type", "BPE"},          {"dropout", QJsonValue()},   {"unk_token", QJsonValue()},
                            {"continuing_subword_prefix", QJsonValue()},         {"end_of_word_suffix", QJsonValue()},
                            {"fuse_unk", false},      {"byte_fallback", false},    {"ignore_merges", false},
                            {"vocab", bpe->vocab},    {"merges", QJsonArray::fromStringList(bpe->merges)}};
    const QJsonObject addedToken{{"id", beginning},     {"content", bos},        {"single_word", false},
                                 {"lstrip", false},     {"rstrip", false},       {"normalized", false},
                                 {"special", true}};
    const QJsonObject tokenizer{{"version", "1.0"},
                                {"truncation", QJsonValue()},
                                {"padding", QJsonValue()},
                                {"added_tokens", QJsonArray{addedToken}},
                                {"normalizer", QJsonValue()},
                                {"pre_tokenizer", byteLevelStep},
                                {"post_processor", postProcessor},
                                {"decoder", byteLevelStep},
                                {"model", model}};
    const QJsonObject config{{"tokenizer_class", "PreTrainedTokenizerFast"},
                             {"bos_token", bos},
                             {"eos_token", QJsonValue()},
                             {"add_bos_token", true},
                             {"add_eos_token", false},
                             {"clean_up_tokenization_spaces", false},
                             {"model_max_length", maxLength},
                             {"added_tokens_decoder",
                              QJsonObject{{QString::number(beginning),
                                           QJsonObject{{"content", bos}, {"lstrip", false}, {"normalized", false},
                                                       {"rstrip", false}, {"single_word", false}, {"special", true}}}}}};
    return TokenizerJsonFiles{QJsonDocument(tokenizer).toJson(QJsonDocument::Indented),
                              QJsonDocument(config).toJson(QJsonDocument::Indented)};
}

} // namespace attn
