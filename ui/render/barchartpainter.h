#pragma once
// Grouped bars per dimension: the query token's embedding as the user typed
// it against the vector attention hands on (the output row).

#include "snapshot.h"

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QString>
#include <algorithm>
#include <vector>

class QPainter;

// The two vectors compared; plain data, testable without pixels.
struct BarChartModel
{
    enum Series { Embedding = 0, Context = 1, SeriesCount = 2 };

    QString error; // why there is nothing to show; empty when there is
    int query = 0;
    QString token;
    // The query's input: its embedding as edited, or x + PE (the vector
    // attention actually used) when positional encoding is on.
    std::vector<double> embedding;
    bool withPositions = false;
    std::vector<double> context;   // result->output.row(query)

    bool isValid() const { return error.isEmpty(); }
    int length() const { return int(std::max(embedding.size(), context.size())); }
    bool lengthsDiffer() const { return embedding.size() != context.size(); }
    const std::vector<double> &series(int s) const { return s == Embedding ? embedding : context; }
    bool hasValue(int s, int dim) const { return dim >= 0 && dim < int(series(s).size()); }
};

BarChartModel buildBarChartModel(const AttentionSnapshot &snapshot, int query);

// Where the axes, bars and labels go inside a rectangle.
class BarChartLayout
{
public:
    BarChartLayout(const BarChartModel &model, const QRectF &rect, const QFont &font);

    QRectF plotRect() const { return m_plot; }
    double valueToY(double value) const;
    double zeroY() const { return valueToY(0.0); }
    // The bar of one series at one dimension, from the zero line to the value.
    // When dense() both series share the whole slot (drawn on top of each other).
    QRectF barRect(int series, int dim) const;
    QRectF slotRect(int dim) const; // the column of one dimension, plot height
    int dimensionAt(double x) const; // -1 outside the plot
    bool dense() const { return m_dense; }

    const std::vector<double> &ticks() const { return m_ticks; }
    int tickDecimals() const { return m_tickDecimals; }
    double axisMin() const { return m_axisMin; }
    double axisMax() const { return m_axisMax; }
    int labelStep() const { return m_labelStep; } // every how many dims an x label
    QRectF titleRect() const { return m_title; }
    QRectF legendRect() const { return m_legend; }
    QRectF noteRect() const { return m_note; } // empty unless the lengths differ
    double lineHeight() const { return m_lineHeight; }

private:
    std::vector<double> m_values[BarChartModel::SeriesCount]; // a copy: a layout may outlive its model
    QRectF m_plot, m_title, m_legend, m_note;
    std::vector<double> m_ticks;
    double m_axisMin = -1.0, m_axisMax = 1.0, m_slot = 1.0, m_lineHeight = 12.0;
    int m_tickDecimals = 1, m_labelStep = 1, m_count = 0;
    bool m_dense = false;
};

class BarChartPainter
{
public:
    BarChartPainter();

    void setSnapshot(SnapshotPtr snapshot);
    void setQuery(int query);
    // Converted to a pixel size, so layout and text agree on every device.
    void setFont(const QFont &font);

    const BarChartModel &model() const { return m_model; }
    int query() const { return m_query; }
    QFont font() const { return m_font; }
    BarChartLayout layout(const QRectF &rect) const { return BarChartLayout(m_model, rect, m_font); }

    // Colour-blind-safe blue and orange (Okabe-Ito), lighter on a dark base.
    static QColor seriesColor(int series, const QPalette &palette);
    static QString seriesName(int series, bool withPositions = false);
    static QString titleFor(const QString &token, bool withPositions = false);
    QString title() const { return titleFor(m_model.token, m_model.withPositions); }
    QString note() const;

    void paint(QPainter &painter, const QRectF &rect, const QPalette &palette) const;

private:
    void rebuild();
    void paintBars(QPainter &painter, const BarChartLayout &layout, const QPalette &palette) const;
    void paintAxes(QPainter &painter, const BarChartLayout &layout, const QPalette &palette) const;

    SnapshotPtr m_snapshot;
    int m_query = 0;
    QFont m_font;
    BarChartModel m_model;
};
