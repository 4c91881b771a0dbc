#pragma once
// The walkthrough's steps of rotary positions for a model's layer
// (AttentionResult::rotation set): the chosen query and key before and after
// their turn with each pair's angle, and the point of RoPE in numbers: the
// same two vectors moved together keep their score, moved apart they do not.
// Every number comes from the layer's own q and k, turned back and turned
// again by model/layerrotation.h, as the forward pass turns them. Hand-made
// sessions with rotary positions have their own steps; these follow the
// model's frequencies (rope_scaling, partial rotary, a local base).

#include "lessons/walkthrough.h"

namespace attn {

// The key these steps single out: the one the query weights most among the
// other visible keys (its own key turns by the same angle, which hides the
// lesson), past the first token (often a sink, and a pair whose key stands
// at 0 cannot be moved back); the first token when there is no other, the
// query itself when it sees nothing else.
int rotaryStepKey(const AttentionResult &result, int head, int query);

// What the two steps are about: the layer's result (rotation set), head,
// query and key, and how tokens are named.
struct RotaryStepInput
{
    const AttentionResult &result;
    int head = 0;
    int query = 0;
    int key = 0;
    QStringList queryTokens, keyTokens;
    WalkthroughLimits limits;
};

// "Turn q and k by their positions": q and k before (q̃, k̃), each pair's
// angle and numbers, and q and k after (the layer's own). Line numbers: the
// vectors, and {angle, first, second} for each pair.
WalkthroughStep modelRotationStep(const RotaryStepInput &in);

// "Only the distance counts": the score q̃ and k̃ get at other positions, the
// same distance apart (every line the layer's own score) and with the key
// where it stands (other distances, other scores). Each line's number is its score.
WalkthroughStep modelDistanceStep(const RotaryStepInput &in);

} // namespace attn
