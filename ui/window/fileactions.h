#pragma once
// File › New, Open, Open Recent, Save, Save As; the window title; asking
// before unsaved changes are thrown away; opening dropped files.

#include <QMessageBox>
#include <QObject>
#include <QStringList>

namespace attn {
struct Session;
}
class Document;
class QAction;
class QMainWindow;
class QMenu;

class FileActions : public QObject
{
    Q_OBJECT
public:
    FileActions(Document *document, QMainWindow *window);

    // Adds the actions to `menu` (the caller adds Export and Quit after them).
    void populateMenu(QMenu *menu);

    // One entry per built-in example (core/lessons/examples.h); used by File › New
    // from Example and by the window's Examples menu.
    void populateExamplesMenu(QMenu *menu);
    // A new, unsaved session on `session` (asks about unsaved changes first).
    bool openExample(const attn::Session &session);

    // The steps behind the actions, without dialogs, for tests and drops.
    bool openPath(const QString &path);
    bool saveTo(const QString &path);

    // Asks what to do with unsaved changes; false means "cancel". Everything
    // that would throw away unsaved work asks first, and nothing else: New,
    // Open, Open Recent, a dropped file, every example, Quit; and, when heads
    // of the open model are switched off since the last save, opening another
    // model or closing it. Choosing a query, head or layer is not a change.
    bool maybeSave();

    QStringList recentFiles() const;
    // Off in tests: errors are only signalled, and maybeSave() takes
    // `unsavedAnswer` (Cancel: the changes are kept; or Discard) instead of
    // asking in a dialog.
    void setInteractive(bool interactive, QMessageBox::StandardButton unsavedAnswer = QMessageBox::Cancel)
    {
        m_interactive = interactive;
        m_unsavedAnswer = unsavedAnswer;
    }
    static constexpr int kMaxRecent = 8;

signals:
    void errorOccurred(const QString &message);

public slots:
    void newSession();
    void open();
    bool save();
    bool saveAs();

private:
    void addRecent(const QString &path);
    void rebuildRecentMenu();
    void updateTitle();
    void showError(const QString &message);

    Document *m_document;
    QMainWindow *m_window;
    QMenu *m_recentMenu = nullptr;
    bool m_interactive = true;
    QMessageBox::StandardButton m_unsavedAnswer = QMessageBox::Cancel;
};
