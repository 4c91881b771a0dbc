#include "model/openmodel.h"

#include "io/gguffile.h"
#include "model/modelloader.h"
#include "tokenizers/gguftokenizer.h"

#include <QFile>
#include <algorithm>

namespace attn {

std::optional<ModelConfig> readModelConfig(const ModelFiles &files, QString *error)
{
    if (files.isGguf()) {
        const std::optional<GgufFile> file = GgufFile::open(files.gguf, error);
        return file ? readGgufConfig(*file, error) : std::nullopt;
    }
    QFile file(files.config);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("config.json: cannot read: %1").arg(file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxConfigBytes) {
        *error = QStringLiteral("config.json: %1 bytes, more than a config holds (at most %2)")
                     .arg(file.size()).arg(kMaxConfigBytes);
        return std::nullopt;
    }
    return parseModelConfig(file.readAll(), QStringLiteral("config.json"), error);
}

SharedModelParameters loadModel(const ModelFiles &files, QString *error)
{
    if (!files.isGguf())
        return loadModel(files.folder, error);
    const std::optional<GgufFile> file = GgufFile::open(files.gguf, error);
    if (!file)
        return nullptr;
    // Its tokenizer's vocabulary against the embedding first: a file whose two
    // disagree is refused for that, not for a tensor the vocabulary sized.
    if (const QString problem = ggufVocabularyProblem(*file); !problem.isEmpty()) {
        if (error)
            *error = problem;
        return nullptr;
    }
    return loadGgufModel(*file, error);
}

TokenizerPtr loadModelTokenizer(const ModelFiles &files, const ModelConfig &config, QString *error)
{
    if (!files.isGguf())
        return loadTokenizerFromFolder(files.folder, config.familyName(), error);
    const std::optional<GgufFile> file = GgufFile::open(files.gguf, error);
    return file ? tokenizerFromGguf(*file, error, config.vocab) : nullptr;
}

std::optional<WeightsOnDisk> weightsOnDisk(const ModelFiles &files, const ModelConfig &config, QString *error)
{
    if (!files.isGguf())
        return weightsOnDisk(files.weights, error);
    const std::optional<GgufFile> file = GgufFile::open(files.gguf, error);
    if (!file)
        return std::nullopt;
    // GGUF weights are never copied whole: F32 is read in place, every other
    // type is dequantised a band of rows at a time (io/ggufsource.h). The
    // file may hold tensors the model does not read (rope_freqs.weight).
    WeightsOnDisk w;
    w.fileBytes = file->size();
    w.elements = qint64(config.parameterCount());
    qint64 converted = 0;
    for (const GgufTensor &t : file->tensors())
        if (t.type != GgmlType::F32)
            converted += t.elements;
    w.f32Elements = std::max<qint64>(0, w.elements - converted);
    return w;
}

} // namespace attn
