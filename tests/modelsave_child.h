#pragma once
// What modelsave_child saves and tst_modelsave checks against: a GPT-2 large
// enough that a save takes a while (so kills land inside one), its weights
// and config.json fixed by a seed, so any folder on disk can be compared byte
// for byte with a fresh save of the seed it names.

#include "learn/modelwriter.h"
#include "learn/trainer.h"

#include <QJsonObject>

inline attn::ModelConfig saveChildConfig()
{
    attn::TrainerSettings s;
    s.layers = 2, s.heads = 4, s.dModel = 256, s.context = 64;
    return attn::Trainer::configFor(s, 32);
}

inline bool saveChildModel(std::uint64_t seed, const QString &dir, QString *error)
{
    std::vector<unsigned char> symbols;
    for (int i = 0; i < 32; ++i)
        symbols.push_back(static_cast<unsigned char>('A' + i));
    const QJsonObject training{{"seed", QString::number(seed)}};
    return attn::saveModelFolder(attn::Trainer::initialModel(saveChildConfig(), seed), symbols, training, dir, error);
}
