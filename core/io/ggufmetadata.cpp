#include "io/ggufmetadata.h"

#include "io/gguffile.h"
#include "io/tensorinfo.h"

#include <cmath>

namespace attn {

QString GgufFields::key(const char *key) const
{
    return key[0] == '.' ? m_architecture + QLatin1String(key) : QLatin1String(key);
}

bool GgufFields::has(const char *k) const { return m_file.find(key(k)) != nullptr; }

int GgufFields::integer(const char *k, int min, int max, std::optional<int> fallback) const
{
    const QString name = key(k);
    const GgufValue *v = m_file.find(name);
    if (!v) {
        if (fallback)
            return *fallback;
        ConfigFields::fail(QStringLiteral("%1 is missing").arg(name));
    }
    if (!v->isInteger())
        ConfigFields::fail(QStringLiteral("%1 is %2, not an integer").arg(name, ggufTypeName(v->type)));
    if (v->integer < min)
        ConfigFields::fail(QStringLiteral("%1 %2 must be at least %3").arg(name).arg(v->integer).arg(min));
    if (v->integer > max)
        ConfigFields::fail(QStringLiteral("%1 %2 is more than %3").arg(name).arg(v->integer).arg(max));
    return int(v->integer);
}

double GgufFields::positive(const char *k, double max, double fallback) const
{
    const QString name = key(k);
    const GgufValue *v = m_file.find(name);
    if (!v)
        return fallback;
    if (!v->isNumber())
        ConfigFields::fail(QStringLiteral("%1 is %2, not a number").arg(name, ggufTypeName(v->type)));
    const double d = v->isInteger() ? double(v->integer) : v->number;
    if (!(d > 0) || !std::isfinite(d))
        ConfigFields::fail(QStringLiteral("%1 %2 must be positive").arg(name).arg(d));
    if (d > max)
        ConfigFields::fail(QStringLiteral("%1 %2 is more than %3").arg(name).arg(d).arg(max));
    return d;
}

QString GgufFields::string(const char *k, const QString &fallback) const
{
    const QString name = key(k);
    const GgufValue *v = m_file.find(name);
    if (!v)
        return fallback;
    if (v->type != GgufType::String)
        ConfigFields::fail(QStringLiteral("%1 is %2, not a string").arg(name, ggufTypeName(v->type)));
    return v->text;
}

bool GgufFields::boolean(const char *k, bool fallback) const
{
    const QString name = key(k);
    const GgufValue *v = m_file.find(name);
    if (!v)
        return fallback;
    if (v->type != GgufType::Bool)
        ConfigFields::fail(QStringLiteral("%1 is %2, not BOOL").arg(name, ggufTypeName(v->type)));
    return v->integer != 0;
}

int GgufFields::tensorRows(const QString &tensor, int max) const
{
    const GgufTensor *t = m_file.findTensor(tensor);
    if (!t)
        ConfigFields::fail(QStringLiteral("no tensor %1").arg(quotedForMessage(tensor)));
    if (t->dims.size() != 2)
        ConfigFields::fail(QStringLiteral("tensor %1 has %2 dimensions, not 2").arg(quotedForMessage(tensor)).arg(t->dims.size()));
    if (t->dims[1] > max)
        ConfigFields::fail(QStringLiteral("tensor %1 has %2 rows, more than %3").arg(quotedForMessage(tensor)).arg(t->dims[1]).arg(max));
    return int(t->dims[1]);
}

} // namespace attn
