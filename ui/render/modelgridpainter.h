#pragma once
// The layers × heads grid of a model as pictures: where its tiles go, one
// thumbnail per head, and the painting the window and the export share.

#include "colormap.h"
#include "gridthumbnails.h"
#include "model/forward.h"

#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QPalette>
#include <QRectF>
#include <QString>
#include <set>
#include <vector>

// What the grid says about the model and the weights beside its tiles.
struct ModelGridMarks
{
    // Query heads per key/value head (grouped-query attention; 1: none):
    // each group's tiles stand together on a band of their own, apart from
    // the next group, under a label naming their key/value head ("kv 0").
    int kvGroup = 1;
    // Per layer, its sliding window (0 or missing: none): such a layer's row
    // label carries a mark, and the caption says what it means.
    std::vector<int> windows;
    // The tiles show weights with the first token set aside: the caption says so first.
    bool firstTokenAside = false;
    // A result still being computed, or stopped: layers from this on are not
    // computed (their rows have no tiles); -1: every layer is.
    int computedLayers = -1;
    bool stopped = false; // the run was stopped (else: computing)

    bool grouped(int heads) const { return kvGroup > 1 && kvGroup < heads && heads % kvGroup == 0; }
    bool windowed(int layer) const
    {
        return layer >= 0 && std::size_t(layer) < windows.size() && windows[std::size_t(layer)] > 0;
    }
};

// What a model's config says for the grid: its key/value groups (when it has
// fewer key/value heads than query heads) and each layer's window.
ModelGridMarks modelGridMarks(const attn::ModelConfig &config);

// The line above the grid (empty: none): the first token set aside, what a
// row's window mark means.
QString modelGridCaption(const ModelGridMarks &marks);
// A windowed layer's row label ("L3 w"), else "L3".
QString modelGridRowLabel(int layer, const ModelGridMarks &marks);

// Where the labels and the square tiles go in a rectangle; plain maths, for tests.
struct ModelGridLayout
{
    int layers = 0, heads = 0;
    QRectF bounds;
    double labelWidth = 0, labelHeight = 0;
    double captionHeight = 0; // the caption's line at the top (0: none)
    double groupLabelHeight = 0; // the key/value groups' labels, above the heads' (0: no groups)
    int kvGroup = 1;           // tiles per group (1: no groups)
    double groupGap = 0;       // extra room between two groups

    double tileSide() const;                 // the square tiles' side, gaps excluded
    QRectF tileRect(int layer, int head) const;
    bool tileAt(const QPointF &pos, int *layer, int *head) const; // false between tiles
    // Group g's tiles of every layer, with a little margin (no groups: empty).
    QRectF groupRect(int group) const;
    QRectF captionRect() const;
};

// The grid's layout in `bounds` for labels drawn with `metrics`; groups of
// key/value heads only when `marks` has them and the heads are in their own
// order (sorted by a score, a column is a rank, not a head).
ModelGridLayout modelGridLayout(const QRectF &bounds, int layers, int heads, const QFontMetricsF &metrics,
                                const ModelGridMarks *marks = nullptr, bool sorted = false);

// How many device pixels a side each tile gets when `p` paints the grid of
// layers x heads in `bounds` (paintModelGrid's layout), at most
// kModelGridMaxSide; kModelGridMaxSide on SVG and PDF.
int modelGridTilePixels(const QPainter &p, const QRectF &bounds, int layers, int heads,
                        const ModelGridMarks *marks = nullptr);

// The window's thumbnails pooled to at most `maxSide` pixels (pooledLevels)
// and coloured: an export draws what the window shows, at its own size.
std::vector<std::vector<QImage>> modelGridImages(const attn::ModelTrace &trace, bool causal, ColorMap map,
                                                 const QColor &masked, int maxSide, bool firstTokenAside = false,
                                                 const std::vector<int> &windows = {});

// One pattern score per head shown on the grid (model/headscores.h): a band
// under each tile in the score's colour, with its value where it fits; with
// `sorted`, each layer's heads in the order of the score, highest first (a
// head without a number, NaN, last), each tile then labelled with its head.
struct ModelGridScores
{
    std::vector<std::vector<double>> values; // [layer][head]; empty: no scores shown
    bool sorted = false;
    ColorMap map = ColorMap::Viridis;
    QString name; // what the score is ("Previous token"), for tooltips
};

// The column labels above the tiles, where they go: "H0" ... when there is
// room, the bare numbers when not (the corner then says "H"), every k-th
// column when even those do not fit. Each label fits its rectangle whole and
// no two rectangles overlap: a label is never clipped ("H10" to "HC").
struct ModelGridColumnLabel
{
    QRectF rect;
    QString text;
};
std::vector<ModelGridColumnLabel> modelGridColumnLabels(const ModelGridLayout &layout, const QFontMetricsF &metrics);

// The heads of each layer in tile order: 0, 1, 2 ... unless scores are sorted.
std::vector<std::vector<int>> modelGridOrder(int layers, int heads, const ModelGridScores *scores);

// Paints the grid as the view shows it (labels, tiles, the selected tile or,
// for head -1, the selected layer's row outlined) into `bounds` of any painter:
// the window and the export share it. The background is the caller's.
// Switched-off heads are veiled and crossed out; `marks` adds the caption,
// the key/value groups and the windowed layers' marks.
void paintModelGrid(QPainter &p, const QRectF &bounds, const std::vector<std::vector<QImage>> &tiles, int layer,
                    int head, const QPalette &palette, const std::set<attn::LayerHead> &switchedOff = {},
                    const ModelGridScores *scores = nullptr, const ModelGridMarks *marks = nullptr);

// A tile whose layer is not computed: striped in the palette's mid colour, no weights.
void paintPendingTile(QPainter &p, const QRectF &tile, const QPalette &palette);

// The mark of a switched-off head over its tile: a veil of the window colour and a cross.
void paintSwitchedOff(QPainter &p, const QRectF &tile, const QPalette &palette);
// The veil's opacity (of 255), here and over the main heatmap's cells.
constexpr int kSwitchedOffVeilAlpha = 190;

// The heads of a trace that add nothing to their layer's output (the whole
// context is exactly zero): what --ablate switches off. The export reads the
// marks from the trace itself, which needs nothing else passed along.
std::set<attn::LayerHead> switchedOffHeads(const attn::ModelTrace &trace);
