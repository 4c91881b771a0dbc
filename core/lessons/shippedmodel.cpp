#include "lessons/shippedmodel.h"

#include "io/appfolders.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QTemporaryDir>

namespace attn {
namespace {

// A GPT-2 folder's files, and a Llama one's (its tokenizer in tokenizer.json).
const QStringList kGpt2Files = {QStringLiteral("config.json"), QStringLiteral("model.safetensors"),
                                QStringLiteral("vocab.json"), QStringLiteral("merges.txt")};
const QStringList kLlamaFiles = {QStringLiteral("config.json"), QStringLiteral("model.safetensors"),
                                 QStringLiteral("tokenizer.json"), QStringLiteral("tokenizer_config.json")};

struct Lesson
{
    QString name, exampleText;
    int query = -1, key = -1;
    QStringList files = kGpt2Files;
};

Lesson lessonOf(ShippedLesson lesson)
{
    switch (lesson) {
    case ShippedLesson::InductionHeads: return {QStringLiteral("induction"), QStringLiteral("qmEjxBtrkwaDcsqmEjxBtrkwaDcs")};
    case ShippedLesson::Pronouns: // from "it" (token 7) to "box" (token 5)
        return {QStringLiteral("pronoun"), QStringLiteral("The girl passed the red box and it"), 7, 5};
    case ShippedLesson::LlamaPronouns: // from "it" (token 10) to "lamp" (token 8), after the beginning token 0
        return {QStringLiteral("pronoun-llama"), QStringLiteral("The small boy found the old red lamp and it"), 10, 8,
                kLlamaFiles};
    }
    return {};
}

QString resourceOf(const Lesson &lesson) { return QStringLiteral(":/attention-explorer/models/%1/").arg(lesson.name); }

// The folder name carries a digest of the embedded files: a new build with a
// retrained model unpacks next to the old copy instead of mixing with it.
QString contentDigest(const QString &resource, const QStringList &files)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString &name : files) {
        QFile f(resource + name);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        hash.addData(f.readAll());
    }
    return QString::fromLatin1(hash.result().toHex().left(12));
}

} // namespace

std::optional<ShippedModel> shippedModel(ShippedLesson which, QString *error, const QString &cacheRoot)
{
    const Lesson lesson = lessonOf(which);
    const QString resource = resourceOf(lesson);
    const QString digest = contentDigest(resource, lesson.files);
    if (digest.isEmpty()) {
        *error = QCoreApplication::translate("ShippedModel", "the trained example model is missing from this build");
        return std::nullopt;
    }
    const QString root = cacheRoot.isEmpty() ? attn::appCacheFolder() : cacheRoot;
    const QString folder = QDir(root).filePath(QStringLiteral("models/%1-%2").arg(lesson.name, digest));
    const ShippedModel model{folder, lesson.exampleText, lesson.query, lesson.key};
    if (QFile::exists(QDir(folder).filePath(QStringLiteral("model.safetensors"))))
        return model;
    if (!QDir().mkpath(QFileInfo(folder).path())) {
        *error = QCoreApplication::translate("ShippedModel", "cannot create %1").arg(QFileInfo(folder).path());
        return std::nullopt;
    }
    // Written beside its final place, then renamed in one step.
    QTemporaryDir staging(folder + QStringLiteral(".tmp-XXXXXX"));
    if (!staging.isValid()) {
        *error = QCoreApplication::translate("ShippedModel", "cannot write to %1").arg(QFileInfo(folder).path());
        return std::nullopt;
    }
    for (const QString &name : lesson.files) {
        const QString target = staging.filePath(name);
        QFile::remove(target);
        if (!QFile::copy(resource + name, target)) {
            *error = QCoreApplication::translate("ShippedModel", "cannot write %1").arg(target);
            return std::nullopt;
        }
        QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    }
    if (!QDir().rename(staging.path(), folder) && !QFile::exists(QDir(folder).filePath(QStringLiteral("model.safetensors")))) {
        *error = QCoreApplication::translate("ShippedModel", "cannot move the example model into %1").arg(folder);
        return std::nullopt;
    }
    return model;
}

} // namespace attn
