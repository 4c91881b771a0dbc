#include "contributionpainter.h"

#include "palettecolors.h"
#include "lessons/lessons.h"
#include "lessons/notation.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("ContributionPainter", text, disambiguation, n);
}

} // namespace

ContributionModel buildContributionModel(const AttentionSnapshot &snapshot, int query, int head, int maxSeries,
                                         int maxDims)
{
    ContributionModel m;
    if (!snapshot.result || snapshot.result->heads.empty()) {
        m.error = snapshot.error.isEmpty() ? tr("Nothing to show yet.") : snapshot.error;
        return m;
    }
    const attn::AttentionResult &r = *snapshot.result;
    head = std::clamp(head, 0, int(r.heads.size()) - 1);
    query = std::clamp(query, 0, int(r.inputs.rows()) - 1);
    const attn::HeadResult &h = r.heads[std::size_t(head)];
    const Eigen::MatrixXd all = attn::contributions(h, query);
    const int keys = int(all.rows());
    const int dims = std::min(int(all.cols()), maxDims);
    m.hiddenDims = int(all.cols()) - dims;
    m.queryToken = snapshot.rowTokens.value(query);

    std::vector<int> order(static_cast<std::size_t>(keys));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return h.weights(query, a) > h.weights(query, b); });
    const int shown = keys > maxSeries ? maxSeries - 1 : keys; // one slot left for "others"
    std::vector<int> kept(order.begin(), order.begin() + shown);
    std::sort(kept.begin(), kept.end()); // sentence order reads naturally in the legend
    m.hasOthers = shown < keys;
    m.parts = Eigen::MatrixXd::Zero(shown + (m.hasOthers ? 1 : 0), dims);
    for (int s = 0; s < shown; ++s) {
        const int j = kept[std::size_t(s)];
        m.series << snapshot.columnTokens.value(j);
        m.weights.push_back(h.weights(query, j));
        m.parts.row(s) = all.row(j).head(dims);
    }
    if (m.hasOthers) {
        double weight = 0.0;
        for (std::size_t i = std::size_t(shown); i < order.size(); ++i) {
            weight += h.weights(query, order[i]);
            m.parts.row(shown) += all.row(order[i]).head(dims);
        }
        m.series << tr("%n other(s)", nullptr, keys - shown);
        m.weights.push_back(weight);
    }
    for (int d = 0; d < dims; ++d)
        m.context.push_back(h.context(query, d));
    return m;
}

void ContributionPainter::setSnapshot(SnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
    rebuild();
}

void ContributionPainter::setQuery(int query)
{
    m_query = query;
    rebuild();
}

void ContributionPainter::setHead(int head)
{
    m_head = std::max(head, 0);
    rebuild();
}

void ContributionPainter::rebuild()
{
    m_model = m_snapshot ? buildContributionModel(*m_snapshot, m_query, m_head) : ContributionModel{};
    if (!m_snapshot)
        m_model.error = tr("Nothing to show yet.");
}

QColor ContributionPainter::seriesColor(int series, bool others, const QPalette &palette)
{
    if (others)
        return palette.color(QPalette::Mid);
    static const QRgb light[] = {0xE69F00, 0x0072B2, 0x009E73, 0xCC79A7, 0xD55E00, 0x56B4E9, 0xF0E442};
    static const QRgb dark[] = {0xE69F00, 0x56B4E9, 0x009E73, 0xCC79A7, 0xD55E00, 0xF0E442, 0xB3A6FF};
    const bool isDark = palette.color(QPalette::Base).lightness() < 128;
    return QColor(isDark ? dark[series % 7] : light[series % 7]);
}

void ContributionPainter::paint(QPainter &painter, const QRectF &rect, const QPalette &palette) const
{
    painter.save();
    painter.fillRect(rect, palette.color(QPalette::Base));
    painter.setFont(m_font);
    const QColor text = palette.color(QPalette::Text);
    painter.setPen(text);
    const QFontMetricsF fm(m_font);
    const double line = fm.height() + 2;
    if (!m_model.isValid()) {
        painter.drawText(rect, Qt::AlignCenter | Qt::TextWordWrap, m_model.error);
        painter.restore();
        return;
    }
    const QRectF area = rect.adjusted(8, 6, -8, -6);
    painter.drawText(QRectF(area.left(), area.top(), area.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("Context of “%1” = Σ α·v: each colour is one token's share").arg(m_model.queryToken));

    // Legend rows under the plot: swatch, token, weight.
    const int n = int(m_model.series.size());
    const double itemWidth = fm.horizontalAdvance(QStringLiteral("MMMMMMMM α 0.0000")) + 20;
    const int perRow = std::max(1, int(area.width() / itemWidth));
    const int legendRows = (n + perRow - 1) / perRow;
    const double legendTop = area.bottom() - legendRows * line;
    for (int s = 0; s < n; ++s) {
        const double x = area.left() + (s % perRow) * itemWidth;
        const double y = legendTop + (s / perRow) * line;
        painter.fillRect(QRectF(x, y + 3, 12, line - 6), seriesColor(s, m_model.hasOthers && s == n - 1, palette));
        painter.setPen(text);
        painter.drawText(QRectF(x + 16, y, itemWidth - 20, line), Qt::AlignLeft | Qt::AlignVCenter,
                         fm.elidedText(QStringLiteral("%1 α %2").arg(m_model.series[s], QString::number(m_model.weights[std::size_t(s)], 'f', 4)),
                                       Qt::ElideMiddle, itemWidth - 20));
    }

    // The value range: the stacked positives reach up, the negatives down.
    const int dims = int(m_model.parts.cols());
    double top = 0.0, bottom = 0.0;
    for (int d = 0; d < dims; ++d) {
        top = std::max(top, m_model.parts.col(d).cwiseMax(0.0).sum());
        bottom = std::min(bottom, m_model.parts.col(d).cwiseMin(0.0).sum());
    }
    if (top - bottom <= 0.0)
        top = 1.0;
    const double axisWidth = fm.horizontalAdvance(QStringLiteral("−0.000")) + 6;
    const QRectF plot(area.left() + axisWidth, area.top() + line + 6, area.width() - axisWidth,
                      legendTop - area.top() - 2 * line - 10);
    auto yOf = [&](double v) { return plot.bottom() - (v - bottom) / (top - bottom) * plot.height(); };
    const QColor faint = faintTextColor(palette);
    painter.setPen(QPen(faint, 1.0));
    painter.drawLine(QPointF(plot.left(), yOf(0)), QPointF(plot.right(), yOf(0)));
    for (double v : {top, bottom, 0.0}) {
        painter.drawText(QRectF(area.left(), yOf(v) - line / 2, axisWidth - 4, line), Qt::AlignRight | Qt::AlignVCenter,
                         attn::formatFixed(v, 2)); // every tick with the same decimals
    }
    const double slot = plot.width() / std::max(dims, 1);
    const double barWidth = std::min(slot * 0.6, 48.0);
    for (int d = 0; d < dims; ++d) {
        const double cx = plot.left() + slot * (d + 0.5);
        double up = 0.0, down = 0.0;
        for (int s = 0; s < n; ++s) {
            const double v = m_model.parts(s, d);
            double &base = v >= 0 ? up : down;
            const QRectF piece(QPointF(cx - barWidth / 2, yOf(base + v)), QPointF(cx + barWidth / 2, yOf(base)));
            painter.fillRect(piece.normalized(), seriesColor(s, m_model.hasOthers && s == n - 1, palette));
            base += v;
        }
        // The total (the context value) as a tick across the bar.
        const double total = m_model.context[std::size_t(d)];
        painter.setPen(QPen(text, 2.0));
        painter.drawLine(QPointF(cx - barWidth / 2 - 4, yOf(total)), QPointF(cx + barWidth / 2 + 4, yOf(total)));
        painter.drawText(QRectF(cx - slot / 2, plot.bottom() + 2, slot, line), Qt::AlignCenter,
                         fm.elidedText(QStringLiteral("d%1 %2").arg(d).arg(attn::formatFixed(total)),
                                       Qt::ElideRight, slot));
    }
    if (m_model.hiddenDims > 0) {
        painter.setPen(faint);
        painter.drawText(QRectF(area.left(), plot.bottom() + line + 2, area.width(), line), Qt::AlignRight,
                         tr("+%n more dimension(s)", nullptr, m_model.hiddenDims));
    }
    painter.restore();
}
