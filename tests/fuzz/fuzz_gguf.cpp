// libFuzzer target: a GGUF file, from its header to a forward pass. Any
// bytes give either one line "fuzz.gguf: ..." or a file whose every metadata
// array reads back whole (strings, numbers of every type), whose every tensor
// lies inside the file and dequantises to finite floats or names its
// non-finite block, and whose tokenizer and model are either refused with one
// line or work: the tokenizer's ids are in its vocabulary, and a model that
// loads runs a few tokens through every layer (or refuses them with
// ModelInputError). Never a crash, an out-of-bounds read or an allocation
// that only a header claims.

#include "io/ggmltypes.h"
#include "io/gguffile.h"
#include "model/forward.h"
#include "model/modelloader.h"
#include "tokenizers/gguftokenizer.h"

#include <QByteArray>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace {

const QString kName = QStringLiteral("fuzz.gguf");

void checkLine(const QString &error)
{
    if (!error.startsWith(kName + QLatin1String(": ")) || error.contains(QLatin1Char('\n')))
        std::abort();
}

void checkMetadata(const attn::GgufFile &file)
{
    for (const QString &key : file.keys()) {
        const attn::GgufValue *v = file.find(key);
        if (!v)
            std::abort();
        if (v->type != attn::GgufType::Array)
            continue;
        QString error;
        if (v->elementType == attn::GgufType::String) {
            const std::optional<QStringList> list = file.strings(*v, key, &error);
            if (!list || list->size() != v->count)
                std::abort();
        } else {
            // Numbers of every type read (bools stored as 2 and more refused, naming the key).
            const std::optional<std::vector<double>> list = file.numbers(*v, key, &error);
            if (list ? qint64(list->size()) != v->count : v->elementType != attn::GgufType::Bool)
                std::abort();
            if (!list)
                checkLine(error);
        }
    }
}

void checkTensors(const attn::GgufFile &file)
{
    for (const attn::GgufTensor &t : file.tensors()) {
        if (t.offset < 0 || t.bytes < 0 || t.offset > file.size() - t.bytes || file.findTensor(t.name) != &t)
            std::abort();
        const std::optional<attn::GgmlTypeInfo> info = attn::ggmlTypeInfo(quint32(t.type));
        if (!info || !info->readable || t.dims.empty() || t.dims.size() > 4 || t.dims[0] % info->blockValues != 0)
            std::abort();
        // The tensor's bytes are bounded by the input, so its floats are too.
        const qint64 blocks = t.elements / info->blockValues;
        if (blocks * info->blockBytes != t.bytes)
            std::abort();
        std::vector<float> values(std::size_t(t.elements));
        qint64 bad = -1;
        if (attn::dequantizeBlocks(t.type, file.data(t), blocks, values.data(), &bad)) {
            for (const float v : values)
                if (!std::isfinite(v))
                    std::abort();
        } else if (bad < 0 || bad >= blocks) {
            std::abort();
        }
    }
}

void checkModel(const attn::GgufFile &file)
{
    QString error;
    const attn::TokenizerPtr tokenizer = attn::tokenizerFromGguf(file, &error);
    std::vector<int> ids;
    if (tokenizer) {
        for (const int id : tokenizer->encodeIds(QStringLiteral("The cat <s> saw 12345 caf\u00e9 \U0001F600\n")))
            if (id < 0 || id >= tokenizer->vocabSize())
                std::abort();
            else
                ids.push_back(id);
    } else {
        checkLine(error);
    }
    const attn::SharedModelParameters model = attn::loadGgufModel(file, &error);
    if (!model) {
        checkLine(error);
        return;
    }
    if (model->format() != QLatin1String("gguf-") + model->storedType)
        std::abort();
    // A few tokens: the tokenizer's when it agrees with the model, else the first ids.
    if (ids.empty() || !tokenizer || tokenizer->vocabSize() != model->config.vocab)
        ids = {0, model->config.vocab - 1, 0};
    ids.resize(std::min<std::size_t>(ids.size(), 4));
    try {
        // Finite weights can still overflow in a product: the numbers are the
        // model's; what is checked here is that any model that loads runs.
        const attn::ModelTrace trace = attn::forward(*model, ids);
        if (int(trace.layers.size()) != model->config.layers)
            std::abort();
    } catch (const attn::ModelInputError &) {
        // A band of weights with a non-finite block, met while computing.
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    QString error;
    const std::optional<attn::GgufFile> file = attn::GgufFile::fromBytes(bytes, kName, &error);
    if (!file) {
        checkLine(error);
        return 0;
    }
    checkMetadata(*file);
    checkTensors(*file);
    checkModel(*file);
    return 0;
}
