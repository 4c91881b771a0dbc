#include "learn/modelwriter.h"

#include "io/safetensorswriter.h"
#include "session/sessionio.h"
#include "learn/tasks.h"
#include "learn/tokenizerwriter.h"
#include "learn/trainingparameters.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <fcntl.h>

namespace attn {
namespace {

TensorToWrite vectorTensor(const QString &name, const RowVector<float> &v)
{
    return TensorToWrite::fromVector(name, v.transpose());
}

std::vector<TensorToWrite> gpt2Tensors(const ModelParameters &m)
{
    std::vector<TensorToWrite> t;
    t.push_back(TensorToWrite::fromMatrix(QStringLiteral("wte.weight"), m.tokenEmbedding));
    t.push_back(TensorToWrite::fromMatrix(QStringLiteral("wpe.weight"), m.positionEmbedding));
    for (std::size_t l = 0; l < m.blocks.size(); ++l) {
        const BlockParameters &b = m.blocks[l];
        const QString p = QStringLiteral("h.%1.").arg(l);
        const Eigen::Index d = m.config.dModel;
        // Conv1D c_attn: [d, 3d], the columns q | k | v.
        RowMatrix<float> qkv(d, 3 * d);
        qkv << b.query.weight, b.key.weight, b.value.weight;
        RowVector<float> qkvBias(3 * d);
        qkvBias << b.query.bias, b.key.bias, b.value.bias;
        t.push_back(vectorTensor(p + QStringLiteral("ln_1.weight"), b.norm1.weight));
        t.push_back(vectorTensor(p + QStringLiteral("ln_1.bias"), b.norm1.bias));
        t.push_back(TensorToWrite::fromMatrix(p + QStringLiteral("attn.c_attn.weight"), qkv));
        t.push_back(vectorTensor(p + QStringLiteral("attn.c_attn.bias"), qkvBias));
        t.push_back(TensorToWrite::fromMatrix(p + QStringLiteral("attn.c_proj.weight"), b.attentionOutput.weight));
        t.push_back(vectorTensor(p + QStringLiteral("attn.c_proj.bias"), b.attentionOutput.bias));
        t.push_back(vectorTensor(p + QStringLiteral("ln_2.weight"), b.norm2.weight));
        t.push_back(vectorTensor(p + QStringLiteral("ln_2.bias"), b.norm2.bias));
        t.push_back(TensorToWrite::fromMatrix(p + QStringLiteral("mlp.c_fc.weight"), b.mlpIn.weight));
        t.push_back(vectorTensor(p + QStringLiteral("mlp.c_fc.bias"), b.mlpIn.bias));
        t.push_back(TensorToWrite::fromMatrix(p + QStringLiteral("mlp.c_proj.weight"), b.mlpOut.weight));
        t.push_back(vectorTensor(p + QStringLiteral("mlp.c_proj.bias"), b.mlpOut.bias));
    }
    t.push_back(vectorTensor(QStringLiteral("ln_f.weight"), m.finalNorm.weight));
    t.push_back(vectorTensor(QStringLiteral("ln_f.bias"), m.finalNorm.bias));
    return t;
}

// Every tensor under the name parameterTensors gives it, which for the Llama
// family is the name Hugging Face writes: [out, in] as trained, vectors 1-D.
std::vector<TensorToWrite> llamaTensors(const ModelParameters &m)
{
    ModelParameters copy = m;
    std::vector<TensorToWrite> t;
    for (const ParameterTensor &p : parameterTensors(copy)) {
        if (!p.decays)
            t.push_back(TensorToWrite::fromVector(p.name, p.values()));
        else
            t.push_back(TensorToWrite::fromMatrix(p.name, Eigen::Map<const RowMatrixXf>(p.data, p.rows, p.cols)));
    }
    return t;
}

QMap<QString, QString> safetensorsMetadata()
{
    // transformers refuses a file without it (modeling_utils: format "pt").
    QMap<QString, QString> metadata;
    metadata.insert(QStringLiteral("format"), QStringLiteral("pt"));
    return metadata;
}

bool writeLlama(const QString &folder, const ModelParameters &model, const std::vector<QByteArray> &symbols,
                const QJsonObject &training, QString *error)
{
    const auto found = std::find(symbols.begin(), symbols.end(), QByteArray(kBeginningOfText));
    const int beginning = found == symbols.end() ? -1 : int(found - symbols.begin());
    const std::optional<TokenizerJsonFiles> tokenizer =
        tokenizerJsonFiles(symbols, beginning, model.config.positions, error);
    if (!tokenizer)
        return false;
    QJsonObject config = llamaConfigJson(model.config, beginning);
    if (!training.isEmpty())
        config.insert(QStringLiteral("attention_explorer_training"), training);
    const QDir dir(folder);
    return writeFileAtomically(dir.filePath(QStringLiteral("config.json")), QJsonDocument(config).toJson(), error)
           && writeSafetensors(dir.filePath(QStringLiteral("model.safetensors")), llamaTensors(model),
                               safetensorsMetadata(), error)
           && writeFileAtomically(dir.filePath(QStringLiteral("tokenizer.json")), tokenizer->tokenizerJson, error)
           && writeFileAtomically(dir.filePath(QStringLiteral("tokenizer_config.json")),
                                  tokenizer->tokenizerConfigJson, error);
}

bool writeAll(const QString &folder, const ModelParameters &model, const std::vector<QByteArray> &symbols,
              const QJsonObject &training, QString *error)
{
    if (storesOutByIn(model.config))
        return writeLlama(folder, model, symbols, training, error);
    const std::optional<ByteLevelTokenizerFiles> tokenizer = byteLevelTokenizerFiles(symbols, error);
    if (!tokenizer)
        return false;
    QJsonObject config = gpt2ConfigJson(model.config);
    if (!training.isEmpty())
        config.insert(QStringLiteral("attention_explorer_training"), training);
    const QDir dir(folder);
    return writeFileAtomically(dir.filePath(QStringLiteral("config.json")), QJsonDocument(config).toJson(), error)
           && writeSafetensors(dir.filePath(QStringLiteral("model.safetensors")), gpt2Tensors(model),
                               safetensorsMetadata(), error)
           && writeFileAtomically(dir.filePath(QStringLiteral("vocab.json")), tokenizer->vocabJson, error)
           && writeFileAtomically(dir.filePath(QStringLiteral("merges.txt")), tokenizer->mergesTxt, error);
}

// Beside DIR while a save runs: the new folder being written, and (only
// where folders cannot be swapped atomically) the old one moved aside.
constexpr char kFreshSuffix[] = ".tmp-";
constexpr char kOldSuffix[] = ".old-";

bool exchangeFolders(const QString &a, const QString &b)
{
#ifdef RENAME_EXCHANGE
    return ::renameat2(AT_FDCWD, QFile::encodeName(a).constData(), AT_FDCWD, QFile::encodeName(b).constData(),
                       RENAME_EXCHANGE) == 0;
#else
    Q_UNUSED(a);
    Q_UNUSED(b);
    return false;
#endif
}

} // namespace

void recoverInterruptedSave(const QString &target)
{
    const QFileInfo info(target);
    const QDir parent = info.absoluteDir();
    const QString base = info.fileName();
    for (const char *suffix : {kOldSuffix, kFreshSuffix}) {
        const QString prefix = base + QLatin1String(suffix);
        // Not a name filter: DIR's own name may hold * or [.
        const QStringList names = parent.entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::NoSymLinks);
        for (const QString &name : names) {
            if (!name.startsWith(prefix) || name.size() != prefix.size() + 6)
                continue;
            const QString path = parent.filePath(name);
            if (suffix == kOldSuffix && !QFileInfo::exists(target) && QDir().rename(path, target))
                continue;
            QDir(path).removeRecursively();
        }
    }
}

QJsonObject gpt2ConfigJson(const ModelConfig &c)
{
    QJsonObject o;
    o.insert(QStringLiteral("model_type"), QStringLiteral("gpt2"));
    o.insert(QStringLiteral("architectures"), QJsonArray{QStringLiteral("GPT2LMHeadModel")});
    o.insert(QStringLiteral("n_layer"), c.layers);
    o.insert(QStringLiteral("n_head"), c.heads);
    o.insert(QStringLiteral("n_embd"), c.dModel);
    o.insert(QStringLiteral("n_positions"), c.positions);
    o.insert(QStringLiteral("n_ctx"), c.positions);
    o.insert(QStringLiteral("vocab_size"), c.vocab);
    o.insert(QStringLiteral("n_inner"), c.dFF == 4 * c.dModel ? QJsonValue() : QJsonValue(c.dFF));
    o.insert(QStringLiteral("activation_function"), QStringLiteral("gelu_new"));
    o.insert(QStringLiteral("layer_norm_epsilon"), c.normEpsilon);
    o.insert(QStringLiteral("tie_word_embeddings"), true);
    o.insert(QStringLiteral("scale_attn_weights"), true);
    // No dropout at inference.
    for (const char *name : {"resid_pdrop", "embd_pdrop", "attn_pdrop"})
        o.insert(QLatin1String(name), 0.0);
    // GPT-2's bos and eos are <|endoftext|>, a token these models lack; naming
    // one of the task's symbols instead would make transformers' generate()
    // stop whenever the model produces it. Null: no such token (GPT2Config's
    // default, 50256, is outside the vocabulary).
    o.insert(QStringLiteral("bos_token_id"), QJsonValue());
    o.insert(QStringLiteral("eos_token_id"), QJsonValue());
    return o;
}

QJsonObject llamaConfigJson(const ModelConfig &c, int beginning)
{
    QJsonObject o;
    o.insert(QStringLiteral("model_type"), QStringLiteral("llama"));
    o.insert(QStringLiteral("architectures"), QJsonArray{QStringLiteral("LlamaForCausalLM")});
    o.insert(QStringLiteral("num_hidden_layers"), c.layers);
    o.insert(QStringLiteral("num_attention_heads"), c.heads);
    o.insert(QStringLiteral("num_key_value_heads"), c.kvHeads());
    o.insert(QStringLiteral("hidden_size"), c.dModel);
    o.insert(QStringLiteral("head_dim"), c.headDim());
    o.insert(QStringLiteral("intermediate_size"), c.dFF);
    o.insert(QStringLiteral("max_position_embeddings"), c.positions);
    o.insert(QStringLiteral("vocab_size"), c.vocab);
    o.insert(QStringLiteral("hidden_act"), QStringLiteral("silu"));
    o.insert(QStringLiteral("rms_norm_eps"), c.normEpsilon);
    o.insert(QStringLiteral("rope_theta"), c.rotary.theta);
    o.insert(QStringLiteral("rope_scaling"), QJsonValue());
    o.insert(QStringLiteral("attention_bias"), false);
    o.insert(QStringLiteral("attention_dropout"), 0.0);
    o.insert(QStringLiteral("mlp_bias"), false);
    o.insert(QStringLiteral("tie_word_embeddings"), c.tiedUnembedding);
    o.insert(QStringLiteral("initializer_range"), 0.02);
    o.insert(QStringLiteral("pretraining_tp"), 1);
    o.insert(QStringLiteral("use_cache"), true);
    o.insert(QStringLiteral("torch_dtype"), QStringLiteral("float32"));
    // The beginning token the tokenizer adds; no end token (LlamaConfig's
    // default, 2, would name one of the task's words).
    o.insert(QStringLiteral("bos_token_id"), beginning >= 0 ? QJsonValue(beginning) : QJsonValue());
    o.insert(QStringLiteral("eos_token_id"), QJsonValue());
    return o;
}

QString checkOutputFolder(const QString &dir)
{
    const QFileInfo info(dir);
    if (info.exists() && !info.isDir())
        return QStringLiteral("-o %1: exists and is not a folder").arg(dir);
    const QFileInfo parent(info.absolutePath());
    if (!parent.isDir())
        return QStringLiteral("-o %1: the folder %2 does not exist").arg(dir, parent.filePath());
    if (!parent.isWritable())
        return QStringLiteral("-o %1: cannot write in %2").arg(dir, parent.filePath());
    return {};
}

bool saveModelFolder(const ModelParameters &model, const std::vector<QByteArray> &symbols,
                     const QJsonObject &training, const QString &dir, QString *error)
{
    const QString problem = checkOutputFolder(dir);
    if (!problem.isEmpty()) {
        *error = problem;
        return false;
    }
    const QString target = QFileInfo(dir).absoluteFilePath();
    recoverInterruptedSave(target);
    QTemporaryDir fresh(target + QLatin1String(kFreshSuffix) + QStringLiteral("XXXXXX"));
    if (!fresh.isValid()) {
        *error = QStringLiteral("%1: cannot create a folder beside it (%2)").arg(dir, fresh.errorString());
        return false;
    }
    if (!writeAll(fresh.path(), model, symbols, training, error))
        return false; // the temporary folder goes, the old one stays
    if (!QFileInfo::exists(target)) {
        if (!QDir().rename(fresh.path(), target)) {
            *error = QStringLiteral("%1: cannot move the new model into place").arg(dir);
            return false;
        }
        fresh.setAutoRemove(false);
        return true;
    }
    // One atomic swap: at every moment DIR is the whole old model or the whole
    // new one, even under kill -9. The old one then sits at the temporary name,
    // which `fresh` removes.
    if (exchangeFolders(fresh.path(), target))
        return true;
    // Filesystems without RENAME_EXCHANGE: move the old folder aside, then the
    // new one in (a rename cannot replace a non-empty folder). A kill between
    // the two leaves only DIR.old-*, which the next save puts back first.
    QTemporaryDir old(target + QLatin1String(kOldSuffix) + QStringLiteral("XXXXXX"));
    const QString aside = old.path();
    old.remove();
    if (aside.isEmpty() || !QDir().rename(target, aside)) {
        *error = QStringLiteral("%1: cannot replace the folder").arg(dir);
        return false;
    }
    if (!QDir().rename(fresh.path(), target)) {
        QDir().rename(aside, target);
        *error = QStringLiteral("%1: cannot move the new model into place").arg(dir);
        return false;
    }
    fresh.setAutoRemove(false);
    QDir(aside).removeRecursively();
    return true;
}

} // namespace attn
