#include "io/jsonduplicates.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <vector>

namespace attn::detail {
namespace {

struct Frame
{
    bool isObject = false;
    QString key; // this container's key in its parent object
    QSet<QString> keys;
};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The text of a JSON string literal (quotes included), escapes decoded.
QString decode(const QByteArray &literal)
{
    if (!literal.contains('\\'))
        return QString::fromUtf8(literal.mid(1, literal.size() - 2));
    return QJsonDocument::fromJson('[' + literal + ']').array().at(0).toString();
}

} // namespace

std::optional<QStringList> findDuplicateKey(const QByteArray &json)
{
    std::vector<Frame> stack;
    QString pendingKey;
    const qsizetype n = json.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char c = json[i];
        if (c == '"') {
            const qsizetype start = i;
            for (++i; i < n && json[i] != '"'; ++i)
                if (json[i] == '\\')
                    ++i;
            const qsizetype stop = i; // the closing quote
            qsizetype j = i + 1;
            while (j < n && isSpace(json[j]))
                ++j;
            if (j < n && json[j] == ':' && !stack.empty() && stack.back().isObject) {
                const QString key = decode(json.mid(start, stop - start + 1));
                Frame &top = stack.back();
                if (top.keys.contains(key)) {
                    QStringList path;
                    for (std::size_t k = 1; k < stack.size(); ++k)
                        path << stack[k].key;
                    path << key;
                    return path;
                }
                top.keys.insert(key);
                pendingKey = key;
            }
        } else if (c == '{' || c == '[') {
            stack.push_back(Frame{c == '{', pendingKey, {}});
            pendingKey.clear();
        } else if (c == '}' || c == ']') {
            if (!stack.empty())
                stack.pop_back();
        } else if (c == ',') {
            pendingKey.clear();
        }
    }
    return std::nullopt;
}

} // namespace attn::detail
