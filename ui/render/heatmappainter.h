#pragma once
// Draws one attention matrix (a head or the average; weights or scores) into
// any QPainter: the one path behind the widget and PNG, SVG and PDF export.

#include "colormap.h"
#include "colorscale.h"
#include "heatmaplayout.h"
#include "snapshot.h"

#include <QList>

#include <Eigen/Dense>
#include <QFont>
#include <QHash>
#include <QImage>
#include <QPalette>
#include <QRect>
#include <QSize>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <optional>

class QPainter;
class QPaintDevice;

class HeatmapPainter
{
public:
    HeatmapPainter() = default;

    void setSnapshot(SnapshotPtr snapshot);
    SnapshotPtr snapshot() const { return m_snapshot; }
    // The snapshot's head `head`, or nullopt: the mean over its heads. A bare
    // int is refused, so an old "-1 means the average" cannot slip back in.
    void setHead(std::optional<int> head);
    void setHead(int) = delete;
    std::optional<int> head() const { return m_head; }
    // The head drawn: head(), or nullopt (the average) when that head does not exist.
    std::optional<int> effectiveHead() const;
    void setShowScores(bool scores);
    bool showScores() const { return m_showScores; }
    void setColorMap(ColorMap map)
    {
        m_imageDirty = m_imageDirty || map != m_colorMap;
        m_colorMap = map;
    }
    ColorMap colorMap() const { return m_colorMap; }
    // Fitted to the matrix shown, or fixed (0–1 for weights, ±R for scores).
    void setColorScale(const ColorScale &scale);
    ColorScale colorScale() const { return m_colorScale; }
    // Which part of the matrix is drawn; the cells keep their cached image.
    void setZoom(const HeatmapZoom &zoom) { m_zoom = zoom; }
    HeatmapZoom zoom() const { return m_zoom; }
    void setQuery(int row) { m_query = row; } // -1: no query row outlined
    int query() const { return m_query; }
    void setHoverCell(int row, int column) // -1, -1: none
    {
        m_hoverRow = row;
        m_hoverColumn = column;
    }
    // Cells of one row picked out by the walkthrough (an overlay, like hover).
    void setHighlightedCells(int row, const QList<int> &columns)
    {
        m_highlightRow = row;
        m_highlightColumns = columns;
    }
    QList<int> highlightedColumns() const { return m_highlightColumns; }
    int hoverRow() const { return m_hoverRow; }
    int hoverColumn() const { return m_hoverColumn; }
    // Compact: cells only, no labels, numbers or colour bar (the heads grid).
    void setCompact(bool compact) { m_compact = compact; }
    bool isCompact() const { return m_compact; }
    void setShowTitle(bool show) { m_showTitle = show; }
    // Pixels kept free at each end of the title's row: the view's buttons
    // sit there (an export has none and gives the title the whole row).
    void setTitleInset(qreal inset) { m_titleInset = inset; }
    qreal titleInset() const { return m_titleInset; }
    // Where the title is drawn, centred and elided to fit.
    QRectF titleArea(const HeatmapLayout &l) const;
    // Vector cells: one filled rect per cell (up to kMaxVectorCells) instead of
    // a scaled image, so SVG and PDF hold real vectors that viewers never blur.
    void setVectorCells(bool vector) { m_vectorCells = vector; }
    bool vectorCells() const { return m_vectorCells; }
    // Matrices larger than this (or than the pixels they are painted on) are
    // max-pooled into an image this big.
    void setMaxImageSize(int pixels)
    {
        m_imageDirty = m_imageDirty || pixels != m_maxImageSize;
        m_maxImageSize = std::max(1, pixels);
    }
    // The most pixels the cell image has when painted by `p` into `rect`
    // (see heatmapcells.cpp), for prepareImage().
    QSize imageLimit(const QPainter &p, const QRectF &rect) const;

    bool hasResult() const { return m_snapshot && m_snapshot->result; }
    // The numbers shown: weights or raw scores of the head or of the average;
    // null when there is no result.
    const attn::AttentionMatrix *values() const;
    int rows() const { return m_hasValues ? int(values()->rows()) : 0; }
    int columns() const { return m_hasValues ? int(values()->cols()) : 0; }
    double valueAt(int row, int column) const { return (*values())(row, column); }
    bool isMasked(int row, int column) const;
    // The value range the colour map spans: [0, max weight] or [-max|s|, max|s|]
    // fitted to the data, or [0, 1] and [-R, R] on a fixed scale.
    double rangeMin() const { return m_rangeMin; }
    double rangeMax() const { return m_rangeMax; }
    bool isScaleFixed() const { return m_showScores ? m_colorScale.fixedScores : m_colorScale.fixedWeights; }
    // The largest weight (or |score|) drawn, whatever the scale.
    double dataMax() const { return m_dataMax; }
    // How the axes name token i: attn::tokenLabels ("over₇" for a repeated word).
    const QStringList &rowLabels() const { return m_rowLabels; }
    const QStringList &columnLabels() const { return m_columnLabels; }
    QColor colorFor(double value) const;
    QString title() const;
    // Whether the head drawn was switched off (AttentionSnapshot::isSwitchedOff),
    // and what the banner over its cells says then.
    bool shownHeadSwitchedOff() const;
    QString switchedOffText() const;
    QString colorBarTitle() const;
    // The colour bar's title as drawn along `length` pixels: whole when it
    // fits, else the values' name alone ("weights α"), elided only past that.
    QString colorBarTitleFitting(const QFontMetricsF &metrics, qreal length) const;
    // Whether the weights drawn have the first token set aside
    // (AttentionSnapshot::firstTokenAside; never for scores): its column is
    // covered and named, the title and colour bar say the rows are renormalised.
    bool showsFirstTokenAside() const;
    static QString firstTokenAsideText(); // the first column's word
    // "outside the window of 3" for a layer with a sliding window, else empty:
    // the colour bar, the hatched band and the tooltips say it.
    QString outsideWindowText() const;
    // What the weights are called on the colour bar ("weights α" when empty),
    // for matrices that are not one head's weights (the rollout).
    void setValueName(const QString &name) { m_valueName = name; }

    // The layout for `rect`, cached; `device` (may be null) sets the font's resolution.
    const HeatmapLayout &layout(const QRectF &rect, const QFont &font, const QPaintDevice *device) const;

    void paint(QPainter &p, const QRectF &rect, const QPalette &palette) const; // base and hover
    // Builds the cached cell image now if painting would; painters of several
    // tiles call it from worker threads (each painter is touched by one thread).
    void prepareImage(const QPalette &palette, const QSize &limit) const;
    bool needsImage(const QPalette &palette, const QSize &limit) const;
    void paintBase(QPainter &p, const QRectF &rect, const QPalette &palette) const;
    void paintHover(QPainter &p, const QRectF &rect, const QPalette &palette) const;

    // The walkthrough's outline of one cell of colour `cellColor`: dashes of
    // the highlight colour over a ring of black or white (whichever contrasts
    // more with the cell), so it shows on every colour of every colour map.
    static void paintStepOutline(QPainter &p, const QRectF &cell, const QColor &cellColor, const QPalette &palette);

    static constexpr int kMaxVectorCells = 65536;
    static QColor maskedBackground(const QPalette &palette) { return palette.color(QPalette::Window); }
    static QColor maskedHatch(const QPalette &palette) { return palette.color(QPalette::Mid); }

private:
    void updateValues();
    void updateRange();
    QRect allCells() const { return QRect(0, 0, columns(), rows()); }
    QSize imageLimit(const QPainter &p, const HeatmapLayout &l) const;
    QRect wantedImageCells(const HeatmapLayout &l, const QSize &limit) const;
    static QSize imageSizeFor(const QRect &cells, const QSize &limit) { return cells.size().boundedTo(limit); }
    void rebuildImage(QRgb masked, const QRect &cells, const QSize &limit) const;
    void paintCells(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const;
    void paintMask(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const;
    void paintNumbers(QPainter &p, const HeatmapLayout &l) const;
    void paintSwitchedOffVeil(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const;
    void paintFirstTokenAside(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const;
    void paintLabels(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const;
    void paintColorBar(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const;
    QString formatTick(double value) const;
    int cellDecimals() const; // of the numbers in cells

    SnapshotPtr m_snapshot;
    std::optional<int> m_head = 0;
    QString m_valueName;
    bool m_showScores = false;
    ColorMap m_colorMap = ColorMap::Viridis;
    ColorScale m_colorScale;
    HeatmapZoom m_zoom;
    QStringList m_rowLabels;
    QStringList m_columnLabels;
    int m_query = -1;
    int m_highlightRow = -1;
    QList<int> m_highlightColumns;
    int m_hoverRow = -1;
    int m_hoverColumn = -1;
    bool m_compact = false;
    bool m_showTitle = true;
    qreal m_titleInset = 0;
    bool m_vectorCells = false;
    int m_maxImageSize = 2048;

    // Own storage only for an average; a head's matrix is read from the snapshot,
    // so copies of a painter stay valid.
    bool m_hasValues = false;
    bool m_ownsValues = false;
    bool m_snapshotAverage = false; // the result's meanWeights
    attn::AttentionMatrix m_average;
    double m_rangeMin = 0.0;
    double m_rangeMax = 1.0;
    double m_dataMax = 1.0;
    int m_generation = 0; // bumps on every data change; keys the caches

    mutable QImage m_image; // one pixel per cell (or per pooled block) of m_imageCells
    mutable QRect m_imageCells; // all cells, or the visible ones of a pooled matrix zoomed in
    mutable bool m_imageDirty = true;
    mutable QRgb m_imageMasked = 0;
    mutable HeatmapLayout m_layout;
    mutable QString m_layoutKey;
    // Each label's width in the font of m_labelWidthsFont: a new text of 512
    // tokens shares most of its labels with the one before, and shaping each
    // label again would take milliseconds.
    mutable QHash<QString, qreal> m_labelWidths;
    mutable QString m_labelWidthsFont;
    qreal widestLabel(const QStringList &labels, const QFontMetricsF &metrics, const QString &fontKey, qreal cap) const;
};
