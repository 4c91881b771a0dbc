#include "trainingcurves.h"

#include "palettecolors.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace {

constexpr double kGap = 4;

QString tr(const char *text) { return QCoreApplication::translate("TrainingCurves", text); }

QColor lossColor(const QPalette &palette) { return mixColors(palette.color(QPalette::Text), QColor(0x00, 0x72, 0xb2), 0.8); }
QColor accuracyColor() { return QColor(0xe6, 0x9f, 0x00); }

void drawPolyline(QPainter &p, const std::vector<QPointF> &points)
{
    if (points.size() == 1) {
        p.drawEllipse(points.front(), 1.5, 1.5);
        return;
    }
    QPainterPath path(points.front());
    for (std::size_t i = 1; i < points.size(); ++i)
        path.lineTo(points[i]);
    p.drawPath(path);
}

QString lossLabel(double v) { return QString::number(v, 'f', v < 10 ? 2 : 1); }

} // namespace

QPointF TrainingCurveLayout::lossPoint(double step, double loss) const
{
    return {plot.left() + plot.width() * std::clamp(step / stepMax, 0.0, 1.0),
            plot.bottom() - plot.height() * std::clamp(loss / lossMax, 0.0, 1.0)};
}

QPointF TrainingCurveLayout::accuracyPoint(double step, double accuracy) const
{
    return {plot.left() + plot.width() * std::clamp(step / stepMax, 0.0, 1.0),
            plot.bottom() - plot.height() * std::clamp(accuracy, 0.0, 1.0)};
}

TrainingCurveLayout trainingCurveLayout(const QRectF &bounds, const TrainingCurves &curves, const QFontMetricsF &fm)
{
    TrainingCurveLayout l;
    double top = 0;
    for (const QPointF &pt : curves.loss)
        if (std::isfinite(pt.y()))
            top = std::max(top, pt.y());
    l.lossMax = top > 0 ? top * 1.05 : 1.0;
    double lastStep = curves.loss.empty() ? 0 : curves.loss.back().x();
    l.stepMax = std::max({1.0, double(curves.totalSteps), lastStep});
    const double left = fm.horizontalAdvance(lossLabel(l.lossMax)) + 8;
    const double right = curves.accuracy.empty() ? 8 : fm.horizontalAdvance(QStringLiteral("100%")) + 8;
    const double legend = fm.height() + 6, axis = fm.height() + 4;
    l.plot = QRectF(bounds.left() + left, bounds.top() + legend, std::max(1.0, bounds.width() - left - right),
                    std::max(1.0, bounds.height() - legend - axis));
    return l;
}

void paintTrainingCurves(QPainter &p, const QRectF &bounds, const TrainingCurves &curves, const QPalette &palette)
{
    const QFontMetricsF fm(p.font());
    const TrainingCurveLayout l = trainingCurveLayout(bounds, curves, fm);
    const QColor text = palette.color(QPalette::Text), faint = faintTextColor(palette);
    const QColor grid = mixColors(palette.color(QPalette::Base), text, 0.12);
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.fillRect(l.plot, palette.color(QPalette::Base));
    p.setPen(QPen(grid, 1));
    for (int i = 1; i < 4; ++i) {
        const double y = l.plot.top() + l.plot.height() * i / 4;
        p.drawLine(QPointF(l.plot.left(), y), QPointF(l.plot.right(), y));
    }
    p.setPen(QPen(faint, 1));
    p.drawRect(l.plot);

    // Axes: loss on the left, steps below, accuracy on the right.
    const double h = fm.height();
    p.setPen(faint);
    for (double f : {0.0, 0.5, 1.0}) {
        const double y = l.plot.bottom() - l.plot.height() * f;
        p.drawText(QRectF(bounds.left(), y - h / 2, l.plot.left() - bounds.left() - 4, h),
                   Qt::AlignRight | Qt::AlignVCenter, lossLabel(l.lossMax * f));
        if (!curves.accuracy.empty())
            p.drawText(QRectF(l.plot.right() + 4, y - h / 2, bounds.right() - l.plot.right() - 4, h),
                       Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("%1%").arg(int(std::lround(f * 100))));
    }
    const QRectF below(l.plot.left(), l.plot.bottom() + 2, l.plot.width(), h);
    p.drawText(below, Qt::AlignLeft | Qt::AlignTop, QStringLiteral("0"));
    p.drawText(below, Qt::AlignRight | Qt::AlignTop, QString::number(qint64(l.stepMax)));
    p.drawText(below, Qt::AlignHCenter | Qt::AlignTop, tr("step"));

    // Legend above the plot.
    double x = l.plot.left();
    auto legendEntry = [&](const QColor &colour, Qt::PenStyle style, const QString &label) {
        const double y = bounds.top() + h / 2 + 1;
        p.setPen(QPen(colour, 2, style));
        p.drawLine(QPointF(x, y), QPointF(x + 18, y));
        p.setPen(text);
        p.drawText(QRectF(x + 22, bounds.top(), fm.horizontalAdvance(label) + 2, h + 2), Qt::AlignLeft | Qt::AlignVCenter,
                   label);
        x += 22 + fm.horizontalAdvance(label) + 14;
    };
    legendEntry(lossColor(palette), Qt::SolidLine, tr("loss"));
    if (!curves.accuracy.empty())
        legendEntry(accuracyColor(), Qt::SolidLine, tr("accuracy"));
    if (curves.chance >= 0 && !curves.accuracy.empty())
        legendEntry(accuracyColor(), Qt::DashLine, tr("chance"));

    p.setClipRect(l.plot.adjusted(-2, -2, 2, 2));
    if (curves.chance >= 0 && !curves.accuracy.empty()) {
        const double y = l.accuracyPoint(0, curves.chance).y();
        p.setPen(QPen(accuracyColor(), 1.2, Qt::DashLine));
        p.drawLine(QPointF(l.plot.left(), y), QPointF(l.plot.right(), y));
    }
    std::vector<QPointF> points;
    if (!curves.accuracy.empty()) {
        for (const QPointF &pt : curves.accuracy)
            points.push_back(l.accuracyPoint(pt.x(), pt.y()));
        p.setPen(QPen(accuracyColor(), 1.5));
        drawPolyline(p, points);
    }
    points.clear();
    for (const QPointF &pt : curves.loss)
        if (std::isfinite(pt.y()))
            points.push_back(l.lossPoint(pt.x(), pt.y()));
    if (!points.empty()) {
        p.setPen(QPen(lossColor(palette), 1.8));
        drawPolyline(p, points);
    }
    if (curves.markerStep >= 0) {
        const double mx = l.lossPoint(curves.markerStep, 0).x();
        p.setPen(QPen(palette.color(QPalette::Highlight), 1.5));
        p.drawLine(QPointF(mx, l.plot.top()), QPointF(mx, l.plot.bottom()));
    }
    p.restore();
}

QString attentionPatternTitle(AttentionPattern pattern)
{
    switch (pattern) {
    case AttentionPattern::PreviousToken: return tr("previous");
    case AttentionPattern::Induction: return tr("induction");
    case AttentionPattern::Diagonal: return tr("self");
    case AttentionPattern::FirstToken: return tr("first");
    }
    return {};
}

QColor attentionPatternColor(AttentionPattern pattern)
{
    // Okabe–Ito: told apart with every kind of colour vision, on light and dark.
    switch (pattern) {
    case AttentionPattern::PreviousToken: return QColor(0x56, 0xb4, 0xe9);
    case AttentionPattern::Induction: return QColor(0xd5, 0x5e, 0x00);
    case AttentionPattern::Diagonal: return QColor(0x00, 0x9e, 0x73);
    case AttentionPattern::FirstToken: return QColor(0xcc, 0x79, 0xa7);
    }
    return {};
}

QRectF SparklineTableLayout::cellRect(int row, int pattern) const
{
    const double width = (bounds.width() - labelWidth) / kAttentionPatterns;
    return QRectF(bounds.left() + labelWidth + pattern * width, bounds.top() + headerHeight + row * rowHeight,
                  std::max(1.0, width - kGap), std::max(1.0, rowHeight - 2));
}

SparklineTableLayout sparklineTableLayout(const QRectF &bounds, int rows, const QFontMetricsF &fm)
{
    SparklineTableLayout l;
    l.bounds = bounds;
    l.rows = rows;
    l.labelWidth = fm.horizontalAdvance(QStringLiteral("L00 H00")) + 6;
    l.headerHeight = fm.height() + 4;
    l.rowHeight = rows > 0 ? std::min(4.5 * fm.height(), (bounds.height() - l.headerHeight) / rows) : 0;
    return l;
}

void paintSparklineTable(QPainter &p, const QRectF &bounds, const std::vector<HeadPatternSeries> &series, int current,
                         const QPalette &palette)
{
    const QFontMetricsF fm(p.font());
    const SparklineTableLayout l = sparklineTableLayout(bounds, int(series.size()), fm);
    const QColor text = palette.color(QPalette::Text), faint = faintTextColor(palette);
    const QColor grid = mixColors(palette.color(QPalette::Base), text, 0.15);
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    for (int k = 0; k < kAttentionPatterns; ++k) {
        const QRectF cell = l.cellRect(0, k);
        p.setPen(attentionPatternColor(AttentionPattern(k)));
        p.drawText(QRectF(cell.left(), bounds.top(), cell.width(), l.headerHeight), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(attentionPatternTitle(AttentionPattern(k)), Qt::ElideRight, cell.width()));
    }
    const double valueWidth = fm.horizontalAdvance(QStringLiteral("0.00")) + 4;
    const bool labels = l.rowHeight >= fm.height();
    for (int row = 0; row < int(series.size()); ++row) {
        const HeadPatternSeries &s = series[std::size_t(row)];
        const QRectF first = l.cellRect(row, 0);
        if (labels) {
            p.setPen(text);
            p.drawText(QRectF(bounds.left(), first.top(), l.labelWidth - 4, first.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("L%1 H%2").arg(s.layer).arg(s.head));
        }
        for (int k = 0; k < kAttentionPatterns; ++k) {
            const std::vector<double> &values = s.values[std::size_t(k)];
            QRectF cell = l.cellRect(row, k);
            const bool showValue = labels && cell.width() > 2.5 * valueWidth;
            const QRectF line = showValue ? cell.adjusted(0, 1, -valueWidth, -1) : cell.adjusted(0, 1, 0, -1);
            p.fillRect(line, palette.color(QPalette::Base));
            p.setPen(QPen(grid, 1));
            p.drawLine(line.bottomLeft(), line.bottomRight());
            if (values.empty())
                continue;
            const int n = int(values.size());
            auto at = [&](int i) {
                const double fx = n > 1 ? double(i) / (n - 1) : 1.0;
                return QPointF(line.left() + fx * line.width(),
                               line.bottom() - std::clamp(values[std::size_t(i)], 0.0, 1.0) * line.height());
            };
            const QColor colour = attentionPatternColor(AttentionPattern(k));
            QPainterPath path(at(0));
            for (int i = 1; i < n; ++i)
                path.lineTo(at(i));
            p.setPen(QPen(colour, 1.4));
            p.drawPath(path);
            const int shown = current < 0 || current >= n ? n - 1 : current;
            p.setBrush(colour);
            p.setPen(Qt::NoPen);
            p.drawEllipse(at(shown), 2.2, 2.2);
            p.setBrush(Qt::NoBrush);
            if (showValue) {
                p.setPen(faint);
                p.drawText(QRectF(line.right() + 2, cell.top(), valueWidth - 2, cell.height()),
                           Qt::AlignRight | Qt::AlignVCenter, QString::number(values[std::size_t(shown)], 'f', 2));
            }
        }
    }
    p.restore();
}
