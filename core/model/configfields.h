#pragma once
// Reading config.json's fields for the model families (model/families/):
// each getter checks type and range and throws ConfigError with one line
// naming the field, so a family's reader is a list of fields and defaults.

#include "model/modelconfig.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <optional>

namespace attn {

struct ConfigError
{
    QString message;
};

// A JSON value as a message quotes it: short, on one line.
QString shownJsonValue(const QJsonValue &v);

class ConfigFields
{
public:
    explicit ConfigFields(const QJsonObject &object) : m_object(object) {}

    [[noreturn]] static void fail(const QString &message) { throw ConfigError{message}; }

    // Present and not null.
    bool has(const char *key) const;
    QJsonValue value(const char *key) const { return m_object.value(QLatin1String(key)); }

    // A whole number in [min, max]; `fallback` when absent or null, if given.
    int integer(const char *key, int min, int max, std::optional<int> fallback = std::nullopt) const;
    // A number in (0, max]; `fallback` when absent or null.
    double positive(const char *key, double max, double fallback) const;
    // A number in (0, max], or 0 (none) when absent or null.
    double positiveOrNone(const char *key, double max) const;
    QString string(const char *key, const QString &fallback) const;
    bool boolean(const char *key, bool fallback) const;
    Activation activation(const char *key, const QString &fallback) const;
    // An object field (rope_scaling); nothing when absent or null.
    std::optional<QJsonObject> object(const char *key) const;

private:
    const QJsonObject &m_object;
};

} // namespace attn
