#include "exportseries.h"

#include "formats/savefile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <memory>
#include <vector>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Exporter", text);
}

} // namespace

QString eachHeadPath(const QString &path, int index, int count)
{
    const QFileInfo info(path);
    const int width = int(QString::number(std::max(count - 1, 0)).size());
    const QString name = info.completeBaseName() + QStringLiteral("-head")
        + QStringLiteral("%1").arg(index, width, 10, QLatin1Char('0'))
        + (info.suffix().isEmpty() ? QString() : QLatin1Char('.') + info.suffix());
    // Keep the directory as it was given: relative stays relative.
    const int slash = int(path.lastIndexOf(QLatin1Char('/')));
    return slash < 0 ? name : path.left(slash + 1) + name;
}

QStringList eachHeadPaths(const QString &path, int count)
{
    QStringList paths;
    for (int k = 0; k < count; ++k)
        paths << eachHeadPath(path, k, count);
    return paths;
}

QString checkEachHead(const SnapshotPtr &snapshot, const ExportOptions &options, const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    const std::optional<ExportFormat> format = exportFormatForPath(path);
    if (format == ExportFormat::Json)
        return name + QStringLiteral(": ") + tr("the result file already holds every head; use one .json file");
    if (options.view == ExportView::Heads)
        return name + QStringLiteral(": ") + tr("the heads view already shows every head in one picture");
    if (options.view == ExportView::Bars)
        return name + QStringLiteral(": ") + tr("the bar chart shows the output of all heads together, not one head");
    // Every head passes the same checks as head 0, the suffix, query and size among them.
    ExportOptions first = options;
    first.head = 0;
    return checkExport(snapshot, first, path);
}

bool exportEachHead(const attn::Session &session, const SnapshotPtr &snapshot, const ExportOptions &options,
                    const QString &path, QStringList *written, QString *error)
{
    written->clear();
    const QString problem = checkEachHead(snapshot, options, path);
    if (!problem.isEmpty()) {
        *error = problem;
        return false;
    }
    const QStringList paths = eachHeadPaths(path, int(snapshot->result->heads.size()));
    const ExportFormat format = *exportFormatForPath(path);
    // Every file complete in its temporary file before any is renamed: a
    // failure on head 5 leaves heads 0 to 4 of an earlier export untouched.
    std::vector<std::unique_ptr<QSaveFile>> files;
    for (int k = 0; k < paths.size(); ++k) {
        const QString name = QFileInfo(paths[k]).fileName();
        if (QFileInfo(paths[k]).isDir()) {
            *error = tr("%1: cannot write: it is a folder").arg(name);
            return false; // the files written so far are cancelled as they go out of scope
        }
        auto file = std::make_unique<QSaveFile>(paths[k]);
        if (!file->open(QIODevice::WriteOnly)) {
            *error = tr("%1: cannot write: %2").arg(name, file->errorString());
            return false;
        }
        ExportOptions one = options;
        one.head = k;
        if (!writeExport(file.get(), session, snapshot, one, format, name, error)) {
            file->cancelWriting();
            return false;
        }
        files.push_back(std::move(file));
    }
    for (int k = 0; k < paths.size(); ++k) {
        if (!attn::commitSaveFile(*files[std::size_t(k)], QFileInfo(paths[k]).fileName(), error))
            return false;
        *written << paths[k];
    }
    return true;
}
