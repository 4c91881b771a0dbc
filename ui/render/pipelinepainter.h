#pragma once
// The computation for one query and one head, step by step as it runs:
// query q -> scores q·k -> softmax weights -> context Σ α·v.

#include "pipelinemodel.h"
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
    // The context column's title: "context z = Σ α·v", or "switched off: z = 0".
    static QString contextTitle(const PipelineModel &model);
    // Under q, with shared key/value heads: which one this head reads and which heads share it.
    static QString sharingNote(const PipelineModel &model);
    // The room under q's numbers the note wraps in; too little (a model's
    // long vectors), and it goes on the Σ line's left part, one line.
    static QRectF sharingRoom(const PipelineModel &model, const PipelineLayout &layout);

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
    void paintSharing(QPainter &painter, const PipelineModel &model, const PipelineLayout &layout,
                      const Ink &ink) const;
    void paintKeys(QPainter &painter, const PipelineModel &model, const PipelineLayout &layout, const Ink &ink,
                   const QColor &bar, const QColor &track) const;

    SnapshotPtr m_snapshot;
    int m_query = 0;
    int m_head = 0;
    QFont m_font;
};
