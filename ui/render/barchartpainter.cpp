#include "barchartpainter.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <climits>
#include <cmath>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("BarChartPainter", text);
}

constexpr double kMargin = 8.0;

QFont pixelFont(QFont font)
{
    // Point sizes scale with the device's DPI (a PDF is 1200 dpi); pixel sizes
    // follow the painter's transform only, like the rest of the drawing.
    if (font.pixelSize() <= 0)
        font.setPixelSize(std::max(6, int(std::lround(font.pointSizeF() * 96.0 / 72.0))));
    return font;
}

double lineHeightOf(const QFontMetricsF &fm)
{
    return std::ceil(fm.height() * 1.2);
}

// 1, 2 or 5 times a power of ten: steps a reader can add up in their head.
double niceStep(double rough)
{
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * power >= rough * (1 - 1e-9))
            return m * power;
    return 10.0 * power;
}

QColor blend(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

QString tickLabel(double value, int decimals)
{
    if (std::abs(value) < 1e-12)
        value = 0.0; // no "-0.0"
    return QString::number(value, 'f', decimals).replace(QLatin1Char('-'), QChar(0x2212));
}

} // namespace

BarChartModel buildBarChartModel(const AttentionSnapshot &snapshot, int query)
{
    BarChartModel model;
    const attn::AttentionResult *result = snapshot.result.get();
    if (!result || result->output.rows() == 0 || snapshot.embeddings.rows() == 0) {
        model.error = snapshot.error.isEmpty() ? tr("Nothing to show yet.") : snapshot.error;
        return model;
    }
    const int rows = int(std::min(result->output.rows(), snapshot.embeddings.rows()));
    model.query = std::clamp(query, 0, rows - 1);
    model.token = model.query < snapshot.rowTokens.size() ? snapshot.rowTokens[model.query]
                                                          : QStringLiteral("#%1").arg(model.query);
    model.withPositions = result->positionalEncoding && result->inputs.rows() > model.query;
    const Eigen::RowVectorXd x = model.withPositions ? result->inputs.row(model.query)
                                                     : snapshot.embeddings.row(model.query);
    const Eigen::RowVectorXd z = result->output.row(model.query);
    model.embedding.assign(x.data(), x.data() + x.size());
    model.context.assign(z.data(), z.data() + z.size());
    return model;
}

BarChartLayout::BarChartLayout(const BarChartModel &model, const QRectF &rect, const QFont &font)
{
    m_values[0] = model.embedding;
    m_values[1] = model.context;
    m_count = std::max(1, model.length());
    const QFontMetricsF fm(font);
    m_lineHeight = lineHeightOf(fm);
    const double lh = m_lineHeight;
    const double width = rect.width() - 2 * kMargin;

    // Title on the left, legend on the right of the same line when both fit.
    m_title = QRectF(rect.left() + kMargin, rect.top() + kMargin, width, lh);
    const double swatch = std::round(lh * 0.6);
    double legendWidth = 0.0;
    for (int s = 0; s < BarChartModel::SeriesCount; ++s)
        legendWidth += swatch + 4 + fm.horizontalAdvance(BarChartPainter::seriesName(s, model.withPositions)) + 12;
    QFont bold = font;
    bold.setBold(true);
    const double titleWidth = QFontMetricsF(bold).horizontalAdvance(BarChartPainter::titleFor(model.token, model.withPositions));
    double top = m_title.bottom();
    if (titleWidth + 16 + legendWidth <= width) {
        m_legend = QRectF(m_title.right() - legendWidth, m_title.top(), legendWidth, lh);
        m_title.setWidth(width - legendWidth - 16);
    } else {
        m_legend = QRectF(m_title.left(), top, legendWidth, lh);
        top += lh;
    }
    const double noteHeight = model.lengthsDiffer() ? lh : 0.0;
    const double plotTop = top + lh * 0.6;
    const double plotBottom = rect.bottom() - kMargin - noteHeight - lh - 2;
    if (noteHeight > 0)
        m_note = QRectF(rect.left() + kMargin, rect.bottom() - kMargin - lh, width, lh);

    // Nice ticks over a range that always holds zero.
    double lo = 0.0, hi = 0.0;
    for (const auto &values : m_values)
        for (double v : values)
            if (std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
    if (hi - lo < 1e-12)
        hi = lo + 1.0;
    const int target = std::clamp(int((plotBottom - plotTop) / (lh * 2.2)), 2, 8);
    const double step = niceStep((hi - lo) / target);
    const long first = long(std::floor(lo / step + 1e-9));
    const long last = long(std::ceil(hi / step - 1e-9));
    m_axisMin = first * step;
    m_axisMax = last * step;
    for (long k = first; k <= last; ++k)
        m_ticks.push_back(k * step);
    m_tickDecimals = std::max(0, int(-std::floor(std::log10(step) + 1e-9)));

    double axisWidth = 0.0;
    for (double t : m_ticks)
        axisWidth = std::max(axisWidth, fm.horizontalAdvance(tickLabel(t, m_tickDecimals)));
    const double plotLeft = rect.left() + kMargin + axisWidth + 8;
    m_plot = QRectF(plotLeft, plotTop, std::max(1.0, rect.right() - kMargin - plotLeft),
                    std::max(1.0, plotBottom - plotTop));
    m_slot = m_plot.width() / m_count;
    m_dense = m_slot < 4.0;

    // Every labelStep-th dimension gets a label, so labels never collide.
    const double labelWidth = fm.horizontalAdvance(QStringLiteral("d%1").arg(m_count - 1)) + 8;
    for (long s = 1;; s *= 10) {
        for (long m : {1L, 2L, 5L}) {
            if (s * m * m_slot >= labelWidth || s * m >= m_count) {
                m_labelStep = int(s * m);
                return;
            }
        }
    }
}

double BarChartLayout::valueToY(double value) const
{
    const double t = (value - m_axisMin) / (m_axisMax - m_axisMin);
    return m_plot.bottom() - t * m_plot.height();
}

QRectF BarChartLayout::slotRect(int dim) const
{
    return QRectF(m_plot.left() + dim * m_slot, m_plot.top(), m_slot, m_plot.height());
}

QRectF BarChartLayout::barRect(int series, int dim) const
{
    if (series < 0 || series >= BarChartModel::SeriesCount || dim < 0 || dim >= int(m_values[series].size()))
        return {};
    const double value = m_values[series][size_t(dim)];
    const double y = valueToY(value), zero = zeroY();
    const QRectF slot = slotRect(dim);
    if (m_dense)
        return QRectF(slot.left(), std::min(y, zero), slot.width(), std::abs(zero - y));
    // A pair of bars fills most of its slot, but a few dims need no slabs.
    const double barWidth = std::min(m_slot * 0.38, 40.0);
    const double left = slot.center().x() - barWidth + series * barWidth;
    return QRectF(left, std::min(y, zero), barWidth, std::abs(zero - y));
}

int BarChartLayout::dimensionAt(double x) const
{
    if (x < m_plot.left() || x >= m_plot.right())
        return -1;
    return std::clamp(int((x - m_plot.left()) / m_slot), 0, m_count - 1);
}

BarChartPainter::BarChartPainter() : m_font(pixelFont(QFont()))
{
    rebuild();
}

void BarChartPainter::setSnapshot(SnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
    rebuild();
}

void BarChartPainter::setQuery(int query)
{
    m_query = query;
    rebuild();
}

void BarChartPainter::setFont(const QFont &font)
{
    m_font = pixelFont(font);
}

void BarChartPainter::rebuild()
{
    m_model = buildBarChartModel(m_snapshot ? *m_snapshot : AttentionSnapshot{}, m_query);
}

QColor BarChartPainter::seriesColor(int series, const QPalette &palette)
{
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    if (series == BarChartModel::Embedding)
        return dark ? QColor(0x56, 0xB4, 0xE9) : QColor(0x00, 0x72, 0xB2);
    return QColor(0xE6, 0x9F, 0x00);
}

QString BarChartPainter::seriesName(int series, bool withPositions)
{
    if (series == BarChartModel::Context)
        return tr("context z");
    return withPositions ? tr("input x + PE") : tr("embedding x");
}

QString BarChartPainter::titleFor(const QString &token, bool withPositions)
{
    return withPositions ? tr("“%1”: input (embedding + position) vs context").arg(token)
                         : tr("“%1”: embedding vs context").arg(token);
}

QString BarChartPainter::note() const
{
    return tr("Lengths differ (embedding %1, context %2): turn on output projection to compare like with like.")
        .arg(m_model.embedding.size())
        .arg(m_model.context.size());
}

void BarChartPainter::paint(QPainter &painter, const QRectF &rect, const QPalette &palette) const
{
    painter.save();
    painter.setClipRect(rect);
    painter.fillRect(rect, palette.color(QPalette::Base));
    painter.setFont(m_font);
    const QColor text = palette.color(QPalette::Text);
    if (!m_model.isValid()) {
        painter.setPen(text);
        painter.drawText(rect.adjusted(kMargin, kMargin, -kMargin, -kMargin), Qt::AlignCenter | Qt::TextWordWrap,
                         m_model.error);
        painter.restore();
        return;
    }
    const BarChartLayout layout = this->layout(rect);
    const QFontMetricsF fm(m_font);
    QFont bold = m_font;
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(text);
    painter.drawText(layout.titleRect(), Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetricsF(bold).elidedText(title(), Qt::ElideRight, layout.titleRect().width()));
    painter.setFont(m_font);
    const double swatch = std::round(layout.lineHeight() * 0.6);
    double x = layout.legendRect().left();
    const double cy = layout.legendRect().center().y();
    for (int s = 0; s < BarChartModel::SeriesCount; ++s) {
        painter.fillRect(QRectF(x, cy - swatch / 2, swatch, swatch), seriesColor(s, palette));
        x += swatch + 4;
        const double w = fm.horizontalAdvance(seriesName(s, m_model.withPositions));
        painter.drawText(QRectF(x, layout.legendRect().top(), w + 1, layout.lineHeight()), Qt::AlignLeft | Qt::AlignVCenter,
                         seriesName(s, m_model.withPositions));
        x += w + 12;
    }
    if (!layout.noteRect().isEmpty()) {
        painter.setPen(blend(text, palette.color(QPalette::Base), 0.35));
        painter.drawText(layout.noteRect(), Qt::AlignLeft | Qt::AlignVCenter,
                         fm.elidedText(note(), Qt::ElideRight, layout.noteRect().width()));
    }
    paintAxes(painter, layout, palette);
    paintBars(painter, layout, palette);
    // Zero on top of the bars: it is the line every bar grows from.
    painter.setPen(QPen(text, 1.0));
    const double zero = std::round(layout.zeroY()) + 0.5;
    painter.drawLine(QPointF(layout.plotRect().left(), zero), QPointF(layout.plotRect().right(), zero));
    painter.restore();
}

void BarChartPainter::paintAxes(QPainter &painter, const BarChartLayout &layout, const QPalette &palette) const
{
    const QColor text = palette.color(QPalette::Text);
    // Blends of Text into Base stay faint but visible on light and dark themes
    // alike; Mid is sometimes darker than a dark Base.
    const QColor grid = blend(text, palette.color(QPalette::Base), 0.86);
    const QRectF plot = layout.plotRect();
    const double lh = layout.lineHeight();
    for (double t : layout.ticks()) {
        const double y = std::round(layout.valueToY(t)) + 0.5;
        painter.setPen(grid);
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(text);
        painter.drawText(QRectF(plot.left() - 200 - 8, y - lh / 2, 200, lh), Qt::AlignRight | Qt::AlignVCenter,
                         tickLabel(t, layout.tickDecimals()));
    }
    painter.setPen(QPen(blend(text, palette.color(QPalette::Base), 0.6), 1.0));
    painter.drawLine(QPointF(plot.left() - 0.5, plot.top()), QPointF(plot.left() - 0.5, plot.bottom()));
    const int count = std::max(m_model.length(), 1);
    painter.setPen(text);
    for (int d = 0; d < count; d += layout.labelStep()) {
        const QRectF slot = layout.slotRect(d);
        const double cx = slot.center().x();
        painter.drawLine(QPointF(cx, plot.bottom()), QPointF(cx, plot.bottom() + 3));
        painter.drawText(QRectF(cx - 50, plot.bottom() + 2, 100, lh), Qt::AlignHCenter | Qt::AlignVCenter,
                         QStringLiteral("d%1").arg(d));
    }
}

void BarChartPainter::paintBars(QPainter &painter, const BarChartLayout &layout, const QPalette &palette) const
{
    if (!layout.dense()) {
        for (int s = 0; s < BarChartModel::SeriesCount; ++s) {
            const QColor color = seriesColor(s, palette);
            for (int d = 0; d < int(m_model.series(s).size()); ++d)
                painter.fillRect(layout.barRect(s, d), color);
        }
        return;
    }
    // Dense: each device column shows the span (min..max, with zero) of the
    // dimensions that fall into it, so 1024 dims cost at most a few hundred
    // rectangles and no dimension vanishes between pixels. The context sits on
    // top of the embedding, translucent, so both stay visible.
    const QRectF plot = layout.plotRect();
    const double slot = plot.width() / std::max(m_model.length(), 1);
    for (int s = 0; s < BarChartModel::SeriesCount; ++s) {
        QColor color = seriesColor(s, palette);
        if (s == BarChartModel::Context)
            color.setAlphaF(0.7f);
        const std::vector<double> &values = m_model.series(s);
        long column = LONG_MIN;
        double lo = 0.0, hi = 0.0;
        auto flush = [&](int endDim) {
            if (column == LONG_MIN)
                return;
            const long end = long(std::floor(plot.left() + endDim * slot));
            const double width = std::max(1.0, double(end - column) - (slot >= 2.0 ? 1.0 : 0.0));
            const double top = layout.valueToY(hi), bottom = layout.valueToY(lo);
            painter.fillRect(QRectF(column, top, width, std::max(bottom - top, 1.0)), color);
        };
        for (int d = 0; d < int(values.size()); ++d) {
            const long x0 = long(std::floor(plot.left() + d * slot));
            if (x0 != column) {
                flush(d);
                column = x0;
                lo = hi = 0.0;
            }
            lo = std::min(lo, values[size_t(d)]);
            hi = std::max(hi, values[size_t(d)]);
        }
        flush(int(values.size()));
    }
}
