#pragma once
// Builds what the Compare dock shows (comparisondata.h) from two traces: the
// selected head of each, their difference when the token counts agree, and
// every head's change. Pure, so the worker runs it and tests check it.

#include "comparisondata.h"
#include "model/forward.h"
#include "tokenizers/modeltokenizer.h"

#include <memory>

struct ComparisonInput
{
    std::shared_ptr<const attn::ModelTrace> a, b;
    QStringList tokensA, tokensB;  // each token's text
    int layerA = 0, headA = 0;     // head -1: the mean of the layer's heads
    int layerB = 0, headB = 0;
    // B is another head of the same run: the grid says how far each head is from A's.
    bool otherHead = false;
    bool causal = false;
    // Every matrix with the first token set aside and its rows renormalised (attn::firstTokenAside).
    bool firstTokenAside = false;
    std::vector<int> windows; // each layer's sliding window (0 or missing: none)
    QString description;
    std::shared_ptr<const attn::ModelTokenizer> tokenizer; // names the predicted tokens; may be null
};

// Throws nothing: a layer or head outside a trace gives an empty matrix there.
ComparisonData buildComparison(const ComparisonInput &input);

// The weights of `head` of `layer` (head -1: the mean over the layer's heads); empty when out of range.
attn::RowMatrix<float> headWeights(const attn::ModelTrace &trace, int layer, int head);
