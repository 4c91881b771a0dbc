#pragma once
// The `pronoun` training task: short English sentences, one word per token,
// that end with a pronoun and a verb only its noun does ("The girl passed
// the red box and it fell." / "... and she waved."). Which noun the pronoun
// stands for is given by its kind: "it" the thing, "he" or "she" the person;
// the two nouns come in either order, with a varying number of words before,
// between and after them, so no fixed distance finds the noun. To predict the
// verb a head at the pronoun has to attend to its noun and bring its identity
// along: the link from "it" to "box" that the teaching material describes.

#include "runtime/prng.h"

#include <QByteArray>
#include <vector>

namespace attn::pronoun {

// The task's tokens, each the bytes of its text as GPT-2's pre-tokenizer cuts
// them: words with their leading space (" box"), sentence starts without
// (" The" and "The"), "," and "." alone. Every word of more than one byte
// begins with a space or a capital, which never occurs inside a word, so a
// byte-level BPE can build each word with merges that fire only at its start.
const std::vector<QByteArray> &vocabulary();

// The number of verbs a pronoun can be followed by (the chance level of the
// counted predictions is 1 / this).
int ownVerbCount();

// Fills `sequence` with sentences one after another (the last cut off where
// the sequence ends) and marks in `counts` the tokens that can be predicted:
// the verb after each pronoun.
void fillSentences(SplitMix64 &rng, std::vector<int> &sequence, std::vector<float> &counts);

} // namespace attn::pronoun
