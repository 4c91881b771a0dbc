#include "shippedmodel.h"

#include "io/appfolders.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QTemporaryDir>

namespace attn {
namespace {

const char *const kFiles[] = {"config.json", "model.safetensors", "vocab.json", "merges.txt"};

struct Lesson
{
    QString name, exampleText;
    int query = -1, key = -1;
};

Lesson lessonOf(ShippedLesson lesson)
{
    switch (lesson) {
    case ShippedLesson::InductionHeads: return {QStringLiteral("induction"), QStringLiteral("qmEjxBtrkwaDcsqmEjxBtrkwaDcs")};
    case ShippedLesson::Pronouns: // from "it" (token 7) to "box" (token 5)
        return {QStringLiteral("pronoun"), QStringLiteral("The girl passed the red box and it"), 7, 5};
    }
    return {};
}

QString resourceOf(const Lesson &lesson) { return QStringLiteral(":/attention-explorer/models/%1/").arg(lesson.name); }

// The folder name carries a digest of the embedded files: a new build with a
// retrained model unpacks next to the old copy instead of mixing with it.
QString contentDigest(const QString &resource)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const char *name : kFiles) {
        QFile f(resource + QLatin1String(name));
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
    const QString digest = contentDigest(resource);
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
    for (const char *name : kFiles) {
        const QString target = staging.filePath(QLatin1String(name));
        QFile::remove(target);
        if (!QFile::copy(resource + QLatin1String(name), target)) {
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
