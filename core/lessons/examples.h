#pragma once
// The built-in sessions of the Examples menu: the running example of the
// introductory material and a few variations, each with a one-line reason to open it.

#include "session/session.h"

#include <QString>
#include <vector>

namespace attn {

struct Example
{
    QString id;          // stable file-name stem, e.g. "your-journey-simplified"
    QString title;       // menu text
    QString description; // one sentence: what it shows
    Session session;
};

// Simplified attention (Q = K = V = X) on "Your journey starts with one step"
// with the textbook's 3-dimensional embeddings, query "journey": its context
// vector is (0.4419, 0.6515, 0.5683), so every number can be checked by hand.
// What the window opens on.
Session runningExample();

// In menu order: the running example, trainable weights (seed 123, head_dim 2),
// four heads with a causal mask, cross-attention, a long sentence, rotary
// positions, four heads sharing two key/value heads.
std::vector<Example> builtInExamples();

} // namespace attn
