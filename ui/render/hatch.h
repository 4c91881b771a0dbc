#pragma once
// The hatching of masked cells (the keys a causal mask hides) as plain line
// segments: the same picture on screen, in PNG, SVG and PDF. A pattern brush
// became an SVG <pattern> holding a <mask>, which LibreOffice, PowerPoint and
// Keynote drop (the masked cells came out blank or solid grey on slides).

#include <QColor>
#include <QLineF>
#include <QPainterPath>
#include <QPointF>
#include <vector>

class QPainter;

// One row of a staircase: its band [top, bottom) is masked from x = left to
// the staircase's right edge. Steps go top to bottom, touching, and `left`
// never decreases (the later a query, the more keys it sees).
struct StairStep
{
    qreal top = 0, bottom = 0, left = 0;
};

// The hatch lines ("/", 45°, one every `spacing` pixels along x + y, placed
// from `origin`) inside the staircase whose right edge is `right`: one
// segment per line, since a line that leaves the staircase never enters again.
std::vector<QLineF> staircaseHatch(const std::vector<StairStep> &steps, qreal right, qreal spacing,
                                   const QPointF &origin);

// Fills the staircase with `background` and draws its hatch in `hatch`, one
// path of 1-pixel lines every 8 pixels, not antialiased (the look of Qt::BDiagPattern).
void paintHatchedStaircase(QPainter &p, const std::vector<StairStep> &steps, qreal right, const QColor &background,
                           const QColor &hatch, const QPointF &origin);

// A staircase anchored at the left edge `left`: row s is masked from `left`
// to s.right, which never decreases down the rows (the keys before a
// sliding window: the later a query, the more of them). The same "/" hatch,
// in phase with paintHatchedStaircase's for the same `origin`.
struct LeftStairStep
{
    qreal top = 0, bottom = 0, right = 0;
};
void paintHatchedLeftStaircase(QPainter &p, const std::vector<LeftStairStep> &steps, qreal left,
                               const QColor &background, const QColor &hatch, const QPointF &origin);

// A rectangle filled with `background` and cross-hatched ("/" and "\") in
// `hatch`, as line segments (a column set aside, not masked).
void paintCrossHatchedRect(QPainter &p, const QRectF &rect, const QColor &background, const QColor &hatch,
                           const QPointF &origin);

constexpr qreal kHatchSpacing = 8;
