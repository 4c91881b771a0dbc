// libFuzzer target: Ollama's manifests and model names (core/io/ollamastore).
// Any bytes, read as a manifest, give either one line saying what is wrong
// or the blob of a model layer: a file named sha256-<64 hex digits> directly
// in the store's blobs/ folder, never anywhere else. The same bytes, read as
// a model name, give either one line or a name whose manifest path has
// exactly four parts under manifests/, none of them "." or "..".

#include "io/ollamastore.h"

#include <QByteArray>
#include <QRegularExpression>
#include <QStringList>
#include <cstdint>
#include <cstdlib>

namespace {

void checkLine(const QString &error)
{
    if (error.isEmpty() || error.contains(QLatin1Char('\n')) || error.size() > 600)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    static const QRegularExpression blob(QRegularExpression::anchoredPattern(QStringLiteral("/store/blobs/sha256-[0-9a-fA-F]{64}")));
    for (const bool checkBlob : {false, true}) {
        QString error;
        const std::optional<attn::OllamaManifest> m = attn::parseOllamaManifest(bytes, QStringLiteral("/store"), &error, checkBlob);
        if (!m) {
            checkLine(error);
            continue;
        }
        // No blob exists under /store: with the check, nothing is accepted.
        if (checkBlob || !blob.match(m->modelBlob).hasMatch() || !m->digest.startsWith(QLatin1String("sha256")))
            std::abort();
        if (!m->configBlob.isEmpty() && !blob.match(m->configBlob).hasMatch())
            std::abort();
    }
    QString error;
    const std::optional<attn::OllamaName> name = attn::parseOllamaName(QString::fromUtf8(bytes), &error);
    if (!name) {
        checkLine(error);
        return 0;
    }
    const QStringList parts = name->manifestPath().split(QLatin1Char('/'));
    if (parts.size() != 5 || parts[0] != QLatin1String("manifests"))
        std::abort();
    for (const QString &part : parts)
        if (part.isEmpty() || part == QLatin1String(".") || part == QLatin1String(".."))
            std::abort();
    return 0;
}
