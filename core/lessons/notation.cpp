#include "lessons/notation.h"

#include <QCoreApplication>
#include <QHash>
#include <cmath>

namespace attn {

QString formatNumber(double value, int decimals)
{
    if (!std::isfinite(value) || std::abs(value) >= 1e6)
        return QString::number(value, 'g', 4).replace(QLatin1Char('-'), QChar(0x2212));
    QString text = QString::number(value, 'f', decimals);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    if (text == QLatin1String("-0"))
        return QStringLiteral("0");
    return text.replace(QLatin1Char('-'), QChar(0x2212));
}

QString formatFixed(double value, int decimals)
{
    if (!std::isfinite(value) || std::abs(value) >= 1e5)
        return QString::number(value, 'g', 4).replace(QLatin1Char('-'), QChar(0x2212));
    QString text = QString::number(value, 'f', decimals);
    if (text.startsWith(QLatin1Char('-'))) {
        const bool allZero = text.count(QLatin1Char('0')) == text.size() - 1 - (decimals > 0 ? 1 : 0);
        text = allZero ? text.mid(1) : QChar(0x2212) + text.mid(1);
    }
    return text;
}

QString formatVector(const std::vector<double> &values, int maxTerms, int decimals)
{
    QStringList parts;
    for (std::size_t i = 0; i < values.size() && int(i) < maxTerms; ++i)
        parts << formatFixed(values[i], decimals);
    if (int(values.size()) > maxTerms)
        parts << QCoreApplication::translate("Walkthrough", "… (+%1 more)").arg(int(values.size()) - maxTerms);
    return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
}

QString subscriptDigits(const QString &digits)
{
    QString out;
    for (QChar ch : digits)
        out += ch.isDigit() ? QChar(0x2080 + ch.digitValue()) : ch;
    return out;
}

QString superscriptIndex(int index)
{
    static const QChar sup[10] = {QChar(0x2070), QChar(0x00B9), QChar(0x00B2), QChar(0x00B3), QChar(0x2074),
                                  QChar(0x2075), QChar(0x2076), QChar(0x2077), QChar(0x2078), QChar(0x2079)};
    QString out(QChar(0x207D));
    for (QChar ch : QString::number(index))
        out += sup[ch.digitValue()];
    return out + QChar(0x207E);
}

QString tokenLabel(const QStringList &tokens, int index)
{
    if (index < 0 || index >= tokens.size())
        return QString();
    const QString &text = tokens.at(index);
    if (tokens.count(text) < 2)
        return text;
    return text + subscriptDigits(QString::number(index));
}

QStringList tokenLabels(const QStringList &tokens)
{
    QHash<QString, int> counts;
    for (const QString &t : tokens)
        ++counts[t];
    QStringList labels;
    labels.reserve(tokens.size());
    for (int i = 0; i < tokens.size(); ++i)
        labels << (counts.value(tokens.at(i)) > 1 ? tokens.at(i) + subscriptDigits(QString::number(i)) : tokens.at(i));
    return labels;
}

QString headName(int head)
{
    return QCoreApplication::translate("Notation", "head %1").arg(head);
}

QString layerHeadName(int layer, int head)
{
    return QStringLiteral("L%1H%2").arg(layer).arg(head);
}

} // namespace attn
