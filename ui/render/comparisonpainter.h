#pragma once
// Paints a comparison of two runs (comparisondata.h) into any QPainter: A and
// B on one shared colour scale, the diverging difference B − A, the layers ×
// heads grid of every head's change and the next-token predictions. The one
// path behind the Compare dock and its PNG, SVG and PDF export.

#include "colormap.h"
#include "comparisondata.h"

#include <QFont>
#include <QPalette>
#include <QRectF>
#include <memory>

class QPainter;

// Where the parts go inside a rectangle; plain maths, for hit tests and tests.
struct ComparisonLayout
{
    QRectF title, a, b, difference, changes, text;
};

enum class ComparisonPanel { A, B, Difference, Changes };

class ComparisonPainter
{
public:
    void setData(std::shared_ptr<const ComparisonData> data) { m_data = std::move(data); }
    std::shared_ptr<const ComparisonData> data() const { return m_data; }
    void setColorMap(ColorMap map) { m_colorMap = map; }
    ColorMap colorMap() const { return m_colorMap; }

    // The value the top of a panel's colour scale stands for: A and B share
    // one (the larger weight of either); the difference spans ±its value.
    double rangeMax(ComparisonPanel panel) const;
    // The colour a value gets in a panel (what the cells are painted with).
    QColor colorFor(ComparisonPanel panel, double value) const;
    // The same on a scale whose top (rangeMax(panel)) is known.
    QColor colorFor(ComparisonPanel panel, double value, double top) const;

    ComparisonLayout layout(const QRectF &bounds, const QFont &font) const;
    void paint(QPainter &p, const QRectF &bounds, const QPalette &palette, const QFont &font) const;
    // The head whose tile of the change grid is at `pos`; false elsewhere.
    bool tileAt(const QRectF &bounds, const QFont &font, const QPointF &pos, int *layer, int *head) const;

private:
    void paintMatrix(QPainter &p, const QRectF &rect, const attn::RowMatrix<float> &m, const QStringList &labels,
                     ComparisonPanel panel, const QString &title, const QPalette &palette) const;
    void paintScale(QPainter &p, const QRectF &rect, ComparisonPanel panel, const QPalette &palette) const;
    void paintChanges(QPainter &p, const QRectF &rect, const QPalette &palette) const;
    void paintText(QPainter &p, const QRectF &rect, const QPalette &palette) const;

    std::shared_ptr<const ComparisonData> m_data;
    ColorMap m_colorMap = ColorMap::Viridis;
};
