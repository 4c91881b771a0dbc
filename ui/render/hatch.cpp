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

namespace {

void strokeHatch(QPainter &p, const std::vector<QLineF> &segments, const QColor &hatch)
{
    QPainterPath lines;
    for (const QLineF &line : segments) {
        lines.moveTo(line.p1());
        lines.lineTo(line.p2());
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    p.strokePath(lines, QPen(hatch, 1.0, Qt::SolidLine, Qt::FlatCap));
}

// (x, y) -> (sx - x, sy - y): a point reflection keeps "/" lines "/", and
// maps x + y = c to x + y = sx + sy - c.
QLineF reflected(const QLineF &line, qreal sx, qreal sy)
{
    return {QPointF(sx - line.x1(), sy - line.y1()), QPointF(sx - line.x2(), sy - line.y2())};
}

} // namespace

void paintHatchedLeftStaircase(QPainter &p, const std::vector<LeftStairStep> &steps, qreal left,
                               const QColor &background, const QColor &hatch, const QPointF &origin)
{
    if (steps.empty())
        return;
    QPolygonF stairs;
    stairs.reserve(int(2 * steps.size() + 2));
    stairs << QPointF(left, steps.front().top);
    for (const LeftStairStep &s : steps)
        stairs << QPointF(s.right, s.top) << QPointF(s.right, s.bottom);
    stairs << QPointF(left, steps.back().bottom);
    // Reflected through a point, the band is a staircase of the usual kind
    // (masked up to the right edge, its left edge never moving left), whose
    // hatch reflected back is this one's.
    const qreal right = steps.back().right;
    const qreal sx = left + right, sy = steps.front().top + steps.back().bottom;
    std::vector<StairStep> mirror;
    mirror.reserve(steps.size());
    for (auto s = steps.rbegin(); s != steps.rend(); ++s)
        mirror.push_back({sy - s->bottom, sy - s->top, sx - s->right});
    const QPointF mirrorOrigin(sx + sy - origin.x() - origin.y(), 0);
    std::vector<QLineF> segments;
    for (const QLineF &line : staircaseHatch(mirror, right, kHatchSpacing, mirrorOrigin))
        segments.push_back(reflected(line, sx, sy));
    p.save();
    p.setPen(Qt::NoPen);
    p.setBrush(background);
    p.drawPolygon(stairs);
    strokeHatch(p, segments, hatch);
    p.restore();
}

void paintCrossHatchedRect(QPainter &p, const QRectF &rect, const QColor &background, const QColor &hatch,
                           const QPointF &origin)
{
    if (rect.isEmpty())
        return;
    const std::vector<StairStep> box{{rect.top(), rect.bottom(), rect.left()}};
    std::vector<QLineF> segments = staircaseHatch(box, rect.right(), kHatchSpacing, origin);
    // "\": the same lines mirrored left to right about the rectangle's middle.
    const qreal sx = rect.left() + rect.right();
    for (const QLineF &line : staircaseHatch(box, rect.right(), kHatchSpacing, QPointF(sx - origin.x(), origin.y())))
        segments.emplace_back(QPointF(sx - line.x1(), line.y1()), QPointF(sx - line.x2(), line.y2()));
    p.save();
    p.fillRect(rect, background);
    strokeHatch(p, segments, hatch);
    p.restore();
}
