#include "fileactions.h"

#include "document.h"
#include "lessons/examples.h"
#include "menumnemonics.h"
#include "modeldocument.h"
#include "modelfiledialog.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>

namespace {
const QString kRecentKey = QStringLiteral("files/recent");
const QString kLastDirKey = QStringLiteral("files/lastDir");

QString sessionFilter()
{
    return QObject::tr("Attention Explorer sessions (*.attn.json *.json);;All files (*)");
}
} // namespace

FileActions::FileActions(Document *document, QMainWindow *window)
    : QObject(window), m_document(document), m_window(window)
{
    connect(document, &Document::filePathChanged, this, &FileActions::updateTitle);
    connect(document, &Document::modifiedChanged, this, &FileActions::updateTitle);
    connect(document->model(), &ModelDocument::opened, this, &FileActions::updateTitle);
    connect(document->model(), &ModelDocument::closed, this, &FileActions::updateTitle);
    updateTitle();
}

void FileActions::populateMenu(QMenu *menu)
{
    menu->addAction(tr("&New"), this, &FileActions::newSession)->setShortcut(QKeySequence::New);
    populateExamplesMenu(menu->addMenu(tr("New from E&xample")));
    menu->addAction(tr("&Open…"), this, &FileActions::open)->setShortcut(QKeySequence::Open);
    m_recentMenu = menu->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    menu->addSeparator();
    menu->addAction(tr("&Save"), this, &FileActions::save)->setShortcut(QKeySequence::Save);
    menu->addAction(tr("Save &As…"), this, &FileActions::saveAs)->setShortcut(QKeySequence::SaveAs);
}

void FileActions::populateExamplesMenu(QMenu *menu)
{
    menu->setToolTipsVisible(true);
    for (const attn::Example &example : attn::builtInExamples()) {
        QAction *action = menu->addAction(example.title);
        MenuMnemonics::markAutomatic(action);
        action->setToolTip(example.description);
        action->setStatusTip(example.description);
        action->setObjectName(QStringLiteral("example-") + example.id);
        const attn::Session session = example.session;
        connect(action, &QAction::triggered, this, [this, session] { openExample(session); });
    }
}

bool FileActions::openExample(const attn::Session &session)
{
    if (!maybeSave())
        return false;
    m_document->newSession(session);
    return true;
}

void FileActions::newSession()
{
    if (maybeSave())
        m_document->newSession();
}

void FileActions::open()
{
    if (!maybeSave())
        return;
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open session"),
                                                      settings.value(kLastDirKey).toString(), sessionFilter());
    if (!path.isEmpty())
        openPath(path);
}

bool FileActions::openPath(const QString &path)
{
    QString error;
    if (!m_document->openFile(path, &error)) {
        showError(error);
        if (m_document->missingModelFolder().isEmpty() || !m_interactive)
            return false;
        // The session names a model that is not where it was: let the user point to it.
        const QString folder = ModelFileDialog::getModel(m_window, tr("Locate the session's model"),
                                                         QFileInfo(m_document->missingModelFolder()).path());
        if (folder.isEmpty() || !m_document->openFile(path, &error, folder)) {
            if (!folder.isEmpty())
                showError(error);
            return false;
        }
    }
    addRecent(path);
    return true;
}

bool FileActions::save()
{
    if (m_document->filePath().isEmpty())
        return saveAs();
    return saveTo(m_document->filePath());
}

bool FileActions::saveAs()
{
    QSettings settings;
    QString suggestion = m_document->filePath();
    if (suggestion.isEmpty())
        suggestion = QFileInfo(settings.value(kLastDirKey, QStandardPaths::writableLocation(
                                                                QStandardPaths::DocumentsLocation))
                                   .toString(),
                               tr("untitled.attn.json"))
                         .filePath();
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save session"), suggestion, sessionFilter());
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".json")))
        path += QStringLiteral(".attn.json");
    return saveTo(path);
}

bool FileActions::saveTo(const QString &path)
{
    QString error;
    if (!m_document->saveFile(path, &error)) {
        showError(error);
        return false;
    }
    addRecent(path);
    return true;
}

bool FileActions::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const auto answer = !m_interactive ? m_unsavedAnswer
                                       : QMessageBox::warning(m_window, tr("Unsaved changes"),
                                                              tr("The session has changes that are not saved. Save them first?"),
                                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                                              QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

QStringList FileActions::recentFiles() const { return QSettings().value(kRecentKey).toStringList(); }

void FileActions::addRecent(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList recent = recentFiles();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings settings;
    settings.setValue(kRecentKey, recent);
    settings.setValue(kLastDirKey, QFileInfo(absolute).absolutePath());
    rebuildRecentMenu();
}

void FileActions::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    for (int i = 0; i < recent.size(); ++i) {
        const QString path = recent[i];
        m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()), this,
                                [this, path] {
                                    if (maybeSave())
                                        openPath(path);
                                })
            ->setToolTip(path);
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
    if (!recent.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear list"), this, [this] {
            QSettings().remove(kRecentKey);
            rebuildRecentMenu();
        });
    }
}

void FileActions::updateTitle()
{
    const QString path = m_document->filePath();
    const QString name = path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
    m_window->setWindowFilePath(path);
    // The model first: it is what the views show, and what a task bar has room for.
    const ModelDocument *model = m_document->model();
    m_window->setWindowTitle(model->isOpen() ? tr("%1 · %2[*] — Attention Explorer").arg(model->name(), name)
                                             : tr("%1[*] — Attention Explorer").arg(name));
    m_window->setWindowModified(m_document->isModified());
}

void FileActions::showError(const QString &message)
{
    emit errorOccurred(message);
    if (m_interactive)
        QMessageBox::warning(m_window, tr("Attention Explorer"), message);
}
