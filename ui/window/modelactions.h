#pragma once
// Trained models in the window: File › Open Model…, File › Models on This
// Computer… (every store's models in one list), Close Model, dropped folders, the layer selector,
// the layers × heads grid in the "All heads" dock, the next-token dock, the
// attention rollout dock, the Compare runs dock, and switching heads off (the grid's and the head
// box's context menus).
// The window creates it and calls a few hooks; the rest is wired here.

#include "headref.h"

#include <QObject>
#include <optional>
#include <utility>
#include <QPointer>

class Document;
class LayerProgressBar;
class MainWindow;
class ModelDocument;
class ModelGridPanel;
class ModelListDialog;
class ModelGridView;
class NextTokenView;
class QComboBox;
class QDockWidget;
class QHBoxLayout;
class QLabel;
class QMenu;
class QPoint;
class RolloutView;
class QWidget;

class ModelActions : public QObject
{
    Q_OBJECT
public:
    ModelActions(Document *document, MainWindow *window);

    // The layer selector, put before the head box by the window.
    void addLayerControls(QHBoxLayout *tools);
    // Open Model…, Models on This Computer…, Close Model in the File menu, and the docks.
    void populateMenu(QMenu *file);
    // File › Models on This Computer: the list, listed again each time it is shown.
    void showModelList();

    // Opens a model folder (asynchronously; modelOpened or an error follows)
    // on what the sentence field shows, or on `text`. It starts as a file
    // names nothing: layer 0, head 0, query 0, no head switched off, the grid
    // showing attention only. Heads switched off in the model open before and
    // not saved are unsaved work: the window asks first (FileActions::maybeSave).
    void openFolder(const QString &path);
    void openFolderOn(const QString &path, const QString &text, const QString &name = QString());
    // As openFolderOn, then once this model's text is computed: the query on
    // token `query` and the grid's score "From the query to a token" at `key`.
    // `name` names the model in the window's title ("Trained Model: Pronouns").
    void openLesson(const QString &path, const QString &text, int query, int key, const QString &name);
    void closeModel(); // asks first, as openFolderOn does
    // While a model is open, shows its tokens and heads in the window's
    // chips and head box and returns true: the session's must not replace them.
    bool applyToWindow();

    // The context menu of `head` (the average only offers to switch every
    // head back on); the caller shows or deletes it.
    QMenu *headMenu(const HeadRef &head);
    void switchHead(int layer, int head, bool off);
    void switchAllOn();

    ModelGridView *grid() const { return m_grid; }
    ModelGridPanel *gridPanel() const { return m_gridPanel; }
    RolloutView *rollout() const { return m_rollout; }
    QDockWidget *rolloutDock() const { return m_rolloutDock; }
    QDockWidget *compareDock() const { return m_compareDock; }
    NextTokenView *nextTokens() const { return m_next; }
    LayerProgressBar *layerProgress() const { return m_progress; }
    QComboBox *layerBox() const { return m_layerBox; }
    ModelListDialog *modelList() const { return m_modelList; }
    QString lastError() const { return m_lastError; }

signals:
    void errorOccurred(const QString &message);

private:
    void onOpened();
    void onClosed();
    void onResult();
    void onLayer(int layer);
    void setModelMode(bool on);
    void updateGuesses();
    void updateProgress(); // the status bar's layers of a long run
    void onAblation();
    void updateHeadBoxMarks();
    void updateRollout();
    void updateGridScores();
    void updateEmbeddingPanel(); // the query's token of the model, in the Embedding dock
    void popupHeadMenu(const HeadRef &head, const QPoint &globalPos);
    // False when the user keeps the open model (unsaved switched-off heads, "Cancel").
    bool mayLeaveModel();

    Document *m_document;
    ModelDocument *m_model;
    MainWindow *m_window;
    ModelGridPanel *m_gridPanel = nullptr; // the grid and its score controls, in the heads dock
    std::optional<std::pair<int, int>> m_lessonStart; // query and key openLesson() applies to the first result
    bool m_lessonOpened = false; // its model is open: results are the lesson's own, not the model's before
    ModelGridView *m_grid = nullptr;
    NextTokenView *m_next = nullptr;
    LayerProgressBar *m_progress = nullptr;
    QDockWidget *m_nextDock = nullptr;
    RolloutView *m_rollout = nullptr;
    QDockWidget *m_rolloutDock = nullptr;
    QDockWidget *m_compareDock = nullptr;
    QComboBox *m_layerBox = nullptr;
    QLabel *m_layerLabel = nullptr;
    ModelListDialog *m_modelList = nullptr; // made when first shown, a child of the window
    QPointer<QWidget> m_headsWidget; // the per-head grid the dock shows without a model
    QString m_lastError;
};
