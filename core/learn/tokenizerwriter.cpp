#include "learn/tokenizerwriter.h"

#include "tokenizers/bytelevel.h"

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

} // namespace

std::optional<ByteLevelTokenizerFiles> byteLevelTokenizerFiles(const std::vector<QByteArray> &symbols,
                                                               QString *error)
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
        if (s.size() > 1 && s.indexOf(' ', 1) > 0) {
            *error = QStringLiteral("the task's token %1 has a space inside").arg(shown(s));
            return std::nullopt;
        }
        if (s.size() > 1 && s.front() == ' ')
            ordered.push_back(&s);
    }
    for (const QByteArray &s : symbols)
        if (s.size() > 1 && s.front() != ' ') {
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

    QJsonObject vocab;
    std::set<QByteArray> inVocab;
    int id = 0;
    auto add = [&](const QByteArray &token) {
        if (inVocab.insert(token).second)
            vocab.insert(byteLevel(token), id++);
    };
    for (const QByteArray &s : symbols)
        add(s);
    for (int b = 0; b < 256; ++b)
        add(QByteArray(1, char(b)));
    QByteArray merges("#version: 0.2\n");
    std::set<QByteArray> merged;
    for (const QByteArray *s : ordered)
        for (qsizetype k = 1; k < s->size(); ++k) {
            const QByteArray result = s->left(k + 1);
            if (!merged.insert(result).second)
                continue; // a prefix two words share is merged once
            merges += byteLevel(s->left(k)).toUtf8() + ' ' + byteLevel(s->mid(k, 1)).toUtf8() + '\n';
            add(result);
        }
    return ByteLevelTokenizerFiles{QJsonDocument(vocab).toJson(QJsonDocument::Compact), merges};
}

} // namespace attn
