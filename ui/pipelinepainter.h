#pragma once
// The computation for one query and one head, step by step as it runs:
// query q -> scores q·k -> softmax weights -> context Σ α·v.

#include "snapshot.h"

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <array>
#include <vector>

class QPainter;

// One key as the scores and weights steps show it.
struct PipelineKeyRow
{
    int key = 0; // index into the snapshot's column tokens
    QString label;
    double score = 0.0;  // raw dot product q·k
    double scaled = 0.0; // score * scoreScale: what the softmax sees
    double weight = 0.0;
    bool masked = false;
    bool isSelf = false; // the query's own token (self-attention only)
};

// What the pipeline shows, already cut down to what fits. Plain data, so the
// choice of rows can be tested without pixels.
struct PipelineModel
{
    QString error; // why there is nothing to show; empty when there is
    int query = 0;
    int head = 0;
    int headCount = 0;
    QString queryToken;
    int headDim = 0;
    std::vector<double> queryValues;   // the first shown numbers of q
    std::vector<double> contextValues; // the first shown numbers of z
    int hiddenDims = 0;                // numbers left out of q and of z
    bool scaled = false;               // scores are scaled before the softmax
    double scoreScale = 1.0;
    double sqrtDk = 1.0;              // 1 / scoreScale, as the header shows it
    std::vector<PipelineKeyRow> rows; // shown keys, in sentence order
    int keyCount = 0;
    int hiddenKeys = 0;
    int hiddenMasked = 0;
    double hiddenWeight = 0.0; // the weights of the keys left out
    double weightSum = 0.0;    // the whole weights row, shown or not

    bool isValid() const { return error.isEmpty(); }
};

// Picks at most maxRows keys (the largest weights, always the query's own key
// when it is not masked, then back in sentence order) and at most maxDims
// numbers of q and z. Query and head are clamped into range.
PipelineModel buildPipelineModel(const AttentionSnapshot &snapshot, int query, int head, int maxRows, int maxDims);

// Where everything goes, in the coordinates of the rectangle painted into.
struct PipelineLayout
{
    enum Step { QueryStep, ScoresStep, WeightsStep, ContextStep, StepCount };
    std::array<QRectF, StepCount> steps;       // each step's column, titles included
    std::array<QRectF, StepCount - 1> arrows;  // the gaps between steps
    double lineHeight = 0.0;   // titles and footer lines
    double rowHeight = 0.0;    // number rows: taller when there are few of them
    double gap = 0.0;          // between columns inside a step
    double headerBottom = 0.0; // the rule under the titles
    double rowsTop = 0.0;      // top of the first number row
    int visibleLines = 0;      // number rows that fit under the titles
    // Columns inside the scores step and the weights step.
    double labelWidth = 0.0;
    double scoreWidth = 0.0;
    double scaledWidth = 0.0;
    bool scaledShown = false; // the ω ÷ √d_k column (dropped when space is short)
    bool shortScaledHeader = false;
    double barWidth = 0.0;
    double weightWidth = 0.0;
};

class PipelinePainter
{
public:
    PipelinePainter();

    void setSnapshot(SnapshotPtr snapshot);
    void setQuery(int query);
    void setHead(int head);
    // Converted to a pixel size, so layout and text agree on every device.
    void setFont(const QFont &font);

    SnapshotPtr snapshot() const { return m_snapshot; }
    int query() const { return m_query; }
    int head() const { return m_head; }
    QFont font() const { return m_font; }

    // What painting into rect would show, and where.
    PipelineModel model(const QRectF &rect) const;
    PipelineLayout layout(const QRectF &rect) const;
    QSizeF minimumSize() const;

    void paint(QPainter &painter, const QRectF &rect, const QPalette &palette) const;

private:
    struct Ink
    {
        QColor text, faint, rule;
    };
    int linesThatFit(const QRectF &rect) const;
    PipelineLayout layoutFor(const PipelineModel &model, const QRectF &rect) const;
    void paintHeader(QPainter &painter, const PipelineModel &model, const PipelineLayout &layout, const Ink &ink) const;
    void paintVector(QPainter &painter, const PipelineLayout &layout, const QRectF &step,
                     const std::vector<double> &values, int hidden, const Ink &ink) const;
    void paintKeys(QPainter &painter, const PipelineModel &model, const PipelineLayout &layout, const Ink &ink,
                   const QColor &bar, const QColor &track) const;

    SnapshotPtr m_snapshot;
    int m_query = 0;
    int m_head = 0;
    QFont m_font;
};
