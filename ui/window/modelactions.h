#pragma once
// Trained models in the window: File › Open Model…, the Models submenu of
// the Hugging Face cache, Close Model, dropped folders, the layer selector,
// the layers × heads grid in the "All heads" dock and the next-token dock.
// The window creates it and calls a few hooks; the rest is wired here.

#include <QObject>
#include <QPointer>

class Document;
class MainWindow;
class ModelDocument;
class ModelGridView;
class NextTokenView;
class QComboBox;
class QDockWidget;
class QHBoxLayout;
class QLabel;
class QMenu;
class QWidget;

class ModelActions : public QObject
{
    Q_OBJECT
public:
    ModelActions(Document *document, MainWindow *window);

    // The layer selector, put before the head box by the window.
    void addLayerControls(QHBoxLayout *tools);
    // Open Model…, Models and Close Model in the File menu, and the docks.
    void populateMenu(QMenu *file);
    // The Models submenu again, from listCachedModels() (done before it shows).
    void rebuildModelsMenu();

    // Opens a model folder (asynchronously; modelOpened or an error follows).
    void openFolder(const QString &path);
    void closeModel();
    // While a model is open, shows its tokens and heads in the window's
    // chips and head box and returns true: the session's must not replace them.
    bool applyToWindow();

    ModelGridView *grid() const { return m_grid; }
    NextTokenView *nextTokens() const { return m_next; }
    QComboBox *layerBox() const { return m_layerBox; }
    QMenu *modelsMenu() const { return m_modelsMenu; }
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

    Document *m_document;
    ModelDocument *m_model;
    MainWindow *m_window;
    ModelGridView *m_grid = nullptr;
    NextTokenView *m_next = nullptr;
    QDockWidget *m_nextDock = nullptr;
    QComboBox *m_layerBox = nullptr;
    QLabel *m_layerLabel = nullptr;
    QMenu *m_modelsMenu = nullptr;
    QPointer<QWidget> m_headsWidget; // the per-head grid the dock shows without a model
    QString m_lastError;
    const void *m_gridTrace = nullptr; // the trace the grid's thumbnails show
};
