#include "autosaver.h"

#include "document.h"
#include "io/appfolders.h"
#include "session/sessionio.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QTimer>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <csignal>
#endif

namespace {

const char kOriginalKey[] = "autosave_of";

bool processIsRunning(qint64 pid)
{
#ifdef Q_OS_UNIX
    return pid > 0 && (::kill(pid_t(pid), 0) == 0 || errno == EPERM);
#else
    Q_UNUSED(pid);
    return false;
#endif
}

} // namespace

Autosaver::Autosaver(Document *document, const QString &directory, QObject *parent)
    : QObject(parent), m_document(document), m_timer(new QTimer(this))
{
    QDir().mkpath(directory);
    m_path = QDir(directory).filePath(
        QStringLiteral("recovery-%1.attn.json").arg(QCoreApplication::applicationPid()));
    m_timer->setInterval(kDefaultIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &Autosaver::saveNow);
    m_timer->start();

    const auto changed = [this] { m_pending = m_document->isModified(); };
    connect(document, &Document::sessionChanged, this, changed);
    connect(document, &Document::queryChanged, this, changed);
    connect(document, &Document::modifiedChanged, this, [this](bool modified) {
        m_pending = modified;
        if (!modified)
            discard(); // saved (or undone back to the saved state): nothing to recover
    });
}

Autosaver::~Autosaver() = default;

QString Autosaver::defaultDirectory()
{
    if (qEnvironmentVariableIsSet("ATTN_RECOVERY_DIR"))
        return qEnvironmentVariable("ATTN_RECOVERY_DIR");
    return QDir(attn::appDataFolder()).filePath(QStringLiteral("recovery"));
}

QStringList Autosaver::earlierDirectories()
{
    if (qEnvironmentVariableIsSet("ATTN_RECOVERY_DIR"))
        return {};
    QStringList directories;
    for (const QString &earlier : attn::earlierAppDataFolders())
        directories << QDir(earlier).filePath(QStringLiteral("recovery"));
    return directories;
}

void Autosaver::setInterval(int milliseconds) { m_timer->setInterval(milliseconds); }

bool Autosaver::saveNow()
{
    if (!m_pending || !m_document->isModified())
        return false;
    QJsonObject root = QJsonDocument::fromJson(attn::sessionToJson(m_document->session())).object();
    root[kOriginalKey] = m_document->filePath();
    QString error;
    if (!attn::writeFileAtomically(m_path, QJsonDocument(root).toJson(QJsonDocument::Compact), &error)) {
        qWarning("autosave: %s", qPrintable(error));
        return false;
    }
    m_pending = false;
    return true;
}

void Autosaver::discard()
{
    QFile::remove(m_path);
}

QStringList Autosaver::orphanedFiles(const QString &directory)
{
    QStringList files;
    const QDir dir(directory);
    const QStringList names = dir.entryList({QStringLiteral("recovery-*.attn.json")}, QDir::Files, QDir::Time);
    for (const QString &name : names) {
        const qint64 pid = name.section('-', 1).section('.', 0, 0).toLongLong();
        if (pid != QCoreApplication::applicationPid() && !processIsRunning(pid))
            files << dir.filePath(name);
    }
    return files;
}

QString Autosaver::originalPath(const QString &recoveryFile)
{
    QFile file(recoveryFile);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String(kOriginalKey)).toString();
}

void Autosaver::offerRecovery(Document *document, QWidget *parent, const QString &directory)
{
    const QStringList files = orphanedFiles(directory);
    if (files.isEmpty())
        return;
    const QString newest = files.first(); // listed newest first
    QString error;
    const std::optional<attn::Session> session = attn::readSession(newest, &error);
    if (session) {
        const QString original = originalPath(newest);
        const QString when = QLocale().toString(QFileInfo(newest).lastModified(), QLocale::ShortFormat);
        const auto answer = QMessageBox::question(
            parent, QObject::tr("Restore unsaved work?"),
            QObject::tr("Attention Explorer did not close normally. Unsaved changes to %1 from %2 were kept. "
                        "Restore them?")
                .arg(original.isEmpty() ? QObject::tr("an untitled session") : QFileInfo(original).fileName(), when),
            QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
        if (answer == QMessageBox::Yes)
            document->restoreRecovered(*session, original);
    }
    for (const QString &file : files)
        QFile::remove(file);
}
