#include "model/modelloader.h"

#include "io/gguffile.h"
#include "io/ggufmetadata.h"
#include "io/ggufsource.h"
#include "io/safetensorsfile.h"
#include "io/safetensorssource.h"
#include "io/shardedcheckpoint.h"
#include "io/tensorinfo.h"
#include "model/families/family.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace attn {
namespace {

// Reads a family's tensors under one naming scheme (with or without its
// prefix), refusing the first one that is missing or has the wrong shape or type.
class TensorReader
{
public:
    TensorReader(const TensorSource &source, QString prefix, bool conv1d)
        : m_source(source), m_prefix(std::move(prefix)), m_conv1d(conv1d)
    {
    }

    bool has(const QString &name) const { return m_source.has(m_prefix + name); }
    WeightMatrix matrix(const QString &name, Eigen::Index rows, Eigen::Index cols) const
    {
        return m_source.matrix(m_prefix + name, rows, cols);
    }
    WeightVector vector(const QString &name, Eigen::Index size) const { return m_source.vector(m_prefix + name, size); }

    // A dense layer of `in` inputs and `out` outputs, as the family stores
    // it: Conv1D [in, out] or nn.Linear [out, in]. With no bias when `bias` is false.
    DenseParameters dense(const QString &name, int in, int out, bool bias) const
    {
        DenseParameters p;
        p.transposed = !m_conv1d;
        p.weight = m_conv1d ? matrix(name + QLatin1String(".weight"), in, out)
                            : matrix(name + QLatin1String(".weight"), out, in);
        if (bias)
            p.bias = vector(name + QLatin1String(".bias"), out);
        return p;
    }

    // LayerNorm: weight and bias, or gamma and beta in checkpoints converted
    // from TensorFlow long ago. RMSNorm: weight only, plus one where the
    // family multiplies by (1 + w).
    NormParameters norm(const QString &name, int d, const ModelConfig &c) const
    {
        if (c.norm == NormKind::RmsNorm) {
            WeightVector weight = vector(name + QLatin1String(".weight"), d);
            if (c.normAddsOne)
                weight = RowVector<float>(weight.array() + 1.0f);
            return NormParameters{std::move(weight), WeightVector()};
        }
        const bool old = !has(name + QLatin1String(".weight")) && has(name + QLatin1String(".gamma"));
        return NormParameters{vector(name + (old ? QLatin1String(".gamma") : QLatin1String(".weight")), d),
                              vector(name + (old ? QLatin1String(".beta") : QLatin1String(".bias")), d)};
    }

private:
    const TensorSource &m_source;
    QString m_prefix;
    bool m_conv1d;
};

// The prefix the file uses: the one under which `probe` exists.
QString prefixOf(const TensorSource &source, const QString &prefix, const QString &probe)
{
    if (source.has(probe))
        return QString();
    if (source.has(prefix + probe))
        return prefix;
    throw ModelLoadError{QStringLiteral("%1: no tensor \"%2\" (nor \"%3%2\"): not a checkpoint of this family")
                             .arg(source.name(), probe, prefix)};
}

// q | k | v, or gate | up, of one fused dense layer: by columns for Conv1D
// ([in, out]), by rows for nn.Linear ([out, in]).
DenseParameters partOf(const DenseParameters &fused, Eigen::Index start, Eigen::Index count)
{
    DenseParameters part;
    part.transposed = fused.transposed;
    part.weight = fused.transposed ? fused.weight.rowRange(start, count) : fused.weight.columns(start, count);
    if (fused.bias.size() > 0)
        part.bias = fused.bias.columns(start, count);
    return part;
}

void loadAttention(const TensorReader &t, const TensorNames &n, const QString &pre, const ModelConfig &c,
                   BlockParameters &b)
{
    const int d = c.dModel, q = c.heads * c.headDim(), kv = c.kvHeads() * c.headDim();
    if (n.queryKeyValue) {
        const DenseParameters fused = t.dense(pre + QLatin1String(n.queryKeyValue), d, q + 2 * kv, c.queryKeyValueBias);
        b.query = partOf(fused, 0, q);
        b.key = partOf(fused, q, kv);
        b.value = partOf(fused, q + kv, kv);
    } else {
        b.query = t.dense(pre + QLatin1String(n.query), d, q, c.queryKeyValueBias);
        b.key = t.dense(pre + QLatin1String(n.key), d, kv, c.queryKeyValueBias);
        b.value = t.dense(pre + QLatin1String(n.value), d, kv, c.queryKeyValueBias);
    }
    b.attentionOutput = t.dense(pre + QLatin1String(n.attentionOutput), q, d, c.outputBias);
    if (c.queryKeyNorms) {
        b.queryNorm = t.norm(pre + QLatin1String(n.queryNorm), c.headDim(), c);
        b.keyNorm = t.norm(pre + QLatin1String(n.keyNorm), c.headDim(), c);
    }
}

void loadMlp(const TensorReader &t, const TensorNames &n, const QString &pre, const ModelConfig &c, BlockParameters &b)
{
    const int d = c.dModel;
    if (c.mlp == MlpKind::Gated && n.mlpGateIn) {
        const DenseParameters fused = t.dense(pre + QLatin1String(n.mlpGateIn), d, 2 * c.dFF, c.mlpBias);
        b.mlpGate = partOf(fused, 0, c.dFF);
        b.mlpIn = partOf(fused, c.dFF, c.dFF);
    } else {
        if (c.mlp == MlpKind::Gated)
            b.mlpGate = t.dense(pre + QLatin1String(n.mlpGate), d, c.dFF, c.mlpBias);
        b.mlpIn = t.dense(pre + QLatin1String(n.mlpIn), d, c.dFF, c.mlpBias);
    }
    b.mlpOut = t.dense(pre + QLatin1String(n.mlpOut), c.dFF, d, c.mlpBias);
}

void loadWith(const FamilyDescription &family, const TensorNames &n, const TensorSource &source, ModelParameters &p)
{
    ModelConfig &c = p.config;
    const int d = c.dModel;
    const QString embedding = QLatin1String(n.tokenEmbedding) + QLatin1String(".weight");
    const TensorReader t(source, prefixOf(source, QLatin1String(n.prefix), embedding), family.conv1d);
    // GGUF's Llama 3.1 scaling: each rotary frequency's divisor, in a tensor.
    if (c.positionKind == PositionKind::Rotary && source.has(QStringLiteral("rope_freqs.weight"))) {
        const WeightVector factors = source.vector(QStringLiteral("rope_freqs.weight"), c.rotary.dimensions / 2);
        c.rotary.frequencyFactors.assign(factors.data(), factors.data() + factors.size());
        for (float f : c.rotary.frequencyFactors)
            if (!(f > 0))
                throw ModelLoadError{QStringLiteral("%1: tensor \"rope_freqs.weight\" holds %2, not a positive factor")
                                         .arg(source.name()).arg(double(f))};
    }
    p.tokenEmbedding = t.matrix(embedding, c.vocab, d);
    if (c.positionKind == PositionKind::Learned)
        p.positionEmbedding = t.matrix(QLatin1String(n.positionEmbedding) + QLatin1String(".weight"), c.positions, d);
    if (c.tokenTypes > 0)
        p.tokenTypeEmbedding = t.matrix(QLatin1String(n.tokenTypeEmbedding) + QLatin1String(".weight"), c.tokenTypes, d);
    if (c.embeddingNorm)
        p.embeddingNorm = t.norm(QLatin1String(n.embeddingNorm), d, c);
    for (int i = 0; i < c.layers; ++i) {
        const QString pre = QString::fromLatin1(n.layer).arg(i);
        BlockParameters b;
        b.norm1 = t.norm(pre + QLatin1String(n.norm1), d, c);
        loadAttention(t, n, pre, c, b);
        if (c.sublayerOutputNorms) {
            b.attentionOutputNorm = t.norm(pre + QLatin1String(n.attentionOutputNorm), d, c);
            b.mlpOutputNorm = t.norm(pre + QLatin1String(n.mlpOutputNorm), d, c);
        }
        b.norm2 = t.norm(pre + QLatin1String(n.norm2), d, c);
        loadMlp(t, n, pre, c, b);
        p.blocks.push_back(std::move(b));
    }
    if (c.normPlacement == NormPlacement::BeforeSublayer)
        p.finalNorm = t.norm(QLatin1String(n.finalNorm), d, c);
    // Tied (the family's default unless the config says otherwise): Hugging
    // Face points lm_head at the embedding whatever the file holds.
    if (!c.tiedUnembedding && n.unembedding)
        p.untiedUnembedding = TensorReader(source, QString(), family.conv1d)
                                  .matrix(QLatin1String(n.unembedding) + QLatin1String(".weight"), c.vocab, d);
    // BERT's masked-language head (BertForMaskedLM, BertForPreTraining) is
    // never prefixed; its decoder.weight, when present, is the word embeddings again.
    if (family.maskedLmHead) {
        const TensorReader head(source, QLatin1String(family.maskedLmHead), false);
        if (head.has(QStringLiteral("transform.dense.weight"))) {
            MlmHeadParameters m;
            m.transform = head.dense(QStringLiteral("transform.dense"), d, d, true);
            m.norm = head.norm(QStringLiteral("transform.LayerNorm"), d, c);
            m.decoderBias = head.vector(QStringLiteral("bias"), c.vocab);
            p.mlm = std::move(m);
        }
    }
    p.storedType = source.storedType();
}

QByteArray readConfig(const QString &path, QString *error)
{
    const QString name = QFileInfo(path).fileName();
    QFile file(path);
    if (!QFileInfo(path).isFile()) {
        *error = QStringLiteral("%1: not found in %2").arg(name, QDir::toNativeSeparators(QFileInfo(path).path()));
        return {};
    }
    if (file.size() > kMaxConfigBytes) {
        *error = QStringLiteral("%1: %2 bytes, more than a model configuration holds (%3)")
                     .arg(name).arg(file.size()).arg(kMaxConfigBytes);
        return {};
    }
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot be read (%2)").arg(name, file.errorString());
        return {};
    }
    QByteArray bytes = file.readAll();
    if (bytes.isEmpty())
        *error = QStringLiteral("%1: empty").arg(name);
    return bytes;
}

} // namespace

std::optional<ModelParameters> loadParameters(const ModelConfig &config, const TensorSource &source, QString *error,
                                              bool ggufNames)
{
    const FamilyDescription *family = findFamily(config.modelType);
    if (!family) {
        if (error)
            *error = QStringLiteral("%1: no model family %2").arg(source.name(), config.modelType);
        return std::nullopt;
    }
    ModelParameters p;
    p.config = config;
    try {
        loadWith(*family, ggufNames ? family->ggufNames : family->names, source, p);
    } catch (const ModelLoadError &e) {
        if (error)
            *error = e.message;
        return std::nullopt;
    } catch (const std::bad_alloc &) {
        if (error)
            *error = QStringLiteral("%1: not enough memory for the weights").arg(source.name());
        return std::nullopt;
    }
    return p;
}

std::optional<ModelParameters> loadParameters(const ModelConfig &config, const SafetensorsFile &file, QString *error)
{
    return loadParameters(config, SafetensorsSource(file), error, false);
}

std::optional<ModelParameters> loadParameters(const ModelConfig &config, const ShardedCheckpoint &checkpoint,
                                              QString *error)
{
    return loadParameters(config, SafetensorsSource(checkpoint, shardIndexName()), error, false);
}

std::optional<ModelConfig> readGgufConfig(const GgufFile &file, QString *error)
{
    ModelConfig config;
    try {
        const GgufValue *architecture = file.find(QStringLiteral("general.architecture"));
        if (!architecture || architecture->type != GgufType::String)
            throw ConfigError{QStringLiteral("general.architecture is missing or not a string")};
        const FamilyDescription *family = findGgufFamily(architecture->text);
        if (!family)
            throw ConfigError{QStringLiteral("architecture %1 is not supported (%2)")
                                  .arg(shownJsonValue(architecture->text), ggufArchitectureNames())};
        config.modelType = QLatin1String(family->modelType);
        family->readGguf(GgufFields(file, architecture->text), config);
        if (config.parameterCount() > kMaxGgufParameters)
            throw ConfigError{QStringLiteral("%1 million weights are more than this program opens (%2 million)")
                                  .arg(config.parameterCount() / 1e6, 0, 'f', 0)
                                  .arg(kMaxGgufParameters / 1e6, 0, 'f', 0)};
    } catch (const ConfigError &e) {
        if (error)
            *error = file.fail(e.message);
        return std::nullopt;
    }
    return config;
}

namespace {
std::optional<qint64> &checkedWholeChoice()
{
    static std::optional<qint64> chosen;
    return chosen;
}
} // namespace

qint64 ggufCheckedWholeBytes()
{
    return checkedWholeChoice().value_or(qint64(256) << 20);
}

void setGgufCheckedWholeBytes(std::optional<qint64> bytes)
{
    checkedWholeChoice() = bytes;
}

SharedModelParameters loadGgufModel(const GgufFile &file, QString *error)
{
    QString dummy;
    QString &err = error ? *error : dummy;
    const std::optional<ModelConfig> config = readGgufConfig(file, &err);
    if (!config)
        return nullptr;
    // A small file is checked whole now, tensors the model does not use
    // included (as llama.cpp validates every row at load); a large one a
    // band at a time as its weights are used, so that opening a 5 GB model
    // does not read 5 GB.
    const bool checkedWhole = file.size() <= ggufCheckedWholeBytes();
    if (checkedWhole) {
        std::vector<float> row;
        for (const GgufTensor &t : file.tensors()) {
            const qint64 blocks = t.dims[0] / ggmlTypeInfo(quint32(t.type))->blockValues;
            row.resize(std::size_t(t.dims[0]));
            for (qint64 r = 0; r < t.rows(); ++r) {
                qint64 bad = 0;
                if (!dequantizeBlocks(t.type, file.data(t) + r * t.rowBytes, blocks, row.data(), &bad)) {
                    err = file.fail(QStringLiteral("tensor %1: block %2 of row %3 holds a value or scale that is not finite")
                                         .arg(quotedForMessage(t.name)).arg(bad).arg(r));
                    return nullptr;
                }
            }
        }
    }
    const FamilyDescription *family = findFamily(config->modelType);
    const GgufSource source(file, family->ggufInterleavedQueryKey, config->heads, config->kvHeads(), config->headDim());
    std::optional<ModelParameters> parameters = loadParameters(*config, source, &err, true);
    if (!parameters)
        return nullptr;
    // A large file's tensors the model never reads are checked now (a small
    // file's were, with everything else, above).
    if (!checkedWhole) {
        try {
            source.checkUnread();
        } catch (const ModelLoadError &e) {
            err = e.message;
            return nullptr;
        }
    }
    parameters->container = QStringLiteral("gguf");
    return std::make_shared<const ModelParameters>(std::move(*parameters));
}

SharedModelParameters loadGgufModel(const QString &path, QString *error)
{
    QString dummy;
    QString &err = error ? *error : dummy;
    const std::optional<GgufFile> file = GgufFile::open(path, &err);
    return file ? loadGgufModel(*file, &err) : nullptr;
}

SharedModelParameters loadModel(const QString &folder, QString *error)
{
    if (QFileInfo(folder).isFile() && folder.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive))
        return loadGgufModel(folder, error);
    QString dummy;
    QString &err = error ? *error : dummy;
    const QDir dir(folder);
    const QByteArray json = readConfig(dir.filePath(QStringLiteral("config.json")), &err);
    if (json.isEmpty())
        return nullptr;
    const std::optional<ModelConfig> config = parseModelConfig(json, QStringLiteral("config.json"), &err);
    if (!config)
        return nullptr;
    const QString weights = dir.filePath(QStringLiteral("model.safetensors"));
    std::optional<ModelParameters> parameters;
    if (!QFileInfo(weights).isFile() && dir.exists(shardIndexName())) {
        const std::optional<ShardedCheckpoint> shards = openShardedCheckpoint(folder, &err);
        if (!shards)
            return nullptr;
        parameters = loadParameters(*config, *shards, &err);
    } else {
        if (!QFileInfo(weights).isFile()) {
            const QString why = dir.exists(QStringLiteral("pytorch_model.bin"))
                                    ? QStringLiteral(" (only pytorch_model.bin, which this program cannot read)")
                                    : QString();
            err = QStringLiteral("model.safetensors: not found in %1%2").arg(QDir::toNativeSeparators(folder), why);
            return nullptr;
        }
        const std::optional<SafetensorsFile> file = SafetensorsFile::open(weights, &err);
        if (!file)
            return nullptr;
        parameters = loadParameters(*config, *file, &err);
    }
    // The weights read in place keep their file mapped; the file objects may go.
    if (!parameters)
        return nullptr;
    return std::make_shared<const ModelParameters>(std::move(*parameters));
}

} // namespace attn
