#include "model/configfields.h"

#include <cmath>

namespace attn {

QString shownJsonValue(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: return QString::number(v.toDouble(), 'g', 12);
    case QJsonValue::String: {
        QString s = v.toString();
        const bool cut = s.size() > 40;
        s = s.left(40);
        for (QChar &c : s)
            if (c.category() == QChar::Other_Control || c.category() == QChar::Separator_Line
                || c.category() == QChar::Separator_Paragraph)
                c = QLatin1Char('?');
        return QLatin1Char('"') + s + (cut ? QStringLiteral("…\"") : QStringLiteral("\""));
    }
    case QJsonValue::Array: return QStringLiteral("a list");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

bool ConfigFields::has(const char *key) const
{
    const QJsonValue v = value(key);
    return !v.isUndefined() && !v.isNull();
}

int ConfigFields::integer(const char *key, int min, int max, std::optional<int> fallback) const
{
    const QJsonValue v = value(key);
    if (v.isUndefined() || v.isNull()) {
        if (fallback)
            return *fallback;
        fail(QStringLiteral("%1 is missing").arg(QLatin1String(key)));
    }
    const double d = v.toDouble();
    if (!v.isDouble() || !std::isfinite(d) || d != std::floor(d))
        fail(QStringLiteral("%1 must be a whole number, got %2").arg(QLatin1String(key), shownJsonValue(v)));
    if (d < min)
        fail(QStringLiteral("%1 %2 must be at least %3").arg(QLatin1String(key), shownJsonValue(v)).arg(min));
    if (d > max)
        fail(QStringLiteral("%1 %2 is more than %3").arg(QLatin1String(key), shownJsonValue(v)).arg(max));
    return int(d);
}

double ConfigFields::positive(const char *key, double max, double fallback) const
{
    const QJsonValue v = value(key);
    if (v.isUndefined() || v.isNull())
        return fallback;
    if (!v.isDouble())
        fail(QStringLiteral("%1 must be a number, got %2").arg(QLatin1String(key), shownJsonValue(v)));
    const double d = v.toDouble();
    if (!(d > 0) || !std::isfinite(d))
        fail(QStringLiteral("%1 %2 must be positive").arg(QLatin1String(key), shownJsonValue(v)));
    if (d > max)
        fail(QStringLiteral("%1 %2 is more than %3").arg(QLatin1String(key), shownJsonValue(v)).arg(max));
    return d;
}

double ConfigFields::positiveOrNone(const char *key, double max) const
{
    return positive(key, max, 0.0);
}

QString ConfigFields::string(const char *key, const QString &fallback) const
{
    const QJsonValue v = value(key);
    if (v.isUndefined() || v.isNull())
        return fallback;
    if (!v.isString())
        fail(QStringLiteral("%1 must be a string, got %2").arg(QLatin1String(key), shownJsonValue(v)));
    return v.toString();
}

bool ConfigFields::boolean(const char *key, bool fallback) const
{
    const QJsonValue v = value(key);
    if (v.isUndefined() || v.isNull())
        return fallback;
    if (!v.isBool())
        fail(QStringLiteral("%1 must be true or false, got %2").arg(QLatin1String(key), shownJsonValue(v)));
    return v.toBool();
}

Activation ConfigFields::activation(const char *key, const QString &fallback) const
{
    const QString name = string(key, fallback);
    if (const auto a = activationFromName(name))
        return *a;
    // shown: a name from the file may hold a line break or be megabytes long.
    fail(QStringLiteral("%1 %2 is not supported (gelu_new, gelu, gelu_pytorch_tanh, gelu_fast, quick_gelu, "
                        "relu, silu)")
             .arg(QLatin1String(key), shownJsonValue(name)));
}

std::optional<QJsonObject> ConfigFields::object(const char *key) const
{
    const QJsonValue v = value(key);
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isObject())
        fail(QStringLiteral("%1 must be an object, got %2").arg(QLatin1String(key), shownJsonValue(v)));
    return v.toObject();
}

} // namespace attn
