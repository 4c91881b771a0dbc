// The registry of model families: one line a family.
#include "model/families/family.h"

#include <QStringList>

namespace attn {

const FamilyDescription &gpt2Family();
const FamilyDescription &bertFamily();
const FamilyDescription &llamaFamily();
const FamilyDescription &mistralFamily();
const FamilyDescription &qwen2Family();
const FamilyDescription &qwen3Family();
const FamilyDescription &gemmaFamily();
const FamilyDescription &gemma2Family();
const FamilyDescription &gemma3Family();
const FamilyDescription &phi3Family();

const std::vector<const FamilyDescription *> &modelFamilies()
{
    static const std::vector<const FamilyDescription *> families{
        &gpt2Family(),  &bertFamily(),   &llamaFamily(),  &mistralFamily(), &qwen2Family(),
        &qwen3Family(), &gemmaFamily(),  &gemma2Family(), &gemma3Family(),  &phi3Family(),
    };
    return families;
}

const FamilyDescription *findFamily(const QString &modelType)
{
    for (const FamilyDescription *family : modelFamilies())
        if (modelType == QLatin1String(family->modelType))
            return family;
    return nullptr;
}

const FamilyDescription *findGgufFamily(const QString &architecture)
{
    for (const FamilyDescription *family : modelFamilies())
        if (family->ggufArchitecture && architecture == QLatin1String(family->ggufArchitecture))
            return family;
    return nullptr;
}

QString ggufArchitectureNames()
{
    QStringList names;
    for (const FamilyDescription *family : modelFamilies())
        if (family->ggufArchitecture)
            names << QLatin1String(family->ggufArchitecture);
    return names.join(QStringLiteral(", "));
}

QString familyNames()
{
    QStringList names;
    for (const FamilyDescription *family : modelFamilies())
        names << QLatin1String(family->modelType);
    return names.join(QStringLiteral(", "));
}

} // namespace attn
