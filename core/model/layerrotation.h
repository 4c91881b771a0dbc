#pragma once
// How one layer of a model turned its queries and keys by position (rotary
// position embedding, model/rotary.h), kept with the layer's view
// (AttentionResult::rotation) so the walkthrough can turn a pair back, name
// each pair's angle, and turn the same two vectors to other positions: the
// point of RoPE is that their score then depends only on how far apart they stand.

#include "model/modelconfig.h"
#include "model/modeltypes.h"

#include <optional>
#include <vector>

namespace attn {

struct LayerRotation
{
    int headDim = 0;
    // The first `dimensions` values of each head turn (partial rotary: fewer
    // than headDim; the rest pass through), in the rotate-half pairing:
    // pair i is (x[i], x[i + dimensions/2]).
    int dimensions = 0;
    std::vector<float> frequencies; // one per pair, as the forward pass used them (scaling included)
    double theta = 0;               // the base of this layer's angles (Gemma 3's local one on a windowed layer)
    RopeScaling scaling = RopeScaling::None; // how the frequencies were stretched (none on a local layer)
    double factor = 1.0;

    int pairs() const { return dimensions / 2; }
    // The dimension turned with dimension `pair` (pair < pairs()).
    int partnerOf(int pair) const { return pair + dimensions / 2; }
};

// The rotation layer `layer` of `config` applies, as forward() applies it;
// nothing for a model with learned positions.
std::optional<LayerRotation> layerRotation(const ModelConfig &config, int layer);

// The angle pair `pair` turns by at `position`, in radians (in float, as the pass computes it).
double rotaryAngleAt(const LayerRotation &rotation, int pair, Eigen::Index position);

// One head's vector (headDim values, before any rotation) turned as if it
// stood at `position`, as the forward pass turns it.
RowVector<float> rotatedTo(const LayerRotation &rotation, const VectorIn<float> &vector, Eigen::Index position);

// A vector the pass turned at `position`, turned back: what it was before.
RowVector<float> rotatedBackFrom(const LayerRotation &rotation, const VectorIn<float> &vector, Eigen::Index position);

// The raw score q.k of a query and a key given before rotation, were they
// standing at queryAt and keyAt. At their own positions it is the layer's
// score; moved together by any number of places it stays the same.
double rotaryScoreAt(const LayerRotation &rotation, const VectorIn<float> &query, const VectorIn<float> &key,
                     Eigen::Index queryAt, Eigen::Index keyAt);

} // namespace attn
