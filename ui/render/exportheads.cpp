// HeadsExportPainter's drawing; the layout and data are in exportheadslayout.cpp.
#include "exportheads.h"

#include "devicepixels.h"
#include "hatch.h"
#include "heatmappainter.h"
#include "attention/pooledmatrix.h"

#include <QImage>
#include <QLinearGradient>
#include <QPainter>
#include <QPalette>
#include <QPolygonF>
#include <algorithm>
#include <cmath>

namespace {

// A tile's matrix never needs more pixels than this (on a PNG, nor than its
// cells cover there): larger ones are pooled, the strongest value of a block
// winning, so a lone peak stays visible.
constexpr int kTileImageSize = 512;

} // namespace

void HeadsExportPainter::paint(QPainter &p, const QRectF &rect, const QPalette &palette) const
{
    p.save();
    p.setPen(palette.color(QPalette::Text));
    if (tileCount() == 0) {
        p.drawText(rect.adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
                   m_snapshot ? m_snapshot->error : QString());
        p.restore();
        return;
    }
    const QFont font = p.font();
    const HeadsExportLayout l = layout(rect, font, p.device());
    for (int i = 0; i < tileCount(); ++i)
        paintTile(p, l, i, palette);
    p.setFont(font);
    paintColorBar(p, l, palette);
    p.restore();
}

void HeadsExportPainter::paintTile(QPainter &p, const HeadsExportLayout &l, int index, const QPalette &palette) const
{
    const HeadsExportLayout::Tile &t = l.tiles[std::size_t(index)];
    const QFont font = p.font();
    const bool outlined = m_outlining && headOfTile(index) == m_outlined;
    QFont title = titleFont(font);
    title.setBold(outlined);
    p.setFont(title);
    p.setPen(palette.color(QPalette::Text));
    const QFontMetricsF metrics(title, p.device());
    // Centred over the cells, but never cut: a narrow tile lets it spread over the labels.
    const QRectF titleRect = metrics.horizontalAdvance(tileTitle(index)) <= t.title.width()
        ? t.title : QRectF(t.frame.left(), t.title.top(), t.frame.width(), t.title.height());
    p.drawText(titleRect, Qt::AlignCenter, metrics.elidedText(tileTitle(index), Qt::ElideRight, titleRect.width()));
    p.setFont(font);
    if (t.cells.width() >= 1 && t.cells.height() >= 1)
        paintCells(p, t.cells, index, palette);
    paintLabels(p, l, index);
    if (outlined) {
        p.setPen(QPen(palette.color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(t.frame.adjusted(-5, -3, 5, 5));
    }
    p.setFont(font);
}

void HeadsExportPainter::paintCells(QPainter &p, const QRectF &cells, int index, const QPalette &palette) const
{
    const attn::AttentionMatrix &v = *matrixOf(index);
    const int rows = int(v.rows()), columns = int(v.cols());
    const attn::AttentionResult &result = *m_snapshot->result;
    const bool causal = result.causal;
    const int window = causal ? result.window : 0; // a sliding window hides the keys before it too
    const auto firstSeen = [window](int r) { return window > 0 ? std::max(0, r - window + 1) : 0; };
    const QColor masked = HeatmapPainter::maskedBackground(palette);
    const qreal cw = cells.width() / columns, ch = cells.height() / rows;
    p.save();
    if (m_vectorCells && qint64(rows) * columns <= HeatmapPainter::kMaxVectorCells) {
        for (int r = 0; r < rows; ++r) {
            const Eigen::RowVectorXd row = v.row(r);
            for (int c = 0; c < columns; ++c) {
                const QRectF cell(cells.left() + c * cw, cells.top() + r * ch, cw, ch);
                p.fillRect(cell, result.isMasked(r, c) ? masked : colorFor(row[c]));
            }
        }
    } else {
        const QSize limit = boundedToPixels(p, cells, QSize(kTileImageSize, kTileImageSize));
        const int w = std::min(columns, limit.width()), h = std::min(rows, limit.height());
        QImage image(w, h, QImage::Format_RGB32);
        std::vector<double> best(static_cast<std::size_t>(w));
        std::vector<char> any(static_cast<std::size_t>(w));
        for (int y = 0; y < h; ++y) {
            std::fill(any.begin(), any.end(), 0);
            const int r0 = int(qint64(y) * rows / h), r1 = int(qint64(y + 1) * rows / h);
            for (int r = r0; r < r1; ++r) {
                const Eigen::RowVectorXd row = v.row(r);
                const int visible = causal ? std::min(columns, r + 1) : columns;
                for (int x = 0; x < w; ++x) {
                    const int c1 = std::min(int(qint64(x + 1) * columns / w), visible);
                    for (int c = std::max(int(qint64(x) * columns / w), firstSeen(r)); c < c1; ++c) {
                        if (!any[std::size_t(x)] || attn::strongerThan(row[c], best[std::size_t(x)]))
                            best[std::size_t(x)] = row[c];
                        any[std::size_t(x)] = 1;
                    }
                }
            }
            auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
            for (int x = 0; x < w; ++x)
                line[x] = any[std::size_t(x)] ? colorFor(best[std::size_t(x)]).rgb() : masked.rgb();
        }
        p.setRenderHint(QPainter::SmoothPixmapTransform, false); // a cell is a flat block, never a blur
        p.drawImage(cells, image);
    }
    if (causal && rows > 1) {
        // The masked keys (column > row) as one hatched staircase, as the heatmap draws them.
        std::vector<StairStep> steps;
        steps.reserve(std::size_t(rows));
        for (int r = 0; r < rows; ++r)
            steps.push_back({cells.top() + r * ch, cells.top() + (r + 1) * ch,
                             std::min(cells.right(), cells.left() + (r + 1) * cw)});
        paintHatchedStaircase(p, steps, cells.right(), masked, HeatmapPainter::maskedHatch(palette), cells.topLeft());
        if (window > 0 && rows > window) {
            // The keys before each row's window, as a staircase from the left.
            std::vector<LeftStairStep> band;
            for (int r = window; r < rows; ++r)
                band.push_back({cells.top() + r * ch, cells.top() + (r + 1) * ch, cells.left() + (r - window + 1) * cw});
            paintHatchedLeftStaircase(p, band, cells.left(), masked, HeatmapPainter::maskedHatch(palette),
                                      cells.topLeft());
        }
    }
    if (showsFirstTokenAside()) {
        // The first token's column set aside, crossed as the heatmap covers it
        // (in the rows that see it: past a window it is masked).
        const QRectF column(cells.left(), cells.top(), cw, window > 0 ? std::min(rows, window) * ch : cells.height());
        paintCrossHatchedRect(p, column, masked, HeatmapPainter::maskedHatch(palette), cells.topLeft());
    }
    // Thin gaps between big cells make single cells easy to tell apart.
    if (cw >= 14 && ch >= 14) {
        p.setPen(QPen(palette.color(QPalette::Base), 1));
        for (int c = 1; c < columns; ++c)
            p.drawLine(QPointF(cells.left() + c * cw, cells.top()), QPointF(cells.left() + c * cw, cells.bottom()));
        for (int r = 1; r < rows; ++r)
            p.drawLine(QPointF(cells.left(), cells.top() + r * ch), QPointF(cells.right(), cells.top() + r * ch));
    }
    if (m_query >= 0 && m_query < rows) {
        p.setPen(QPen(palette.color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        const QRectF row(cells.left(), cells.top() + m_query * ch, cells.width(), ch);
        p.drawRect(ch > 6 ? row.adjusted(1, 1, -1, -1) : row.adjusted(0, -1, 0, 1));
    }
    p.restore();
}

void HeadsExportPainter::paintLabels(QPainter &p, const HeadsExportLayout &l, int index) const
{
    const HeadsExportLayout::Tile &t = l.tiles[std::size_t(index)];
    const QFont normal = labelFont(p.font());
    QFont bold = normal;
    bold.setBold(true);
    const QFontMetricsF metrics(normal, p.device()), boldMetrics(bold, p.device());
    const int rows = int(matrixOf(index)->rows()), columns = int(matrixOf(index)->cols());
    p.save();
    if (!t.rowLabels.isEmpty()) {
        for (int r = 0; r < rows && r < m_rowLabels.size(); r += l.rowLabelStep) {
            const bool query = r == m_query;
            p.setFont(query ? bold : normal);
            const QRectF slot(t.rowLabels.left(), t.cells.top() + (r + 0.5) * l.cellSide - metrics.height() / 2,
                              t.rowLabels.width(), metrics.height());
            p.drawText(slot, Qt::AlignRight | Qt::AlignVCenter,
                       (query ? boldMetrics : metrics).elidedText(m_rowLabels[r], Qt::ElideRight, slot.width()));
        }
    }
    p.setFont(normal);
    if (!t.columnLabels.isEmpty()) {
        for (int c = 0; c < columns && c < m_columnLabels.size(); c += l.columnLabelStep) {
            const qreal centre = t.cells.left() + (c + 0.5) * l.cellSide;
            const QString text = metrics.elidedText(m_columnLabels[c], Qt::ElideRight,
                                                    l.columnLabelsRotated ? t.columnLabels.height() : l.cellSide);
            if (!l.columnLabelsRotated) {
                p.drawText(QRectF(centre - l.cellSide / 2, t.columnLabels.top(), l.cellSide, t.columnLabels.height()),
                           Qt::AlignHCenter | Qt::AlignBottom, text);
                continue;
            }
            // Read upwards, starting next to the cells.
            p.save();
            p.translate(centre, t.columnLabels.bottom());
            p.rotate(-90);
            p.drawText(QRectF(0, -metrics.height() / 2, t.columnLabels.height(), metrics.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, text);
            p.restore();
        }
    }
    p.restore();
}

void HeadsExportPainter::paintColorBar(QPainter &p, const HeadsExportLayout &l, const QPalette &palette) const
{
    const QRectF bar = l.colorBar;
    // A gradient, not an image: SVG and PDF keep it as a vector shading.
    QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
    constexpr int kStops = 32;
    for (int i = 0; i <= kStops; ++i) {
        const double t = double(i) / kStops;
        gradient.setColorAt(t, m_showScores ? divergingColor(2 * t - 1) : sequentialColor(m_colorMap, t));
    }
    p.save();
    p.setPen(QPen(palette.color(QPalette::Mid), 1));
    p.setBrush(gradient);
    p.drawRect(bar);
    p.setPen(palette.color(QPalette::Text));
    const QRectF labels = l.colorBarLabels;
    const qreal line = QFontMetricsF(p.font(), p.device()).height();
    p.drawText(labels, Qt::AlignLeft | Qt::AlignTop, formatTick(rangeMax()));
    p.drawText(labels, Qt::AlignLeft | Qt::AlignBottom, formatTick(rangeMin()));
    if (bar.height() >= 4 * line)
        p.drawText(labels, Qt::AlignLeft | Qt::AlignVCenter, formatTick((rangeMin() + rangeMax()) / 2));
    const QRectF title = l.colorBarTitle;
    p.translate(title.center());
    p.rotate(-90);
    p.drawText(QRectF(-title.height() / 2, -title.width() / 2, title.height(), title.width()), Qt::AlignCenter,
               colorBarTitle());
    p.restore();
}
