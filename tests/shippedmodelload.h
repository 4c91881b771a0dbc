#pragma once
// Loads a model folder shipped in resources/examples/models with its
// tokenizer, as the tests of the shipped models start.

#include "model/modelloader.h"
#include "tokenizers/tokenizerloader.h"

#include <QTest>

// In a test slot: fails it unless both load.
#define ATTN_LOAD_SHIPPED(folder, model, tokenizer)                                                                 \
    do {                                                                                                             \
        QString loadError;                                                                                           \
        (model) = attn::loadModel((folder), &loadError);                                                             \
        QVERIFY2((model), qPrintable(loadError));                                                                    \
        (tokenizer) = attn::loadTokenizerFromFolder((folder), (model)->config.modelType, &loadError);                \
        QVERIFY2((tokenizer), qPrintable(loadError));                                                                \
    } while (false)
