#pragma once
// Writing safetensors files that Hugging Face's reader accepts: the layout of
// the reference serializer (safetensors/src/tensor.rs `prepare`): tensors
// sorted by dtype (widest first) then name, data contiguous from offset 0,
// compact JSON header padded with spaces to a multiple of 8 bytes.

#include "io/safetensorsfile.h"
#include "io/tensorinfo.h"

#include <Eigen/Core>
#include <QByteArray>
#include <QMap>
#include <QString>
#include <vector>

class QIODevice;

namespace attn {

struct TensorToWrite
{
    QString name;
    std::vector<qint64> shape;
    std::vector<float> values; // row-major, product(shape) of them, all finite
    Dtype dtype = Dtype::F32;  // F32, F16, BF16 or F64; F16/BF16 round to nearest even

    static TensorToWrite fromMatrix(const QString &name, const Eigen::Ref<const RowMatrixXf> &m, Dtype dtype = Dtype::F32);
    static TensorToWrite fromVector(const QString &name, const Eigen::Ref<const Eigen::VectorXf> &v, Dtype dtype = Dtype::F32);
};

// The whole file in memory (tests, small models). On a bad tensor (values
// not matching the shape, a non-finite value, a repeated or reserved name,
// an unwritable dtype) returns an empty array and one line in `error`.
QByteArray serializeSafetensors(const std::vector<TensorToWrite> &tensors, const QMap<QString, QString> &metadata,
                                QString *error);

// Streams the file to `path` atomically (QSaveFile): on any failure the old
// file is left as it was. `metadata` becomes "__metadata__" unless empty.
bool writeSafetensors(const QString &path, const std::vector<TensorToWrite> &tensors,
                      const QMap<QString, QString> &metadata, QString *error);

} // namespace attn
