#include "io/ollamastore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <algorithm>

namespace attn {
namespace {

const QString kModelLayer = QStringLiteral("application/vnd.ollama.image.model");
const QString kPrefix = QStringLiteral("ollama:");
const QString kDefaultHost = QStringLiteral("registry.ollama.ai");
const QString kDefaultNamespace = QStringLiteral("library");
constexpr qsizetype kMaxNameChars = 512;
// A store is a list of folders a user made by pulling models; more than this
// many manifests is not one (and would keep a list from ever finishing).
constexpr int kMaxManifests = 10000;

// types/model/name.go isValidPart: letters, digits, '_', '-', '.', never two
// dots in a row (so never "." or ".." either: each part becomes a folder).
bool validPart(const QString &part, bool dots, bool colons)
{
    if (part.isEmpty() || part.contains(QLatin1String("..")) || part == QLatin1String("."))
        return false;
    for (const QChar c : part) {
        const char16_t u = c.unicode();
        const bool ok = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_'
                        || u == '-' || (dots && u == '.') || (colons && u == ':');
        if (!ok)
            return false;
    }
    return true;
}

// A part of a name or manifest in a one-line message: short, no line breaks.
QString shownText(const QString &text)
{
    QString shown = text.size() > 80 ? text.left(77) + QStringLiteral("...") : text;
    for (QChar &c : shown)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f || c.category() == QChar::Separator_Line
            || c.category() == QChar::Separator_Paragraph)
            c = QLatin1Char('?');
    return shown;
}

// The entry of `dir` named `name`, regardless of case when there is no exact
// one (Ollama compares names case-insensitively; some versions wrote the
// folders in lower case). Empty when there is none.
QString matchChild(const QString &dir, const QString &name, bool wantFile)
{
    const QFileInfo exact(dir + QLatin1Char('/') + name);
    if (wantFile ? exact.isFile() : exact.isDir())
        return exact.filePath();
    const QDir::Filters filters = (wantFile ? QDir::Files : QDir::Dirs) | QDir::NoDotAndDotDot | QDir::Hidden;
    for (const QString &entry : QDir(dir).entryList(filters, QDir::Name))
        if (entry.compare(name, Qt::CaseInsensitive) == 0)
            return dir + QLatin1Char('/') + entry;
    return {};
}

const QRegularExpression &digestForm()
{
    // Anchored at the very end: "$" would also match before a final line break.
    static const QRegularExpression form(QRegularExpression::anchoredPattern(QStringLiteral("sha256[:-][0-9a-fA-F]{64}")));
    return form;
}

} // namespace

QStringList ollamaStoreRoots()
{
    QString env = qEnvironmentVariable("OLLAMA_MODELS").trimmed();
    while (!env.isEmpty() && (env.front() == QLatin1Char('"') || env.front() == QLatin1Char('\'')))
        env.remove(0, 1);
    while (!env.isEmpty() && (env.back() == QLatin1Char('"') || env.back() == QLatin1Char('\'')))
        env.chop(1);
    if (!env.isEmpty())
        return {QDir::cleanPath(env)};
    return {QDir::homePath() + QStringLiteral("/.ollama/models"), QStringLiteral("/usr/share/ollama/.ollama/models")};
}

QString OllamaName::shown() const
{
    QString out;
    const bool defaultHost = host.compare(kDefaultHost, Qt::CaseInsensitive) == 0;
    if (!defaultHost)
        out = host + QLatin1Char('/') + nameSpace + QLatin1Char('/');
    else if (nameSpace.compare(kDefaultNamespace, Qt::CaseInsensitive) != 0)
        out = nameSpace + QLatin1Char('/');
    return out + model + QLatin1Char(':') + tag;
}

QString OllamaName::manifestPath() const
{
    return QStringLiteral("manifests/%1/%2/%3/%4").arg(host, nameSpace, model, tag);
}

std::optional<OllamaName> parseOllamaName(const QString &name, QString *error)
{
    const auto fail = [&](const QString &why) {
        *error = why;
        return std::nullopt;
    };
    if (name.isEmpty())
        return fail(QStringLiteral("no model name after \"ollama:\" (for example ollama:qwen2.5:0.5b)"));
    if (name.size() > kMaxNameChars)
        return fail(QStringLiteral("a model name of %1 characters, longer than any Ollama accepts").arg(name.size()));
    OllamaName out;
    QString rest = name;
    // The tag is what follows the last ':' only when no '/' comes after it.
    const qsizetype colon = name.lastIndexOf(QLatin1Char(':'));
    if (colon > name.lastIndexOf(QLatin1Char('/'))) {
        out.tag = name.mid(colon + 1);
        rest = name.left(colon);
        if (out.tag.isEmpty())
            return fail(QStringLiteral("no tag after ':' in %1").arg(shownText(name)));
        if (!validPart(out.tag, true, false))
            return fail(QStringLiteral("%1 is not a tag (letters, digits, '_', '-' and '.')").arg(shownText(out.tag)));
    }
    const QStringList parts = rest.split(QLatin1Char('/'));
    if (parts.size() > 3)
        return fail(QStringLiteral("%1 has %2 parts before the tag; an Ollama name has at most three "
                                   "(host/namespace/model)").arg(shownText(rest), QString::number(parts.size())));
    out.model = parts.last();
    if (parts.size() >= 2)
        out.nameSpace = parts[parts.size() - 2];
    if (parts.size() == 3)
        out.host = parts[0];
    if (!validPart(out.model, true, false))
        return fail(QStringLiteral("%1 is not a model name (letters, digits, '_', '-' and '.')").arg(shownText(out.model)));
    if (!validPart(out.nameSpace, false, false))
        return fail(QStringLiteral("%1 is not a namespace (letters, digits, '_' and '-')").arg(shownText(out.nameSpace)));
    if (!validPart(out.host, true, true))
        return fail(QStringLiteral("%1 is not a host name").arg(shownText(out.host)));
    return out;
}

std::optional<OllamaManifest> parseOllamaManifest(const QByteArray &json, const QString &root, QString *error,
                                                  bool checkBlob)
{
    const auto fail = [&](const QString &why) {
        *error = why;
        return std::nullopt;
    };
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(QStringLiteral("the manifest is not valid JSON (%1 at byte %2)")
                        .arg(parseError.errorString()).arg(parseError.offset));
    if (!doc.isObject())
        return fail(QStringLiteral("the manifest is not a JSON object"));
    const QJsonObject manifest = doc.object();
    const QJsonValue layers = manifest.value(QLatin1String("layers"));
    if (!layers.isArray())
        return fail(QStringLiteral("the manifest has no \"layers\" list"));
    OllamaManifest out;
    int found = -1;
    const QJsonArray list = layers.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QJsonObject layer = list[i].toObject();
        if (layer.value(QLatin1String("mediaType")).toString() != kModelLayer)
            continue;
        const QJsonValue digest = layer.value(QLatin1String("digest"));
        if (!digest.isString() || !digestForm().match(digest.toString()).hasMatch())
            return fail(QStringLiteral("layer %1's digest %2 is not \"sha256:\" and 64 hex digits")
                            .arg(i).arg(digest.isString() ? QLatin1Char('"') + shownText(digest.toString()) + QLatin1Char('"')
                                                          : QStringLiteral("(not a string)")));
        // Ollama's loader keeps the last model layer.
        found = int(i);
        out.digest = digest.toString();
        const QJsonValue size = layer.value(QLatin1String("size"));
        out.modelBytes = size.isDouble() && size.toDouble() >= 0 && size.toDouble() < 9e15 ? qint64(size.toDouble()) : -1;
    }
    if (found < 0)
        return fail(QStringLiteral("the manifest names no GGUF weights (no layer of type %1: a model stored one "
                                   "tensor per layer cannot be opened)").arg(kModelLayer));
    const QString blobs = QDir::cleanPath(root) + QStringLiteral("/blobs/");
    const QString file = QStringLiteral("sha256-") + out.digest.mid(7);
    out.modelBlob = blobs + file;
    if (!QFileInfo(out.modelBlob).isFile() && QFileInfo(blobs + file.toLower()).isFile())
        out.modelBlob = blobs + file.toLower();
    if (checkBlob && !QFileInfo(out.modelBlob).isFile())
        return fail(QStringLiteral("its weights blob blobs/%1 is missing").arg(file));
    const QString config = manifest.value(QLatin1String("config")).toObject().value(QLatin1String("digest")).toString();
    if (digestForm().match(config).hasMatch())
        out.configBlob = blobs + QStringLiteral("sha256-") + config.mid(7);
    return out;
}

std::optional<OllamaManifest> readOllamaManifest(const QString &path, const QString &root, QString *error,
                                                 bool checkBlob)
{
    const QString shown = QStringLiteral("manifest ") + QDir(root + QStringLiteral("/manifests")).relativeFilePath(path);
    QFile file(path);
    if (!QFileInfo(path).isFile() || !file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot be read (%2)").arg(shown, file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxOllamaManifestBytes) {
        *error = QStringLiteral("%1: %2 bytes, more than a manifest holds").arg(shown).arg(file.size());
        return std::nullopt;
    }
    QString why;
    std::optional<OllamaManifest> manifest = parseOllamaManifest(file.read(kMaxOllamaManifestBytes), root, &why, checkBlob);
    if (!manifest)
        *error = shown + QStringLiteral(": ") + why;
    return manifest;
}

QList<OllamaManifestFile> ollamaManifestFiles(const QString &root)
{
    QList<OllamaManifestFile> out;
    const QDir::Filters dirs = QDir::Dirs | QDir::NoDotAndDotDot;
    const QString manifests = QDir::cleanPath(root) + QStringLiteral("/manifests");
    for (const QString &host : QDir(manifests).entryList(dirs, QDir::Name)) {
        for (const QString &ns : QDir(manifests + QLatin1Char('/') + host).entryList(dirs, QDir::Name)) {
            const QString nsDir = manifests + QLatin1Char('/') + host + QLatin1Char('/') + ns;
            for (const QString &model : QDir(nsDir).entryList(dirs, QDir::Name)) {
                const QString modelDir = nsDir + QLatin1Char('/') + model;
                for (const QString &tag : QDir(modelDir).entryList(QDir::Files, QDir::Name)) {
                    OllamaName name;
                    name.host = host;
                    name.nameSpace = ns;
                    name.model = model;
                    name.tag = tag;
                    // Ollama skips what is not a valid name; so does this.
                    if (!validPart(host, true, true) || !validPart(ns, false, false) || !validPart(model, true, false)
                        || !validPart(tag, true, false))
                        continue;
                    out.append({name, modelDir + QLatin1Char('/') + tag});
                    if (out.size() >= kMaxManifests)
                        return out;
                }
            }
        }
    }
    std::sort(out.begin(), out.end(), [](const OllamaManifestFile &a, const OllamaManifestFile &b) {
        return a.name.shown().compare(b.name.shown(), Qt::CaseInsensitive) < 0;
    });
    return out;
}

bool isOllamaModelName(const QString &model) { return model.startsWith(kPrefix); }

std::optional<QString> resolveOllamaModel(const QString &given, QString *error)
{
    const QString shown = isOllamaModelName(given) ? given : kPrefix + given;
    QString why;
    const std::optional<OllamaName> name = parseOllamaName(isOllamaModelName(given) ? given.mid(kPrefix.size()) : given, &why);
    if (!name) {
        *error = QStringLiteral("%1: %2").arg(shownText(shown), why);
        return std::nullopt;
    }
    const QStringList roots = ollamaStoreRoots();
    QString firstProblem;
    for (const QString &root : roots) {
        QString at = root + QStringLiteral("/manifests");
        for (const QString &part : {name->host, name->nameSpace, name->model}) {
            at = at.isEmpty() ? at : matchChild(at, part, false);
        }
        const QString manifest = at.isEmpty() ? QString() : matchChild(at, name->tag, true);
        if (manifest.isEmpty())
            continue;
        const std::optional<OllamaManifest> m = readOllamaManifest(manifest, root, &why);
        if (m)
            return m->modelBlob;
        if (firstProblem.isEmpty())
            firstProblem = why;
    }
    if (!firstProblem.isEmpty())
        *error = QStringLiteral("%1: %2").arg(shown, firstProblem);
    else
        *error = QStringLiteral("%1: no such model in the Ollama store (looked for %2 in %3)")
                     .arg(shown, name->manifestPath(), roots.join(QStringLiteral(" and ")));
    return std::nullopt;
}

} // namespace attn
