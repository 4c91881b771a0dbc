#include "io/tensorinfo.h"

#include <QStringList>
#include <array>

namespace attn {
namespace {

struct DtypeFacts
{
    Dtype dtype;
    const char *name;
    int size;
};

constexpr std::array<DtypeFacts, 15> kDtypes{{
    {Dtype::BOOL, "BOOL", 1}, {Dtype::U8, "U8", 1},           {Dtype::I8, "I8", 1},
    {Dtype::F8_E5M2, "F8_E5M2", 1}, {Dtype::F8_E4M3, "F8_E4M3", 1}, {Dtype::I16, "I16", 2},
    {Dtype::U16, "U16", 2},   {Dtype::F16, "F16", 2},         {Dtype::BF16, "BF16", 2},
    {Dtype::I32, "I32", 4},   {Dtype::U32, "U32", 4},         {Dtype::F32, "F32", 4},
    {Dtype::F64, "F64", 8},   {Dtype::I64, "I64", 8},         {Dtype::U64, "U64", 8},
}};

const DtypeFacts &facts(Dtype dtype) { return kDtypes[std::size_t(dtype)]; }

} // namespace

QString dtypeName(Dtype dtype) { return QString::fromLatin1(facts(dtype).name); }

int dtypeSize(Dtype dtype) { return facts(dtype).size; }

std::optional<Dtype> dtypeFromName(const QString &name)
{
    for (const DtypeFacts &f : kDtypes)
        if (name == QLatin1String(f.name))
            return f.dtype;
    return std::nullopt;
}

bool isFloatingDtype(Dtype dtype)
{
    return dtype == Dtype::F16 || dtype == Dtype::BF16 || dtype == Dtype::F32 || dtype == Dtype::F64;
}

QString shapeText(const std::vector<qint64> &shape)
{
    QStringList parts;
    for (const qint64 d : shape)
        parts << QString::number(d);
    return QLatin1Char('[') + parts.join(QLatin1String(", ")) + QLatin1Char(']');
}

} // namespace attn
