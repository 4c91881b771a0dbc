#pragma once
// Writes the open session to a recovery file every few seconds while it has
// unsaved changes, so a crash loses at most the last few seconds of work.

#include <QObject>
#include <QString>
#include <QStringList>

class Document;
class QTimer;
class QWidget;

class Autosaver : public QObject
{
    Q_OBJECT
public:
    // `directory` holds the recovery files; one per running process.
    Autosaver(Document *document, const QString &directory, QObject *parent = nullptr);
    ~Autosaver() override;

    // attn::appDataFolder()/recovery, or $ATTN_RECOVERY_DIR.
    static QString defaultDirectory();
    // Where earlier versions kept recovery files (none when
    // $ATTN_RECOVERY_DIR is set): a crash before an update is still offered.
    static QStringList earlierDirectories();
    static constexpr int kDefaultIntervalMs = 3000;

    void setInterval(int milliseconds);
    QString recoveryPath() const { return m_path; }

    // Writes now if there are changes the recovery file does not have yet.
    bool saveNow();
    // Removes this process's recovery file (after a save, or a clean exit).
    void discard();

    // Recovery files left by processes that are no longer running.
    static QStringList orphanedFiles(const QString &directory);
    // The file a recovered session was opened from, if it had one.
    static QString originalPath(const QString &recoveryFile);

    // At start-up: if an earlier run crashed with unsaved changes, asks
    // whether to restore them and does; the files are removed either way.
    static void offerRecovery(Document *document, QWidget *parent, const QString &directory);

private:
    Document *m_document;
    QString m_path;
    QTimer *m_timer;
    bool m_pending = false;
};
