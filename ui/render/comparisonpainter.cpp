#include "comparisonpainter.h"

#include "devicepixels.h"
#include "hatch.h"
#include "modelgridpainter.h"
#include "attention/pooledmatrix.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace {

constexpr double kGap = 12;
constexpr int kMaxVectorCells = 65536;

QString tr(const char *text) { return QCoreApplication::translate("ComparisonPainter", text); }

constexpr double kMaxTile = 72; // a grid of few heads stays a grid, not a wall of colour
constexpr double kGridGap = 3;  // modelgridpainter's gap between tiles

// Where the change grid goes inside the Changes panel: below its caption, tiles at most kMaxTile.
QRectF gridBounds(const QRectF &changes, const QFontMetricsF &fm, int layers, int heads)
{
    QRectF r = changes.adjusted(0, fm.height() + 4, 0, 0);
    const ModelGridLayout l = modelGridLayout(r, layers, heads, fm);
    if (l.tileSide() > kMaxTile) {
        r.setWidth(l.labelWidth + heads * (kMaxTile + kGridGap));
        r.setHeight(l.labelHeight + layers * (kMaxTile + kGridGap));
    }
    return r;
}

QString formatValue(double v)
{
    const double a = std::fabs(v);
    return QString::number(v, 'f', a != 0 && a < 0.01 ? 4 : a < 10 ? 2 : 1);
}

} // namespace

double sharedWeightMaximum(const ComparisonData &data)
{
    double m = 0;
    for (const attn::RowMatrix<float> *w : {&data.a.weights, &data.b.weights})
        if (w->size() > 0)
            m = std::max(m, double(w->maxCoeff()));
    return m;
}

double differenceMaximum(const ComparisonData &data)
{
    return data.cellwise && data.difference.size() > 0 ? double(data.difference.cwiseAbs().maxCoeff()) : 0.0;
}

double headChangeMaximum(const ComparisonData &data)
{
    double m = 0;
    for (const std::vector<float> &layer : data.headChange)
        for (float v : layer)
            m = std::max(m, double(v));
    return m;
}

double ComparisonPainter::rangeMax(ComparisonPanel panel) const
{
    if (!m_data)
        return 0;
    switch (panel) {
    case ComparisonPanel::A:
    case ComparisonPanel::B:
        return sharedWeightMaximum(*m_data);
    case ComparisonPanel::Difference:
        return differenceMaximum(*m_data);
    case ComparisonPanel::Changes:
        return headChangeMaximum(*m_data);
    }
    return 0;
}

QColor ComparisonPainter::colorFor(ComparisonPanel panel, double value) const
{
    return colorFor(panel, value, rangeMax(panel));
}

QColor ComparisonPainter::colorFor(ComparisonPanel panel, double value, double top) const
{
    if (panel == ComparisonPanel::Difference)
        return divergingColor(top > 0 ? value / top : 0.0);
    return sequentialColor(m_colorMap, top > 0 ? value / top : 0.0);
}

ComparisonLayout ComparisonPainter::layout(const QRectF &bounds, const QFont &font) const
{
    const QFontMetricsF fm(font);
    ComparisonLayout l;
    l.title = QRectF(bounds.left(), bounds.top(), bounds.width(), 2 * fm.height() + 4);
    const QRectF rest = bounds.adjusted(0, l.title.height() + 4, 0, 0);
    const bool threePanels = m_data && m_data->cellwise;
    const int panels = threePanels ? 3 : 2;
    const double panelWidth = (rest.width() - (panels - 1) * kGap) / panels;
    // A panel is its title, a square matrix with labels and the colour bar.
    const double panelHeight = std::min(panelWidth * 0.85 + 4 * fm.height(), rest.height() * 0.62);
    l.a = QRectF(rest.left(), rest.top(), panelWidth, panelHeight);
    l.b = l.a.translated(panelWidth + kGap, 0);
    if (threePanels)
        l.difference = l.b.translated(panelWidth + kGap, 0);
    const QRectF bottom(rest.left(), rest.top() + panelHeight + kGap, rest.width(),
                        std::max(0.0, rest.bottom() - rest.top() - panelHeight - kGap));
    const double gridWidth = std::min(bottom.width() * 0.55, std::max(bottom.height() * 1.6, bottom.width() * 0.4));
    l.changes = QRectF(bottom.left(), bottom.top(), gridWidth, bottom.height());
    l.text = QRectF(bottom.left() + gridWidth + kGap, bottom.top(), bottom.width() - gridWidth - kGap,
                    bottom.height());
    return l;
}

void ComparisonPainter::paint(QPainter &p, const QRectF &bounds, const QPalette &palette, const QFont &font) const
{
    p.save();
    p.setFont(font);
    p.setPen(palette.color(QPalette::Text));
    if (!m_data || m_data->isEmpty()) {
        p.drawText(bounds, Qt::AlignCenter | Qt::TextWordWrap,
                   tr("Nothing to compare yet: open a model and choose what B changes."));
        p.restore();
        return;
    }
    const ComparisonLayout l = layout(bounds, font);
    const QFontMetricsF fm(font);
    QFont bold = font;
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(l.title.adjusted(0, 0, 0, -l.title.height() / 2), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(tr("B: %1").arg(m_data->description), Qt::ElideRight, l.title.width()));
    p.setFont(font);
    p.drawText(l.title.adjusted(0, l.title.height() / 2, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(m_data->note, Qt::ElideRight, l.title.width()));
    paintMatrix(p, l.a, m_data->a.weights, m_data->a.labels, ComparisonPanel::A, m_data->a.title, palette);
    paintMatrix(p, l.b, m_data->b.weights, m_data->b.labels, ComparisonPanel::B, m_data->b.title, palette);
    if (m_data->cellwise)
        paintMatrix(p, l.difference, m_data->difference, m_data->a.labels, ComparisonPanel::Difference,
                    tr("B − A (blue: less, red: more)"), palette);
    paintChanges(p, l.changes, palette);
    paintText(p, l.text, palette);
    p.restore();
}

void ComparisonPainter::paintMatrix(QPainter &p, const QRectF &rect, const attn::RowMatrix<float> &m,
                                    const QStringList &labels, ComparisonPanel panel, const QString &title,
                                    const QPalette &palette) const
{
    const QFontMetricsF fm(p.font());
    p.drawText(QRectF(rect.left(), rect.top(), rect.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(title, Qt::ElideRight, rect.width()));
    const int n = int(m.rows()), cols = int(m.cols());
    if (n == 0 || cols == 0)
        return;
    const double barHeight = 2 * fm.height() + 6;
    double labelWidth = 0;
    for (const QString &s : labels)
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(s) + 6);
    labelWidth = std::min(labelWidth, rect.width() * 0.25);
    const double available = std::min(rect.width() - labelWidth, rect.height() - fm.height() - 4 - barHeight);
    // Cells may be smaller than a pixel: the picture is pooled to the pixels
    // (a floor here would let a long text run past its panel).
    const double cell = std::max(0.0, available) / std::max(n, cols);
    const bool showLabels = cell >= fm.height() * 0.8;
    const QRectF cells(rect.left() + (showLabels ? labelWidth : 0), rect.top() + fm.height() + 4, cell * cols,
                       cell * n);
    const QColor masked = palette.color(QPalette::Window).darker(108);
    const int window = panel == ComparisonPanel::B ? m_data->windowB : m_data->windowA;
    auto isMasked = [&](int r, int c) { return m_data->causal && (c > r || (window > 0 && c <= r - window)); };
    const bool aside = m_data->firstTokenAside; // column 0 is no weight: crossed out below
    // The scale's top once: it is the largest of every weight (or difference).
    const double top = rangeMax(panel);
    const auto colour = [&](double value) { return colorFor(panel, value, top); };
    // One rectangle a cell while they are few (SVG and PDF keep them as
    // vectors), else an image: a million rectangles would make an SVG of
    // a hundred megabytes.
    if (qint64(n) * cols <= kMaxVectorCells) {
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < cols; ++c)
                p.fillRect(QRectF(cells.left() + c * cell, cells.top() + r * cell, cell, cell),
                           isMasked(r, c) ? masked : colour(m(r, c)));
    } else {
        // At most one pixel a cell, and no more than the cells cover on a
        // PNG or screen (devicepixels.h): a pixel of a long text shows the
        // strongest value of its block of cells.
        const QSize size = boundedToPixels(p, cells, QSize(cols, n));
        QImage image(size, QImage::Format_RGB32);
        for (int y = 0; y < size.height(); ++y) {
            const int r0 = int(qint64(y) * n / size.height()), r1 = int(qint64(y + 1) * n / size.height());
            for (int x = 0; x < size.width(); ++x) {
                const int c0 = int(qint64(x) * cols / size.width()), c1 = int(qint64(x + 1) * cols / size.width());
                const float best = attn::strongestInBlock(m, r0, r1, c0, c1, m_data->causal);
                image.setPixel(x, y, (std::isnan(best) ? masked : colour(best)).rgb());
            }
        }
        p.save();
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        p.drawImage(cells, image);
        p.restore();
    }
    // Numbers in cells only where they fit.
    if (cell >= fm.horizontalAdvance(QStringLiteral("-0.00")) + 4 && cell >= fm.height()) {
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < cols; ++c) {
                if (isMasked(r, c) || (aside && c == 0))
                    continue;
                p.setPen(contrastingTextColor(colour(m(r, c))));
                p.drawText(QRectF(cells.left() + c * cell, cells.top() + r * cell, cell, cell), Qt::AlignCenter,
                           QString::number(m(r, c), 'f', 2));
            }
    }
    if (aside && cell > 0) {
        const QRectF column(cells.left(), cells.top(), std::max(cell, 1.0), cells.height());
        paintCrossHatchedRect(p, column, masked, palette.color(QPalette::Mid), cells.topLeft());
    }
    p.setPen(palette.color(QPalette::Text));
    if (showLabels)
        for (int r = 0; r < n && r < labels.size(); ++r)
            p.drawText(QRectF(rect.left(), cells.top() + r * cell, labelWidth - 4, cell), Qt::AlignRight | Qt::AlignVCenter,
                       fm.elidedText(labels[r], Qt::ElideRight, labelWidth - 4));
    paintScale(p, QRectF(cells.left(), cells.bottom() + 4, std::max(cells.width(), 120.0), barHeight - 4), panel,
               palette);
}

void ComparisonPainter::paintScale(QPainter &p, const QRectF &rect, ComparisonPanel panel,
                                   const QPalette &palette) const
{
    const QFontMetricsF fm(p.font());
    const double top = rangeMax(panel);
    const bool diverging = panel == ComparisonPanel::Difference;
    const QRectF strip(rect.left(), rect.top(), rect.width(), std::max(4.0, rect.height() - fm.height() - 2));
    constexpr int steps = 64;
    for (int i = 0; i < steps; ++i) {
        const double t = (i + 0.5) / steps;
        const QColor c = diverging ? divergingColor(2 * t - 1) : sequentialColor(m_colorMap, t);
        p.fillRect(QRectF(strip.left() + strip.width() * i / steps, strip.top(), strip.width() / steps + 0.5,
                          strip.height()), c);
    }
    p.setPen(palette.color(QPalette::Text));
    const QRectF text(rect.left(), strip.bottom() + 1, rect.width(), fm.height());
    p.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, diverging ? formatValue(-top) : QStringLiteral("0"));
    p.drawText(text, Qt::AlignRight | Qt::AlignVCenter, formatValue(top));
    p.drawText(text, Qt::AlignHCenter | Qt::AlignVCenter, diverging ? QStringLiteral("0") : tr("shared scale"));
}

void ComparisonPainter::paintChanges(QPainter &p, const QRectF &rect, const QPalette &palette) const
{
    const QFontMetricsF fm(p.font());
    const QRectF caption(rect.left(), rect.top(), rect.width(), fm.height());
    if (m_data->headChange.empty()) {
        p.drawText(rect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                   tr("No head-by-head change: A and B have different token counts."));
        return;
    }
    const double top = headChangeMaximum(*m_data);
    p.drawText(caption, Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(tr("Change of every head: %1 (largest %2; click a head)")
                                 .arg(m_data->changeName, formatValue(top)), Qt::ElideRight, rect.width()));
    std::vector<std::vector<QImage>> tiles;
    for (const std::vector<float> &layer : m_data->headChange) {
        std::vector<QImage> row;
        for (float v : layer) {
            QImage one(1, 1, QImage::Format_RGB32);
            one.fill(colorFor(ComparisonPanel::Changes, v));
            row.push_back(one);
        }
        tiles.push_back(std::move(row));
    }
    const QRectF gridRect = gridBounds(rect, fm, int(tiles.size()), int(tiles.front().size()));
    paintModelGrid(p, gridRect, tiles, m_data->layer, m_data->head, palette);
    const ModelGridLayout grid = modelGridLayout(gridRect, int(tiles.size()), int(tiles.front().size()), fm);
    if (grid.tileSide() < fm.horizontalAdvance(QStringLiteral("0.000")) + 4)
        return;
    for (int l = 0; l < grid.layers; ++l)
        for (int h = 0; h < grid.heads; ++h) {
            const float v = m_data->headChange[std::size_t(l)][std::size_t(h)];
            p.setPen(contrastingTextColor(colorFor(ComparisonPanel::Changes, v)));
            p.drawText(grid.tileRect(l, h), Qt::AlignCenter, formatValue(v));
        }
}

void ComparisonPainter::paintText(QPainter &p, const QRectF &rect, const QPalette &palette) const
{
    p.setPen(palette.color(QPalette::Text));
    QStringList lines;
    if (!m_data->a.predictions.isEmpty() || !m_data->b.predictions.isEmpty()) {
        lines << tr("Next token after the text:");
        lines << tr("A: %1").arg(m_data->a.predictions.join(QStringLiteral(" · ")));
        lines << tr("B: %1").arg(m_data->b.predictions.join(QStringLiteral(" · ")));
    }
    p.drawText(rect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, lines.join(QLatin1Char('\n')));
}

bool ComparisonPainter::tileAt(const QRectF &bounds, const QFont &font, const QPointF &pos, int *layer,
                               int *head) const
{
    if (!m_data || m_data->isEmpty() || m_data->headChange.empty())
        return false;
    const QFontMetricsF fm(font);
    const int layers = int(m_data->headChange.size()), heads = int(m_data->headChange.front().size());
    const ModelGridLayout grid = modelGridLayout(gridBounds(layout(bounds, font).changes, fm, layers, heads), layers,
                                                 heads, fm);
    return grid.tileAt(pos, layer, head);
}
