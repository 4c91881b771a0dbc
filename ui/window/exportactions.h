#pragma once
// File › Export and each view's right-click menu: pictures of the views,
// the numbers as CSV or JSON, and copies to the clipboard. The drawing and
// writing itself is the exporter's; this class only asks where and how big.

#include "exporter.h"

#include <QHash>
#include <QImage>
#include <QObject>
#include <functional>

class Document;
class QMenu;
class QWidget;

// What the window shows right now; exports follow it.
struct ExportViewState
{
    std::optional<int> head = 0; // of the shown layer; nullopt: the average over its heads
    bool showScores = false; // the heatmap shows raw scores instead of weights
    ColorMap colorMap = ColorMap::Viridis;
    bool firstTokenAside = false; // the heatmap and the heads show the first token set aside
};

class ExportActions : public QObject
{
    Q_OBJECT
public:
    // `window` parents the dialogs and owns this object.
    ExportActions(Document *document, QWidget *window);

    // Asked before every export; without one, exports show head 0's weights in viridis.
    void setStateProvider(std::function<ExportViewState()> provider) { m_state = std::move(provider); }

    // Adds an Export submenu to `fileMenu`.
    void addToMenu(QMenu *fileMenu);
    // Gives `view` a right-click menu with "Export this view…" and "Copy as
    // image", at the size it has on screen. A view attached as Heatmap
    // exports the scores when the window shows scores.
    void attachContextMenu(QWidget *view, ExportView kind);

    // What a picture export of `view` starts from: its size in logical pixels
    // and its PNG pixel ratio. A view on screen exports at its own size, but
    // the heads grid exports the picture `export --view heads` makes (titled
    // tiles with token labels, at the command line's size: the dock's
    // squeezed grid is no picture for a slide); PNGs start at 2x, sharp on a
    // projector.
    struct PictureDefaults
    {
        QSize size;
        double scale = 2.0;
    };
    PictureDefaults pictureDefaults(ExportView view, const QWidget *shownIn = nullptr) const;

    // Off in tests: errors are only signalled, never shown in a message box.
    void setInteractive(bool interactive) { m_interactive = interactive; }

    // The options an export of `view` uses: the window's state and query, a
    // light palette and the export font.
    ExportOptions optionsFor(ExportView view) const;

    // The steps behind the actions, without dialogs, for tests and scripts.
    // An empty size picks the view's export size; the suffix picks the format.
    bool exportTo(ExportView view, const QString &path, const QSize &size = QSize(), double scale = 1.0,
                  bool transparent = false);
    // Every head of `view` into its own file, named as eachHeadPath() says
    // ("attention-heatmap.png" -> attention-heatmap-head0.png, ...); returns the files written.
    QStringList exportEachHeadTo(ExportView view, const QString &path, const QSize &size = QSize(),
                                 double scale = 1.0, bool transparent = false);
    // Renders `view` and puts it on the clipboard; returns the image (null on failure).
    QImage copyToClipboard(ExportView view, const QSize &size = QSize(), double scale = 1.0);

signals:
    void errorOccurred(const QString &message);
    void exported(const QString &path);

public slots:
    // A save dialog for a picture of `view` (and the PNG size question).
    void exportPicture(ExportView view);
    // "Every Head as Separate Files…": the heatmap (weights or scores, as shown)
    // of each head; the save dialog asks for the first name.
    void exportEachHead();
    void exportCsv();
    void exportJson();
    // Copies the view that has the keyboard focus, else the heatmap.
    void copyCurrentView();

private:
    ExportView resolved(ExportView kind) const;
    void exportPictureOf(ExportView view, const PictureDefaults &defaults);
    // The size dialog for PNG and SVG; false when cancelled.
    bool askPictureOptions(const QString &path, QSize *size, double *scale, bool *transparent);
    void exportNumbers(ExportFormat format);
    QString askSavePath(const QString &title, const QString &baseName, const QStringList &filters);
    void showError(const QString &message);

    Document *m_document;
    QWidget *m_window;
    std::function<ExportViewState()> m_state;
    QHash<QWidget *, ExportView> m_views; // attached views, for "copy the focused view"
    bool m_interactive = true;
};
