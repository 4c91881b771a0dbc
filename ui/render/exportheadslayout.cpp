// HeadsExportPainter's geometry and data: which tiles, which numbers, the
// shared range, and where tiles, labels and the colour bar go.
#include "exportheads.h"

#include "lessons/notation.h"

#include <QCoreApplication>
#include <QPaintDevice>
#include <algorithm>
#include <cmath>

namespace {

constexpr qreal kTileGap = 18;   // between tiles
constexpr qreal kLabelGap = 4;   // between a label and the cells
constexpr qreal kTitleGap = 3;   // between a tile's title and what is below it
constexpr qreal kBarGap = 18;    // between the last tile and the colour bar
constexpr qreal kBarWidth = 14;
constexpr qreal kLabelShare = 0.3; // labels never take more of a tile than this
constexpr int kMaxLabelCount = 4096;

qreal widest(const QStringList &labels, const QFontMetricsF &metrics)
{
    qreal w = 0;
    for (int i = 0; i < labels.size() && i < kMaxLabelCount; ++i)
        w = std::max(w, metrics.horizontalAdvance(labels[i]));
    return std::ceil(w);
}

// One tile's inside for a given tile size: the label room and the cell side.
struct TileFit
{
    qreal side = 0, rowRoom = 0, columnRoom = 0;
    bool rotated = false;
};

TileFit fitTile(qreal width, qreal height, int rows, int columns, qreal titleHeight, qreal widestRow,
                qreal widestColumn, const QFontMetricsF &label)
{
    const auto sideFor = [&](qreal rowRoom, qreal columnRoom) {
        const qreal w = width - (rowRoom > 0 ? rowRoom + kLabelGap : 0);
        const qreal h = height - titleHeight - (columnRoom > 0 ? columnRoom + kLabelGap : 0);
        return std::max<qreal>(0, std::min(w / columns, h / rows));
    };
    TileFit fit;
    // Labels shorter than three letters' room say nothing: then cells only.
    fit.rowRoom = std::min(widestRow, kLabelShare * width);
    if (fit.rowRoom < 3 * label.averageCharWidth())
        return TileFit{sideFor(0, 0), 0, 0, false};
    fit.columnRoom = label.height();
    fit.side = sideFor(fit.rowRoom, fit.columnRoom);
    if (widestColumn > fit.side - 2) { // the words are wider than a cell: read them upwards
        fit.rotated = true;
        fit.columnRoom = std::min(widestColumn, kLabelShare * height);
        fit.side = sideFor(fit.rowRoom, fit.columnRoom);
    }
    return fit;
}

int labelStep(qreal side, qreal lineHeight)
{
    return side >= 0.9 * lineHeight ? 1 : int(std::ceil(1.1 * lineHeight / std::max<qreal>(side, 1e-3)));
}

} // namespace

void HeadsExportPainter::setSnapshot(SnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
    m_averageOf = -1;
    m_rangeMax = -1;
    m_rowLabels = m_snapshot ? m_snapshot->rowTokens : QStringList(); // labelled already
    m_columnLabels = m_snapshot ? m_snapshot->columnTokens : QStringList();
}

int HeadsExportPainter::tileCount() const
{
    const int heads = m_snapshot && m_snapshot->result ? int(m_snapshot->result->heads.size()) : 0;
    return heads <= 1 ? heads : heads + 1;
}

std::optional<int> HeadsExportPainter::headOfTile(int index) const
{
    return tileCount() > 1 && index == tileCount() - 1 ? std::nullopt : std::optional<int>(index);
}

QString HeadsExportPainter::tileTitle(int index) const
{
    const std::optional<int> head = headOfTile(index);
    // Heads that share keys and values name their key/value head, as the heads grid does.
    const attn::AttentionResult *r = m_snapshot ? m_snapshot->result.get() : nullptr;
    if (head && r && r->sharesKeyValues())
        return QCoreApplication::translate("HeadsExport", "%1 · k/v %2")
            .arg(attn::headName(*head))
            .arg(r->keyValueHeadOf(*head));
    return head ? attn::headName(*head) : QCoreApplication::translate("HeadsExport", "average");
}

QString HeadsExportPainter::colorBarTitle() const
{
    const QString name = showsFirstTokenAside()
        ? QCoreApplication::translate("HeadsExport", "renormalised weight α (first token set aside)")
        : m_showScores ? QCoreApplication::translate("HeadsExport", "score ω")
                       : QCoreApplication::translate("HeadsExport", "weight α");
    const int window = m_snapshot && m_snapshot->result && m_snapshot->result->causal ? m_snapshot->result->window : 0;
    return window > 0 ? QCoreApplication::translate("HeadsExport", "%1 · hatched: outside the window of %2")
                            .arg(name).arg(window)
                      : name;
}

bool HeadsExportPainter::showsFirstTokenAside() const
{
    return m_snapshot && m_snapshot->result && m_snapshot->firstTokenAside && !m_showScores;
}

const attn::AttentionMatrix *HeadsExportPainter::matrixOf(int tile) const
{
    const attn::AttentionResult &result = *m_snapshot->result;
    if (const std::optional<int> head = headOfTile(tile))
        return m_showScores ? &result.heads[std::size_t(*head)].scores : &result.heads[std::size_t(*head)].weights;
    if (!m_showScores && result.meanWeights.size() > 0)
        return &result.meanWeights;
    if (m_averageOf != int(m_showScores)) {
        m_average = m_showScores ? attn::averageScores(result) : attn::averageWeights(result);
        m_averageOf = int(m_showScores);
    }
    return &m_average;
}

double HeadsExportPainter::rangeMax() const
{
    if (m_rangeMax >= 0 && m_rangeForScores == m_showScores)
        return m_rangeMax;
    // Every head's largest visible value (masked cells are hatched, not coloured);
    // the average never exceeds its largest head.
    double largest = 0;
    if (m_snapshot && m_snapshot->result) {
        const attn::AttentionResult &result = *m_snapshot->result;
        const int heads = int(result.heads.size());
        for (int h = 0; h < heads; ++h) {
            const attn::AttentionMatrix &v = *matrixOf(h);
            for (Eigen::Index r = 0; r < v.rows(); ++r) {
                const Eigen::Index visible = result.causal ? std::min<Eigen::Index>(v.cols(), r + 1) : v.cols();
                largest = std::max(largest, v.largestInRow(r, visible, m_showScores));
            }
        }
    }
    m_rangeMax = largest > 0 && std::isfinite(largest) ? largest : 1.0;
    m_rangeForScores = m_showScores;
    return m_rangeMax;
}

double HeadsExportPainter::rangeMin() const
{
    return m_showScores ? -rangeMax() : 0.0;
}

QColor HeadsExportPainter::colorFor(double value) const
{
    return m_showScores ? divergingColor(value / rangeMax()) : sequentialColor(m_colorMap, value / rangeMax());
}

QString HeadsExportPainter::formatTick(double value) const
{
    // As the heatmap's colour bar: two significant digits of the largest value,
    // powers of ten for the very large and very small; a real minus sign.
    const double largest = std::abs(rangeMax());
    QString text;
    if (largest >= 1e6 || (largest > 0 && largest < 1e-4)) {
        text = QString::number(value, 'g', 2);
    } else {
        const int decimals = largest >= 100 ? 0 : std::max(2, 1 - int(std::floor(std::log10(largest))));
        text = QString::number(value, 'f', decimals);
    }
    return text.replace(QLatin1Char('-'), QChar(0x2212));
}

QFont HeadsExportPainter::labelFont(const QFont &font)
{
    QFont f = font;
    if (f.pixelSize() > 0)
        f.setPixelSize(std::max(7, int(std::lround(f.pixelSize() * 0.85))));
    else
        f.setPointSizeF(std::max(5.0, f.pointSizeF() * 0.85));
    return f;
}

QFont HeadsExportPainter::titleFont(const QFont &font)
{
    return font;
}

HeadsExportLayout HeadsExportPainter::layout(const QRectF &bounds, const QFont &font, const QPaintDevice *device) const
{
    HeadsExportLayout l;
    const int tiles = tileCount();
    if (tiles == 0)
        return l;
    const attn::AttentionMatrix &first = *matrixOf(0);
    const int rows = int(first.rows()), columns = int(first.cols());
    const auto metricsOf = [device](const QFont &f) { return device ? QFontMetricsF(f, device) : QFontMetricsF(f); };
    const QFontMetricsF label = metricsOf(labelFont(font));
    QFont boldLabel = labelFont(font);
    boldLabel.setBold(true);
    const QFontMetricsF title = metricsOf(titleFont(font));
    const qreal titleHeight = title.height() + kTitleGap;
    const qreal widestRow = widest(m_rowLabels, metricsOf(boldLabel)); // the query's label is bold
    const qreal widestColumn = widest(m_columnLabels, label);

    // The colour bar's strip on the right: gradient, tick labels, rotated title.
    const QFontMetricsF barText = metricsOf(font);
    const qreal ticks = std::ceil(std::max({barText.horizontalAdvance(formatTick(rangeMin())),
                                            barText.horizontalAdvance(formatTick(rangeMax())),
                                            barText.horizontalAdvance(formatTick((rangeMin() + rangeMax()) / 2))}));
    const qreal strip = kBarGap + kBarWidth + 4 + ticks + 6 + barText.height();
    const qreal gridWidth = std::max<qreal>(1, bounds.width() - strip);

    // As many columns of tiles as give the largest cells.
    TileFit best;
    for (int c = 1; c <= tiles; ++c) {
        const int r = (tiles + c - 1) / c;
        const qreal w = (gridWidth - (c - 1) * kTileGap) / c;
        const qreal h = (bounds.height() - (r - 1) * kTileGap) / r;
        if (w <= 0 || h <= 0)
            continue;
        const TileFit fit = fitTile(w, h, rows, columns, titleHeight, widestRow, widestColumn, label);
        if (fit.side > best.side + 0.01) {
            best = fit;
            l.gridColumns = c;
        }
    }
    l.cellSide = best.side;
    l.columnLabelsRotated = best.rotated;
    l.rowLabelStep = labelStep(best.side, label.height());
    l.columnLabelStep = best.rotated ? l.rowLabelStep : 1;
    const qreal rowRoom = best.rowRoom > 0 ? best.rowRoom + kLabelGap : 0;
    const qreal columnRoom = best.columnRoom > 0 ? best.columnRoom + kLabelGap : 0;
    const QSizeF tileSize(rowRoom + columns * best.side, titleHeight + columnRoom + rows * best.side);
    const int gridRows = (tiles + l.gridColumns - 1) / l.gridColumns;
    const QSizeF grid(l.gridColumns * tileSize.width() + (l.gridColumns - 1) * kTileGap,
                      gridRows * tileSize.height() + (gridRows - 1) * kTileGap);
    // Tiles and colour bar as one group, centred: a picture cut to `used` looks the same.
    const QPointF origin(bounds.left() + std::max<qreal>(0, (bounds.width() - grid.width() - strip) / 2),
                         bounds.top() + std::max<qreal>(0, (bounds.height() - grid.height()) / 2));
    for (int i = 0; i < tiles; ++i) {
        HeadsExportLayout::Tile t;
        t.frame = QRectF(origin + QPointF((i % l.gridColumns) * (tileSize.width() + kTileGap),
                                          (i / l.gridColumns) * (tileSize.height() + kTileGap)),
                         tileSize);
        t.cells = QRectF(t.frame.left() + rowRoom, t.frame.top() + titleHeight + columnRoom, columns * best.side,
                         rows * best.side);
        t.title = QRectF(t.cells.left(), t.frame.top(), t.cells.width(), title.height());
        if (best.rowRoom > 0)
            t.rowLabels = QRectF(t.frame.left(), t.cells.top(), best.rowRoom, t.cells.height());
        if (best.columnRoom > 0)
            t.columnLabels = QRectF(t.cells.left(), t.cells.top() - columnRoom, t.cells.width(), best.columnRoom);
        l.tiles.push_back(t);
    }
    // The bar spans the cells from the first row of tiles to the last.
    const qreal barTop = l.tiles.front().cells.top();
    const qreal barBottom = l.tiles.back().cells.bottom();
    const qreal barLeft = origin.x() + grid.width() + kBarGap;
    l.colorBar = QRectF(barLeft, barTop, kBarWidth, std::max<qreal>(1, barBottom - barTop));
    l.colorBarLabels = QRectF(l.colorBar.right() + 4, barTop - barText.height() / 2, ticks,
                              l.colorBar.height() + barText.height());
    l.colorBarTitle = QRectF(l.colorBarLabels.right() + 6, barTop, barText.height(), l.colorBar.height());
    l.used = QRectF(origin, QSizeF(grid.width() + strip, grid.height())).united(l.colorBarLabels);
    return l;
}
