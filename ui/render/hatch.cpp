#include "hatch.h"

#include <QPainter>
#include <QPolygonF>
#include <algorithm>
#include <cmath>

std::vector<QLineF> staircaseHatch(const std::vector<StairStep> &steps, qreal right, qreal spacing,
                                   const QPointF &origin)
{
    std::vector<QLineF> lines;
    if (steps.empty() || spacing <= 0)
        return lines;
    const qreal top = steps.front().top, bottom = steps.back().bottom;
    const qreal phase = origin.x() + origin.y();
    // A line is x + y = c; the staircase holds c from top + its leftmost x to bottom + right.
    const qreal first = phase + std::ceil((top + steps.front().left - phase) / spacing) * spacing;
    for (qreal c = first; c <= bottom + right; c += spacing) {
        // Enters at the top edge, or at the right edge lower down.
        const qreal yA = std::max(top, c - right);
        const auto rowA = std::partition_point(steps.begin(), steps.end(),
                                               [&](const StairStep &s) { return s.bottom <= yA; });
        if (rowA == steps.end() || c - yA < rowA->left)
            continue; // left of the staircase where it would enter: the line misses it
        // Leaves in the first row whose masked part begins right of the line.
        const auto rowB = std::partition_point(rowA, steps.end(),
                                               [&](const StairStep &s) { return c - s.left >= s.bottom; });
        const qreal yB = rowB == steps.end() ? bottom : std::max(rowB->top, c - rowB->left);
        if (yB > yA)
            lines.emplace_back(QPointF(c - yA, yA), QPointF(c - yB, yB));
    }
    return lines;
}

void paintHatchedStaircase(QPainter &p, const std::vector<StairStep> &steps, qreal right, const QColor &background,
                           const QColor &hatch, const QPointF &origin)
{
    if (steps.empty())
        return;
    QPolygonF stairs;
    stairs.reserve(int(2 * steps.size() + 2));
    stairs << QPointF(right, steps.front().top);
    for (const StairStep &s : steps)
        stairs << QPointF(s.left, s.top) << QPointF(s.left, s.bottom);
    stairs << QPointF(right, steps.back().bottom);
    QPainterPath lines;
    for (const QLineF &line : staircaseHatch(steps, right, kHatchSpacing, origin)) {
        lines.moveTo(line.p1());
        lines.lineTo(line.p2());
    }
    p.save();
    p.setPen(Qt::NoPen);
    p.setBrush(background);
    p.drawPolygon(stairs);
    // Crisp one-pixel steps on screen and in PNG, as the pattern brush drew
    // them: every hatch pixel in the hatch colour. SVG keeps the lines.
    p.setRenderHint(QPainter::Antialiasing, false);
    p.strokePath(lines, QPen(hatch, 1.0, Qt::SolidLine, Qt::FlatCap));
    p.restore();
}
