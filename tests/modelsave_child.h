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

// One byte per token, "A" onwards.
inline std::vector<QByteArray> childSymbols()
{
    std::vector<QByteArray> symbols;
    for (int i = 0; i < 32; ++i)
        symbols.push_back(QByteArray(1, char('A' + i)));
    return symbols;
}

inline bool saveChildModel(std::uint64_t seed, const QString &dir, QString *error)
{
    const QJsonObject training{{"seed", QString::number(seed)}};
    return attn::saveModelFolder(attn::Trainer::initialModel(saveChildConfig(), seed), childSymbols(), training, dir,
                                 error);
}
