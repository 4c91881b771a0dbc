#include "formats/jsonconvert.h"
#include "formats/jsonformat.h"
#include "session/sessionio.h"

#include "formats/savefile.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <cerrno>
#include <cstring>

namespace attn {
namespace {

QJsonArray matrixList(const std::vector<Eigen::MatrixXd> &list)
{
    QJsonArray a;
    for (const Eigen::MatrixXd &m : list)
        a.append(matrixToJson(m));
    return a;
}

} // namespace

QByteArray sessionToJson(const Session &s)
{
    QJsonObject root;
    root["format"] = "attention-explorer-session";
    root["version"] = 1;
    if (!s.sentence.isEmpty())
        root["sentence"] = s.sentence;
    root["tokens"] = QJsonArray::fromStringList(s.tokens);
    root["embeddings"] = matrixToJson(s.embeddings);
    root["query"] = s.query;

    const AttentionConfig &a = s.attention;
    QJsonObject att;
    att["mode"] = a.mode == Mode::Simplified ? "simplified" : "scaled-dot-product";
    att["heads"] = a.heads;
    att["head_dim"] = a.headDim;
    att["causal"] = a.causal;
    att["scale"] = a.scale;
    att["positional_encoding"] = a.positionalEncoding == PositionalEncoding::Sinusoidal ? "sinusoidal"
                                 : a.rotary()                                          ? "rotary"
                                                                                       : "none";
    // Written when they say something: files without them read as before.
    if (a.rotary() || a.ropeTheta != kDefaultRopeTheta)
        att["rope_theta"] = a.ropeTheta;
    if (a.kvHeads > 0)
        att["kv_heads"] = a.kvHeads;
    att["output_projection"] = a.outputProjection;
    att["seed"] = qint64(a.seed);
    root["attention"] = att;

    QJsonObject w;
    if (!s.weights.query.empty())
        w["query"] = matrixList(s.weights.query);
    if (!s.weights.key.empty())
        w["key"] = matrixList(s.weights.key);
    if (!s.weights.value.empty())
        w["value"] = matrixList(s.weights.value);
    if (s.weights.output.size() > 0)
        w["output"] = matrixToJson(s.weights.output);
    if (!w.isEmpty())
        root["weights"] = w;

    if (s.source) {
        QJsonObject src;
        src["tokens"] = QJsonArray::fromStringList(s.source->tokens);
        src["embeddings"] = matrixToJson(s.source->embeddings);
        root["source"] = src;
    }
    if (s.model) {
        QJsonObject m;
        m["path"] = s.model->path;
        if (!s.model->identity.isEmpty())
            m["identity"] = s.model->identity;
        m["text"] = s.model->text;
        m["layer"] = s.model->layer;
        m["head"] = s.model->head;
        m["query"] = s.model->query;
        if (!s.model->ablated.empty()) {
            QJsonArray ablated;
            for (const auto &[layer, head] : s.model->ablated)
                ablated.append(QJsonArray{layer, head});
            m["ablated"] = ablated;
        }
        root["model"] = m;
    }
    return formatJson(root);
}

bool writeFileAtomically(const QString &path, const QByteArray &bytes, QString *error)
{
    QSaveFile file(path);
    const QString name = QFileInfo(path).fileName();
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("%1: cannot write: %2").arg(name, file.errorString());
        return false;
    }
    errno = 0;
    if (file.write(bytes) != bytes.size()) {
        const int code = errno;
        *error = QStringLiteral("%1: cannot write: %2")
                     .arg(name, code != 0 ? QString::fromLocal8Bit(std::strerror(code)) : file.errorString());
        file.cancelWriting();
        return false;
    }
    return commitSaveFile(file, name, error);
}

bool writeSession(const QString &path, const Session &session, QString *error)
{
    return writeFileAtomically(path, sessionToJson(session), error);
}

} // namespace attn
