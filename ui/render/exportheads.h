#pragma once
// The "heads" picture of export: every head as a titled tile ("head 0", ...,
// "average"), token labels on each tile's axes when they fit, and one colour
// bar that all tiles share, so a colour means the same number in every head.

#include "colormap.h"
#include "snapshot.h"

#include <QFont>
#include <QFontMetricsF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

class QPaintDevice;
class QPainter;
class QPalette;

// Where everything goes, without painting, so tests can check the geometry.
struct HeadsExportLayout
{
    struct Tile
    {
        QRectF frame;        // the whole tile
        QRectF title;        // "head 0" above it
        QRectF cells;        // the matrix: square cells
        QRectF rowLabels;    // query tokens, left of the cells; empty when they do not fit
        QRectF columnLabels; // key tokens, above the cells; empty when they do not fit
    };
    std::vector<Tile> tiles;
    int gridColumns = 1;
    qreal cellSide = 0;
    bool columnLabelsRotated = false; // read upwards when the words are wider than a cell
    int rowLabelStep = 1;             // every k-th label when cells are thinner than a line
    int columnLabelStep = 1;
    QRectF colorBar;       // the gradient, right of the tiles
    QRectF colorBarLabels; // its minimum, middle and maximum
    QRectF colorBarTitle;  // "weight α", drawn rotated
    QRectF used;           // the union of everything above: export trims the picture to it
};

class HeadsExportPainter
{
public:
    void setSnapshot(SnapshotPtr snapshot);
    void setShowScores(bool scores) { m_showScores = scores; }
    void setColorMap(ColorMap map) { m_colorMap = map; }
    void setQuery(int row) { m_query = row; } // outlined in every tile; -1: none
    // The head framed in the highlight colour, as the window marks the head the
    // heatmap shows (nullopt: the average); by default none is framed.
    void setOutlinedHead(int) = delete; // say std::optional<int>: no number stands for the average
    void setOutlinedHead(std::optional<int> head)
    {
        m_outlining = true;
        m_outlined = head;
    }
    void setVectorCells(bool vector) { m_vectorCells = vector; }

    // One tile per head, then the average; a single head has no average tile
    // (it would repeat the head).
    int tileCount() const;
    std::optional<int> headOfTile(int index) const; // nullopt: the average
    QString tileTitle(int index) const; // "head 0" ... (0-based, as everywhere), "average"
    QString colorBarTitle() const;
    // The weights have the first token set aside (AttentionSnapshot::firstTokenAside):
    // its column is crossed out in every tile and the colour bar says so.
    bool showsFirstTokenAside() const;
    // The range every tile and the colour bar share: [0, largest weight of any
    // head] or [-m, m] with m the largest score magnitude.
    double rangeMin() const;
    double rangeMax() const;
    QColor colorFor(double value) const;
    QString formatTick(double value) const;

    // `font` is the picture's font; labels use a smaller one (labelFont()).
    HeadsExportLayout layout(const QRectF &bounds, const QFont &font, const QPaintDevice *device) const;
    static QFont labelFont(const QFont &font);
    static QFont titleFont(const QFont &font);

    void paint(QPainter &p, const QRectF &rect, const QPalette &palette) const;

private:
    const attn::AttentionMatrix *matrixOf(int tile) const;
    void paintTile(QPainter &p, const HeadsExportLayout &l, int index, const QPalette &palette) const;
    void paintCells(QPainter &p, const QRectF &cells, int index, const QPalette &palette) const;
    void paintLabels(QPainter &p, const HeadsExportLayout &l, int index) const;
    void paintColorBar(QPainter &p, const HeadsExportLayout &l, const QPalette &palette) const;

    SnapshotPtr m_snapshot;
    mutable attn::AttentionMatrix m_average; // computed on first use, unless the result has it
    mutable int m_averageOf = -1;            // 0 weights, 1 scores, -1 not yet
    QStringList m_rowLabels, m_columnLabels;
    bool m_showScores = false;
    ColorMap m_colorMap = ColorMap::Viridis;
    int m_query = -1;
    bool m_outlining = false;
    std::optional<int> m_outlined;
    bool m_vectorCells = false;
    mutable double m_rangeMax = -1; // computed on first use, per scores/weights
    mutable bool m_rangeForScores = false;
};
