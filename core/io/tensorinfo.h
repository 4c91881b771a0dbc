#pragma once
// What a safetensors header says about one tensor: element type, shape and
// where its bytes are (huggingface/safetensors, safetensors/src/tensor.rs).

#include <QString>
#include <QtGlobal>
#include <optional>
#include <vector>

namespace attn {

// The element types of the safetensors format, in the reference's order
// (increasing alignment; its writer sorts tensors by this order, descending).
enum class Dtype {
    BOOL, U8, I8, F8_E5M2, F8_E4M3, I16, U16, F16, BF16, I32, U32, F32, F64, I64, U64
};

// "F32", "BF16", ... as written in the header.
QString dtypeName(Dtype dtype);
// Bytes per element.
int dtypeSize(Dtype dtype);
// The dtype spelled exactly `name` (case-sensitive, as the reference), if any.
std::optional<Dtype> dtypeFromName(const QString &name);
// F16, BF16, F32 and F64 can be read as floats (SafetensorsFile::toFloat).
bool isFloatingDtype(Dtype dtype);

struct TensorInfo
{
    QString name;
    Dtype dtype = Dtype::F32;
    std::vector<qint64> shape; // row-major (C order), may be empty for a scalar
    qint64 elements = 0;       // product of shape (1 for a scalar)
    qint64 begin = 0;          // byte offsets [begin, end) into the data buffer,
    qint64 end = 0;            // which starts right after the header

    int rank() const { return int(shape.size()); }
    qint64 byteCount() const { return end - begin; }
};

// "[4, 12]": a shape as the messages show it.
QString shapeText(const std::vector<qint64> &shape);

// A name from a file inside a one-line message: in double quotes, at most 80
// characters, control characters and line breaks shown as \uXXXX.
QString quotedForMessage(const QString &text);

} // namespace attn
