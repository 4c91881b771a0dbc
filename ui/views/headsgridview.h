#pragma once
// Every head side by side, plus their average, as small heatmaps; a click
// picks the head the big heatmap shows.

#include "colormap.h"
#include "colorscale.h"
#include "heatmappainter.h"
#include "snapshot.h"

#include <QFontMetricsF>
#include <QImage>
#include <QWidget>
#include <optional>
#include <vector>

// The grid without a widget, so export can draw it into any QPainter.
// Tile i < heads is head i; tile `heads` is the average.
class HeadsGridPainter
{
public:
    void setSnapshot(SnapshotPtr snapshot);
    void setSelectedHead(std::optional<int> head) { m_selected = head; } // nullopt: the average
    void setSelectedHead(int) = delete; // say std::optional<int>: no number stands for the average
    std::optional<int> selectedHead() const { return m_selected; }
    void setShowScores(bool scores);
    void setColorMap(ColorMap map);
    // The big heatmap's scale, so fixed colours mean the same in every tile.
    void setColorScale(const ColorScale &scale);
    ColorScale colorScale() const { return m_colorScale; }
    void setQuery(int row);
    int query() const { return m_query; }
    void setVectorCells(bool vector);

    int tileCount() const { return int(m_tiles.size()); }
    const HeatmapPainter &tile(int index) const { return m_tiles.at(std::size_t(index)); }
    // With several heads the last tile is their average; one head has no
    // average tile (it would only repeat the head).
    bool hasAverage() const { return tileCount() > 1; }
    std::optional<int> headOfTile(int index) const
    {
        return hasAverage() && index == tileCount() - 1 ? std::nullopt : std::optional<int>(index);
    }
    // The average's tile for the average or a head that does not exist.
    int tileOfHead(std::optional<int> head) const
    {
        const int heads = hasAverage() ? tileCount() - 1 : tileCount();
        return !head || *head < 0 || *head >= heads ? tileCount() - 1 : *head;
    }
    // With the first token set aside (AttentionSnapshot::firstTokenAside) a
    // caption above the tiles says so, in bold, wrapped to the grid's width;
    // `caption` is its height (captionHeight(), in the bold font's metrics).
    bool showsFirstTokenAside() const;
    static QString firstTokenAsideCaption();
    qreal captionHeight(const QFontMetricsF &boldMetrics, qreal width) const;
    QRectF tileRect(const QRectF &bounds, int index, qreal caption = 0) const;
    // Where a tile's cells go: under its title (titleHeight tall), in the matrix's shape.
    static QRectF tileCellsRect(const QRectF &tile, qreal titleHeight, int rows, int columns);
    int tileAt(const QRectF &bounds, const QPointF &pos, qreal caption = 0) const; // -1 between tiles
    QString tileTitle(int index) const;

    // Heads that share keys and values (grouped-query attention) stand side
    // by side in one row, framed together, each title naming its key/value
    // head ("head 2 · k/v 1"). One group per head when nothing is shared.
    int groupSize() const;  // query heads per key/value head
    int groupCount() const; // key/value heads; 0 without a result
    bool showsGroups() const { return groupSize() > 1; }
    std::optional<int> keyValueHeadOfTile(int index) const; // nullopt for the average
    // The frame around group g's tiles (empty when the groups are not shown or g is out of range).
    QRectF groupRect(const QRectF &bounds, int group) const;

    void paint(QPainter &p, const QRectF &rect, const QPalette &palette) const;
    static QString singleHeadNote();

private:
    int columns() const;
    void paintGroups(QPainter &p, const QRectF &rect, const QPalette &palette) const;

    SnapshotPtr m_snapshot;
    std::vector<HeatmapPainter> m_tiles;
    std::optional<int> m_selected; // the average
    bool m_showScores = false;
    ColorMap m_colorMap = ColorMap::Viridis;
    ColorScale m_colorScale;
    int m_query = -1;
    bool m_vectorCells = false;
};

class HeadsGridView : public QWidget
{
    Q_OBJECT
public:
    explicit HeadsGridView(QWidget *parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setSelectedHead(std::optional<int> head); // nullopt: the average
    void setSelectedHead(int) = delete; // say std::optional<int>: no number stands for the average
    void setShowScores(bool scores);
    void setColorMap(ColorMap map);
    void setColorScale(const ColorScale &scale);
    void setQuery(int row);

    std::optional<int> selectedHead() const { return m_grid.selectedHead(); }
    int tileCount() const { return gridPainter().tileCount(); }
    QRectF tileRect(int index) const
    {
        return gridPainter().tileRect(QRectF(rect()), index, gridPainter().captionHeight(boldMetrics(), width()));
    }
    const HeadsGridPainter &gridPainter() const;

    QSize sizeHint() const override { return {320, 320}; }
    QSize minimumSizeHint() const override { return {120, 120}; }

signals:
    void headSelected(std::optional<int> head); // nullopt for the average

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void invalidate();
    QFontMetricsF boldMetrics() const; // the caption's
    // Builds the tiles of a snapshot that came while the view was hidden.
    void takePending() const;

    // Mutable: a hidden view keeps the newest snapshot and builds its tiles
    // only when it is shown or asked about (with a model open the layers ×
    // heads grid takes its dock, and rebuilding every tile of a long text for
    // nobody cost the GUI thread a third of each result).
    mutable HeadsGridPainter m_grid;
    mutable SnapshotPtr m_pending;
    QImage m_cache;
    mutable bool m_cacheDirty = true;
};
