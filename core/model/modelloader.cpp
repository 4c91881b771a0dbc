#include "model/modelloader.h"

#include "io/safetensorsfile.h"
#include "io/shardedcheckpoint.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace attn {
namespace {

struct LoadError
{
    QString message;
};

// Where a checkpoint's tensors are: one file, or the shards of an index.
struct TensorSource
{
    QString name; // the file named in messages about the checkpoint as a whole
    const SafetensorsFile *single = nullptr;
    const ShardedCheckpoint *sharded = nullptr;

    // The file to look for `name` in (the single file even when it lacks
    // it, so that its own message says so); nullptr when no shard holds it.
    const SafetensorsFile *fileOf(const QString &tensor) const { return single ? single : sharded->fileOf(tensor); }
    bool has(const QString &tensor) const
    {
        const SafetensorsFile *file = fileOf(tensor);
        return file && file->find(tensor);
    }
};

// Reads tensors under one naming scheme, refusing the first one that is
// missing or has the wrong shape or type (the reader's own message).
class TensorReader
{
public:
    TensorReader(const TensorSource &source, QString prefix) : m_source(source), m_prefix(std::move(prefix)) {}

    bool has(const QString &name) const { return m_source.has(m_prefix + name); }

    // F32 data as stored in the mapping (checked finite, not copied); any
    // other dtype, or data the header left misaligned, converted into a copy.
    WeightMatrix matrix(const QString &name, Eigen::Index rows, Eigen::Index cols) const
    {
        const SafetensorsFile &file = fileOf(m_prefix + name);
        const TensorInfo *info = check(file.findMatrix(m_prefix + name, rows, cols, &m_error));
        if (const float *inPlace = file.floatsInPlace(*info)) {
            check(file.checkFinite(*info, inPlace, &m_error));
            return WeightMatrix::mapped(inPlace, rows, cols, cols, file.storage());
        }
        RowMatrix<float> copy(rows, cols);
        check(file.toFloat(*info, copy.data(), &m_error));
        return copy;
    }

    WeightVector vector(const QString &name, Eigen::Index size) const
    {
        const SafetensorsFile &file = fileOf(m_prefix + name);
        const TensorInfo *info = check(file.findVector(m_prefix + name, size, &m_error));
        if (const float *inPlace = file.floatsInPlace(*info)) {
            check(file.checkFinite(*info, inPlace, &m_error));
            return WeightVector::mapped(inPlace, 1, size, size, file.storage());
        }
        RowVector<float> copy(size);
        check(file.toFloat(*info, copy.data(), &m_error));
        return copy;
    }

    // GPT-2's Conv1D: [in, out] as stored, y = x W + b.
    DenseParameters conv1d(const QString &name, int in, int out) const
    {
        return DenseParameters{matrix(name + QLatin1String(".weight"), in, out),
                               vector(name + QLatin1String(".bias"), out)};
    }

    // nn.Linear: [out, in] in the file, transposed once here to [in, out].
    DenseParameters linear(const QString &name, int in, int out) const
    {
        return DenseParameters{RowMatrix<float>(matrix(name + QLatin1String(".weight"), out, in).transpose()),
                               vector(name + QLatin1String(".bias"), out)};
    }

    // weight/bias, or gamma/beta in checkpoints converted from TensorFlow long ago.
    LayerNormParameters layerNorm(const QString &name, int d) const
    {
        const bool old = !has(name + QLatin1String(".weight")) && has(name + QLatin1String(".gamma"));
        return LayerNormParameters{vector(name + (old ? QLatin1String(".gamma") : QLatin1String(".weight")), d),
                                   vector(name + (old ? QLatin1String(".beta") : QLatin1String(".bias")), d)};
    }

private:
    template<typename T>
    T check(T ok) const
    {
        if (!ok)
            throw LoadError{m_error};
        return ok;
    }
    const SafetensorsFile &fileOf(const QString &tensor) const
    {
        if (const SafetensorsFile *file = m_source.fileOf(tensor))
            return *file;
        throw LoadError{QStringLiteral("%1: no tensor %2").arg(m_source.name, quotedForMessage(tensor))};
    }

    const TensorSource &m_source;
    QString m_prefix;
    mutable QString m_error;
};

// The prefix the file uses: the one under which `probe` exists.
QString prefixOf(const TensorSource &source, const QString &prefix, const QString &probe)
{
    if (source.has(probe))
        return QString();
    if (source.has(prefix + probe))
        return prefix;
    throw LoadError{QStringLiteral("%1: no tensor \"%2\" (nor \"%3%2\"): not a checkpoint of this family")
                        .arg(source.name, probe, prefix)};
}

void loadGpt2(const TensorSource &source, ModelParameters &p)
{
    const ModelConfig &c = p.config;
    const int d = c.dModel;
    const TensorReader t(source, prefixOf(source, QStringLiteral("transformer."), QStringLiteral("wte.weight")));
    p.tokenEmbedding = t.matrix(QStringLiteral("wte.weight"), c.vocab, d);
    p.positionEmbedding = t.matrix(QStringLiteral("wpe.weight"), c.positions, d);
    for (int i = 0; i < c.layers; ++i) {
        const QString pre = QStringLiteral("h.%1.").arg(i);
        BlockParameters b;
        b.norm1 = t.layerNorm(pre + QLatin1String("ln_1"), d);
        // c_attn's output columns are q | k | v (split(n_embd, dim=2)).
        const DenseParameters qkv = t.conv1d(pre + QLatin1String("attn.c_attn"), d, 3 * d);
        b.query = DenseParameters{qkv.weight.columns(0, d), qkv.bias.columns(0, d)};
        b.key = DenseParameters{qkv.weight.columns(d, d), qkv.bias.columns(d, d)};
        b.value = DenseParameters{qkv.weight.columns(2 * d, d), qkv.bias.columns(2 * d, d)};
        b.attentionOutput = t.conv1d(pre + QLatin1String("attn.c_proj"), d, d);
        b.norm2 = t.layerNorm(pre + QLatin1String("ln_2"), d);
        b.mlpIn = t.conv1d(pre + QLatin1String("mlp.c_fc"), d, c.dFF);
        b.mlpOut = t.conv1d(pre + QLatin1String("mlp.c_proj"), c.dFF, d);
        p.blocks.push_back(std::move(b));
    }
    p.finalNorm = t.layerNorm(QStringLiteral("ln_f"), d);
    // Tied (the default): Hugging Face points lm_head at wte whatever the file holds.
    if (!c.tiedUnembedding)
        p.untiedUnembedding = TensorReader(source, QString()).matrix(QStringLiteral("lm_head.weight"), c.vocab, d);
}

void loadBert(const TensorSource &source, ModelParameters &p)
{
    const ModelConfig &c = p.config;
    const int d = c.dModel;
    const TensorReader t(source, prefixOf(source, QStringLiteral("bert."),
                                        QStringLiteral("embeddings.word_embeddings.weight")));
    p.tokenEmbedding = t.matrix(QStringLiteral("embeddings.word_embeddings.weight"), c.vocab, d);
    p.positionEmbedding = t.matrix(QStringLiteral("embeddings.position_embeddings.weight"), c.positions, d);
    p.tokenTypeEmbedding = t.matrix(QStringLiteral("embeddings.token_type_embeddings.weight"), c.tokenTypes, d);
    p.embeddingNorm = t.layerNorm(QStringLiteral("embeddings.LayerNorm"), d);
    for (int i = 0; i < c.layers; ++i) {
        const QString pre = QStringLiteral("encoder.layer.%1.").arg(i);
        BlockParameters b;
        b.query = t.linear(pre + QLatin1String("attention.self.query"), d, d);
        b.key = t.linear(pre + QLatin1String("attention.self.key"), d, d);
        b.value = t.linear(pre + QLatin1String("attention.self.value"), d, d);
        b.attentionOutput = t.linear(pre + QLatin1String("attention.output.dense"), d, d);
        b.norm1 = t.layerNorm(pre + QLatin1String("attention.output.LayerNorm"), d);
        b.mlpIn = t.linear(pre + QLatin1String("intermediate.dense"), d, c.dFF);
        b.mlpOut = t.linear(pre + QLatin1String("output.dense"), c.dFF, d);
        b.norm2 = t.layerNorm(pre + QLatin1String("output.LayerNorm"), d);
        p.blocks.push_back(std::move(b));
    }
    // The MLM head (BertForMaskedLM, BertForPreTraining) is never prefixed;
    // its decoder.weight, when present, is the word embeddings again.
    const TensorReader head(source, QStringLiteral("cls.predictions."));
    if (head.has(QStringLiteral("transform.dense.weight"))) {
        MlmHeadParameters m;
        m.transform = head.linear(QStringLiteral("transform.dense"), d, d);
        m.norm = head.layerNorm(QStringLiteral("transform.LayerNorm"), d);
        m.decoderBias = head.vector(QStringLiteral("bias"), c.vocab);
        p.mlm = std::move(m);
    }
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

std::optional<ModelParameters> loadParameters(const ModelConfig &config, const TensorSource &source, QString *error)
{
    ModelParameters p;
    p.config = config;
    try {
        if (config.family == ModelFamily::Gpt2)
            loadGpt2(source, p);
        else
            loadBert(source, p);
    } catch (const LoadError &e) {
        if (error)
            *error = e.message;
        return std::nullopt;
    } catch (const std::bad_alloc &) {
        if (error)
            *error = QStringLiteral("%1: not enough memory for the weights").arg(source.name);
        return std::nullopt;
    }
    return p;
}

} // namespace

std::optional<ModelParameters> loadParameters(const ModelConfig &config, const SafetensorsFile &file, QString *error)
{
    return loadParameters(config, TensorSource{file.name(), &file, nullptr}, error);
}

std::optional<ModelParameters> loadParameters(const ModelConfig &config, const ShardedCheckpoint &checkpoint,
                                              QString *error)
{
    return loadParameters(config, TensorSource{shardIndexName(), nullptr, &checkpoint}, error);
}

SharedModelParameters loadModel(const QString &folder, QString *error)
{
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
