#include "model/memoryestimate.h"

#include "io/safetensorsfile.h"
#include "model/denseops.h"

#include <QFile>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sys/resource.h>

namespace attn {
namespace {

constexpr double kFloat = sizeof(float);
// A number in a JSON result while it is built: the QJsonValue in its array
// (16 bytes in Qt 6's CBOR-backed containers, more when arrays grow), then
// its text of up to 24 characters, then that text copied once more when the
// document is formatted. Generous, so the estimate stays an upper bound.
constexpr double kBytesPerResultNumber = 64;

// A "Key:   123 kB" line of a /proc file, in bytes; nothing when absent.
std::optional<double> procField(const char *path, const char *key)
{
    QFile file(QString::fromLatin1(path));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray prefix = QByteArray(key) + ':';
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (!line.startsWith(prefix))
            continue;
        const QList<QByteArray> parts = line.mid(prefix.size()).simplified().split(' ');
        bool ok = false;
        const double value = parts.value(0).toDouble(&ok);
        if (!ok)
            return std::nullopt;
        return parts.value(1) == "kB" ? value * 1024 : value;
    }
    return std::nullopt;
}

} // namespace

std::optional<WeightsOnDisk> weightsOnDisk(const QString &path, QString *error)
{
    const std::optional<SafetensorsFile> file = SafetensorsFile::open(path, error);
    if (!file)
        return std::nullopt;
    WeightsOnDisk w;
    w.fileBytes = QFile(path).size();
    for (const TensorInfo &t : file->tensors()) {
        w.elements += t.elements;
        if (t.dtype == Dtype::F32 && file->floatsInPlace(t))
            w.f32Elements += t.elements;
    }
    return w;
}

MemoryEstimate estimateRunMemory(const ModelConfig &c, const WeightsOnDisk &weights, int tokens, bool keepScores,
                                 double resultNumbers)
{
    const double n = std::max(tokens, 0), d = c.dModel, layers = c.layers, heads = c.heads;
    MemoryEstimate e;
    e.mappedWeights = double(weights.fileBytes);
    // F32 weights are read in place; others stay as stored and are converted
    // a band at a time (model/denseops.h), one band per thread of a pass. A
    // file that does not hold exactly the config's weights is refused by the
    // loader; until then it is counted as copied whole (an upper bound).
    const bool matches = weights.elements == c.parameterCount();
    const bool converts = weights.elements > weights.f32Elements;
    e.weightCopies = !matches ? kFloat * c.parameterCount()
                    : converts ? kFloat * std::min(c.parameterCount(), 2.0 * double(bandRows(1))) : 0.0;
    // Kept per layer: queries, keys, values, context (n x d each); the hidden
    // state before every layer and after the last. Alive during one layer:
    // its input, the layer norm's output, the attention output, the MLP's
    // inner n x d_ff before and after its activation.
    const double working = 4 * n * d + 2 * n * c.dFF;
    // Predictions: GPT-2's next token (logits and probabilities); BERT's at
    // every [MASK], and any position may be one.
    const double predictions = c.causal ? 2.0 * c.vocab : n * 2.0 * c.vocab;
    e.activations = kFloat * (layers * 4 * n * d + (layers + 1) * n * d + working + predictions);
    e.attention = kFloat * layers * heads * n * n * (keepScores ? 2 : 1);
    e.result = kBytesPerResultNumber * std::max(resultNumbers, 0.0);
    return e;
}

MemoryLimit availableMemory()
{
    MemoryLimit limit{std::numeric_limits<double>::infinity(), QString()};
    if (const std::optional<double> free = procField("/proc/meminfo", "MemAvailable")) {
        limit.bytes = *free;
        limit.what = QStringLiteral("free memory (MemAvailable)");
    }
    rlimit address{};
    if (::getrlimit(RLIMIT_AS, &address) == 0 && address.rlim_cur != RLIM_INFINITY) {
        const double used = procField("/proc/self/status", "VmSize").value_or(0);
        const double left = std::max(0.0, double(address.rlim_cur) - used);
        if (left < limit.bytes) {
            limit.bytes = left;
            limit.what = QStringLiteral("address space left under ulimit -v");
        }
    }
    return limit;
}

QString formatBytes(double bytes)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int unit = 0;
    while (bytes >= 1024 && unit < 6) {
        bytes /= 1024;
        ++unit;
    }
    if (unit == 0)
        return QStringLiteral("%1 bytes").arg(bytes, 0, 'f', 0);
    return QStringLiteral("%1 %2").arg(bytes, 0, 'f', bytes < 10 ? 1 : 0).arg(QLatin1String(units[unit]));
}

} // namespace attn
