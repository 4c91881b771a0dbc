#pragma once
// The edits the crashing child makes, shared with the test that checks them.

#include "document.h"

inline void applyRecoveryEdits(Document &document)
{
    document.setSentence(QStringLiteral("Your long journey starts with one step"));
    document.setEmbeddingValue(2, 1, -1.37, /*dragId=*/0);
    document.setEmbeddingValue(2, 1, -1.41, /*dragId=*/0);
    attn::AttentionConfig config = document.session().attention;
    config.causal = true;
    config.heads = 3;
    config.headDim = 2;
    config.outputProjection = true;
    document.setAttention(config);
    document.setQuery(3);
}
