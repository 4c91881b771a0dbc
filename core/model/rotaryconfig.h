#pragma once
// How a model rotates q and k by position (model/rotary.h), as its config says.

#include <vector>

namespace attn {

// How a rotary embedding stretches its frequencies (transformers' rope_scaling).
enum class RopeScaling { None, Linear, Llama3 };

struct RotaryConfig
{
    double theta = 10000.0;
    // Of each head's dimensions, the first `dimensions` are rotated
    // (head_dim * partial_rotary_factor), in the rotate-half pairing: pair i
    // is (x[i], x[i + dimensions/2]).
    int dimensions = 0;
    RopeScaling scaling = RopeScaling::None;
    double factor = 1.0;            // linear and llama3
    double lowFrequencyFactor = 1.0;  // llama3
    double highFrequencyFactor = 4.0; // llama3
    int originalPositions = 8192;     // llama3: original_max_position_embeddings
    // Gemma 3's layers with a sliding window rotate with their own base
    // (rope_local_base_freq) and no scaling; 0: every layer uses `theta`.
    double localTheta = 0.0;
    // GGUF's rope_freqs (Llama 3.1's scaling, precomputed by llama.cpp's
    // converter): frequency i is divided by factor i. Empty: none.
    std::vector<float> frequencyFactors;
};

} // namespace attn
