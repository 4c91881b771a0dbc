#pragma once
// Paints the views into PNG, SVG and PDF files and writes the numbers as CSV
// or JSON: the engine behind File › Export and the `export` command. It draws
// with the views' own painters, so a file shows exactly what the screen does.

#include "colormap.h"
#include "modelgridpainter.h"
#include "model/forward.h"
#include "session/session.h"
#include "snapshot.h"

#include <QFont>
#include <QImage>
#include <QList>
#include <QPalette>
#include <QSize>
#include <QString>
#include <memory>
#include <optional>

class QIODevice;
class QPainter;
class QRectF;
class QSaveFile;

enum class ExportView { Heatmap, Scores, Pipeline, Bars, Heads, Dashboard };
enum class ExportFormat { Png, Svg, Pdf, Csv, Json };

// Stable lowercase names, as the command line spells them ("heatmap", "scores", ...).
QString exportViewName(ExportView view);
std::optional<ExportView> exportViewFromName(const QString &name);
QList<ExportView> allExportViews();

// The format a file name asks for, by its suffix (case-insensitive).
std::optional<ExportFormat> exportFormatForPath(const QString &path);
bool isPictureFormat(ExportFormat format);

// The largest picture a view gets when no size is asked for: roughly its shape in the window.
QSize defaultExportSize(ExportView view);
// Fixed palettes, so files come out the same on every machine and theme.
QPalette lightExportPalette();
QPalette darkExportPalette();
// DejaVu Sans (shipped by the setup script) at a pixel size: text keeps the
// same size relative to the picture in PNG, SVG and PDF, whatever their resolution.
QFont defaultExportFont();

struct ExportOptions
{
    ExportView view = ExportView::Heatmap;
    std::optional<int> head = 0; // 0-based; nullopt: the average over heads (heatmap, scores, heads)
    int query = 0; // 0-based row of the query token
    QSize size;    // logical pixels; empty means exportSize() picks one
    double scale = 1.0; // PNG device pixel ratio: 2 gives twice the pixels, same layout
    bool showScores = false; // the heads grid (alone or in the dashboard) shows scores
    ColorMap colorMap = ColorMap::Viridis;
    // The heatmap and the heads (alone, in the dashboard, or every layer's
    // as the model grid) show the weights with the first token set aside
    // (attn::firstTokenAside), labelled so; the pipeline and bars, and the
    // numbers files, keep the weights as computed.
    bool firstTokenAside = false;
    QPalette palette = lightExportPalette();
    QFont font = defaultExportFont(); // converted to a pixel size when used
    QString title; // the dashboard's title line; see dashboardTitle()
    // PNG and SVG only: no background fill, so the picture sits on a slide's
    // own background; cells, bars, text and masked cells stay opaque.
    bool transparent = false;
    // A model's export: the heads view draws every layer's heads, as the
    // window's layers × heads grid (modelgridpainter.h), with layer modelLayer
    // and `head` outlined; the dashboard keeps the snapshot's own heads.
    std::shared_ptr<const attn::ModelTrace> modelTrace;
    bool modelCausal = false;
    int modelLayer = 0;
    ModelGridMarks modelMarks; // the model's key/value groups and windowed layers

};

// The snapshot the window would show for `session` (as Document::recompute
// builds it); its error says why when attention cannot be computed.
SnapshotPtr snapshotForSession(const attn::Session &session, attn::Precision precision = attn::Precision::Auto,
                               const attn::HeadsKept &kept = attn::HeadsKept::all());

// Two lines: "“the sentence”", then the mode and options, e.g.
// "scaled dot-product attention · 2 heads of width 4 · causal mask · query “journey”".
QString dashboardTitle(const attn::Session &session, int query);

// The picture's size: options.size when set, else defaultExportSize(view)
// cut down to what the view needs (a short pipeline, a grid of few heads),
// so a file has no empty half.
QSize exportSize(const SnapshotPtr &snapshot, const ExportOptions &options);

// Where a single view goes inside the picture: the heatmap and the heads grid
// get a margin, since their painters draw up to the edge as the window needs.
QRectF exportContentRect(const QRectF &picture, ExportView view);

// Paints one view (or the dashboard) into rect with the views' painters.
// `vector`: cells as filled rectangles rather than an image, for SVG and PDF.
void paintView(QPainter &painter, const QRectF &rect, const SnapshotPtr &snapshot, const ExportOptions &options,
               bool vector);

// The picture at size × scale pixels, device pixel ratio `scale`.
QImage renderImage(const SnapshotPtr &snapshot, const ExportOptions &options);

// Why `path` cannot be exported with these options (unknown suffix, no result,
// head, query, size or scale out of range), as one line naming the file; empty
// when it can. These are the user's mistakes: the command line exits with 2.
QString checkExport(const SnapshotPtr &snapshot, const ExportOptions &options, const QString &path);

// The steps of exportFile, for writers of several files (exportseries.h):
// writes the picture or numbers into an open device, checkExport having
// passed; `name` is the file name its messages start with.
bool writeExport(QIODevice *device, const attn::Session &session, const SnapshotPtr &snapshot,
                 const ExportOptions &options, ExportFormat format, const QString &name, QString *error);

// Checks, renders and writes atomically (QSaveFile): on failure nothing is
// left at `path` and an existing file there is untouched; `error` gets one line.
bool exportFile(const attn::Session &session, const SnapshotPtr &snapshot, const ExportOptions &options,
                const QString &path, QString *error);
// exportFile for a snapshot no session made (one layer of a model): pictures
// and CSV only, options.title as the dashboard's title and the SVG's description.
bool exportSnapshot(const SnapshotPtr &snapshot, const ExportOptions &options, const QString &path, QString *error);
