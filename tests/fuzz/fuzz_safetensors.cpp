// libFuzzer target: the safetensors reader. Any bytes must give either a file
// whose every tensor lies inside the data, tiles it, and converts (or is
// refused with a message naming it), or a one-line error naming the file.
// Never a crash, an out-of-bounds read or an allocation the header claims.

#include "io/safetensorsfile.h"
#include "io/safetensorswriter.h"

#include <QByteArray>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    QString error;
    const std::optional<attn::SafetensorsFile> file =
        attn::SafetensorsFile::fromBytes(bytes, QStringLiteral("fuzz.safetensors"), &error);
    if (!file) {
        if (!error.startsWith(QLatin1String("fuzz.safetensors: ")) || error.contains(QLatin1Char('\n')))
            std::abort();
        return 0;
    }
    const qint64 dataSize = qint64(size) - 8 - file->headerLength();
    qint64 expected = 0;
    std::vector<attn::TensorToWrite> again;
    for (const attn::TensorInfo &t : file->tensors()) {
        if (t.begin != expected || t.end > dataSize || file->find(t.name) != &t)
            std::abort();
        expected = t.end;
        // The tensor's size is bounded by the input, so converting it is safe.
        std::vector<float> values(std::size_t(t.elements));
        QString why;
        if (file->toFloat(t, values.data(), &why)) {
            for (const float v : values)
                if (!std::isfinite(v))
                    std::abort();
            again.push_back({t.name, t.shape, std::move(values), attn::Dtype::F32});
        } else if (!why.startsWith(QLatin1String("fuzz.safetensors: tensor ")) || why.contains(QLatin1Char('\n'))) {
            std::abort();
        }
    }
    if (expected != dataSize)
        std::abort();
    // What converted writes back as a file the reader accepts (names that are
    // not valid Unicode, from lone \uD800 escapes, are refused by the writer).
    QString writeError;
    const QByteArray written = attn::serializeSafetensors(again, file->metadata(), &writeError);
    if (written.isEmpty() && !writeError.endsWith(QLatin1String("is not valid Unicode")))
        std::abort();
    if (!written.isEmpty() && !attn::SafetensorsFile::fromBytes(written, QStringLiteral("x"), &writeError))
        std::abort();
    return 0;
}
