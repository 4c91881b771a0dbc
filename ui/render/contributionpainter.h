#pragma once
// The context vector as the stacked sum of its weighted values α_j·v_j: per
// dimension one bar made of every key's share (a colour per token), so a
// learner sees that the largest weight is only part of the result.

#include "snapshot.h"

#include <Eigen/Dense>
#include <QColor>
#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QStringList>
#include <vector>

class QPainter;

// What the chart shows, already cut down to what fits. Plain data.
struct ContributionModel
{
    QString error; // why there is nothing to show; empty when there is
    QString queryToken;
    QStringList series;           // key tokens (the smallest weights merged into "others")
    std::vector<double> weights;  // the weight of each series
    Eigen::MatrixXd parts;        // series x dims: what each series adds, from attn::contributions
    std::vector<double> context;  // the head's context row (the sum of the parts), shown dims
    int hiddenDims = 0;
    bool hasOthers = false;       // the last series is "others"

    bool isValid() const { return error.isEmpty(); }
};

// At most maxSeries tokens (the largest weights; the rest add up as
// "others") and maxDims dimensions.
ContributionModel buildContributionModel(const AttentionSnapshot &snapshot, int query, int head, int maxSeries = 7,
                                         int maxDims = 12);

class ContributionPainter
{
public:
    void setSnapshot(SnapshotPtr snapshot);
    void setQuery(int query);
    void setHead(int head);
    void setFont(const QFont &font) { m_font = font; }

    const ContributionModel &model() const { return m_model; }
    // Okabe-Ito colours in a fixed order; grey for "others".
    static QColor seriesColor(int series, bool others, const QPalette &palette);

    void paint(QPainter &painter, const QRectF &rect, const QPalette &palette) const;

private:
    void rebuild();

    SnapshotPtr m_snapshot;
    int m_query = 0;
    int m_head = 0;
    QFont m_font;
    ContributionModel m_model;
};
