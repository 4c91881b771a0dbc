#include "model/layerrotation.h"

#include "model/rotary.h"

#include <stdexcept>

namespace attn {
namespace {

RowMatrix<float> oneRow(const LayerRotation &rotation, const VectorIn<float> &vector)
{
    if (vector.size() != rotation.headDim)
        throw std::invalid_argument("layer rotation: a vector of one head's width is needed");
    return vector;
}

} // namespace

std::optional<LayerRotation> layerRotation(const ModelConfig &config, int layer)
{
    if (config.positionKind != PositionKind::Rotary || config.rotary.dimensions < 2)
        return std::nullopt;
    // Gemma 3's windowed layers turn with their own base and no scaling (as forward() decides).
    const bool local = config.windowOf(layer) > 0 && config.rotary.localTheta > 0;
    LayerRotation r;
    r.headDim = config.headDim();
    r.dimensions = config.rotary.dimensions;
    r.frequencies = rotaryFrequencies(config.rotary, config.windowOf(layer) > 0);
    r.theta = local ? config.rotary.localTheta : config.rotary.theta;
    r.scaling = local ? RopeScaling::None : config.rotary.scaling;
    r.factor = local ? 1.0 : config.rotary.factor;
    return r;
}

double rotaryAngleAt(const LayerRotation &rotation, int pair, Eigen::Index position)
{
    return double(rotaryAngle(rotation.frequencies, pair, position));
}

RowVector<float> rotatedTo(const LayerRotation &rotation, const VectorIn<float> &vector, Eigen::Index position)
{
    RowMatrix<float> x = oneRow(rotation, vector);
    applyRotary(x, 1, rotation.headDim, rotation.dimensions, rotation.frequencies, position);
    return x.row(0);
}

RowVector<float> rotatedBackFrom(const LayerRotation &rotation, const VectorIn<float> &vector, Eigen::Index position)
{
    RowMatrix<float> x = oneRow(rotation, vector);
    undoRotary(x, 1, rotation.headDim, rotation.dimensions, rotation.frequencies, position);
    return x.row(0);
}

double rotaryScoreAt(const LayerRotation &rotation, const VectorIn<float> &query, const VectorIn<float> &key,
                     Eigen::Index queryAt, Eigen::Index keyAt)
{
    // In double from the turned floats: the products are what the pass sums.
    return rotatedTo(rotation, query, queryAt).cast<double>().dot(rotatedTo(rotation, key, keyAt).cast<double>());
}

} // namespace attn
