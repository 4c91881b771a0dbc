#pragma once
// A safetensors checkpoint (one file, or the shards of an index) as a
// TensorSource: F32 tensors mapped in place, F16 and BF16 ones left in the
// mapping and converted a band at a time when used.

#include "model/tensorsource.h"

namespace attn {

class SafetensorsFile;
struct ShardedCheckpoint;

class SafetensorsSource final : public TensorSource
{
public:
    // The source keeps neither object: they must outlive it (the weights it
    // gives keep their mapping alive on their own).
    explicit SafetensorsSource(const SafetensorsFile &file);
    SafetensorsSource(const ShardedCheckpoint &checkpoint, QString name);

    QString name() const override { return m_name; }
    bool has(const QString &tensor) const override;
    WeightMatrix matrix(const QString &tensor, Eigen::Index rows, Eigen::Index cols) const override;
    WeightVector vector(const QString &tensor, Eigen::Index size) const override;
    QString storedType() const override;

private:
    const SafetensorsFile &fileOf(const QString &tensor) const;

    QString m_name;
    const SafetensorsFile *m_single = nullptr;
    const ShardedCheckpoint *m_sharded = nullptr;
};

} // namespace attn
