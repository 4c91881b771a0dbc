#pragma once
// Pictures of a training run: the loss curve with the accuracy and its chance
// level, and one sparkline per head and attention pattern. Plain data in,
// painting into any QPainter out (QtGui only); the layout maths is a struct
// tests can check without pixels.

#include <QPainter>
#include <QPalette>
#include <QPointF>
#include <QRectF>
#include <array>
#include <vector>

// The attention patterns a head is scored on, each a weight in [0, 1].
enum class AttentionPattern { PreviousToken, Induction, Diagonal, FirstToken };
constexpr int kAttentionPatterns = 4;
using PatternScores = std::array<double, kAttentionPatterns>;

// A run's curves: (step, value) points in step order.
struct TrainingCurves
{
    std::vector<QPointF> loss;
    std::vector<QPointF> accuracy; // in [0, 1]; empty when the task has none
    double chance = -1;            // the accuracy of uniform guessing; < 0: none
    int totalSteps = 0;            // the x axis ends here
    int markerStep = -1;           // a vertical line (the replayed snapshot); < 0: none
};

// Where the plot and its axes go; the loss axis is on the left from 0, the
// accuracy axis on the right from 0 to 1.
struct TrainingCurveLayout
{
    QRectF plot;
    double stepMax = 1;
    double lossMax = 1;

    QPointF lossPoint(double step, double loss) const;
    QPointF accuracyPoint(double step, double accuracy) const;
};

TrainingCurveLayout trainingCurveLayout(const QRectF &bounds, const TrainingCurves &curves, const QFontMetricsF &fm);
void paintTrainingCurves(QPainter &p, const QRectF &bounds, const TrainingCurves &curves, const QPalette &palette);

// One head's pattern scores over the snapshots of a run.
struct HeadPatternSeries
{
    int layer = 0, head = 0;
    std::array<std::vector<double>, kAttentionPatterns> values; // one per snapshot
};

// A table of sparklines: one row per head, one column per pattern, each on a
// fixed 0..1 scale so heads compare; `current` (a snapshot index, -1: the
// last) gets a dot and its value.
struct SparklineTableLayout
{
    QRectF bounds;
    int rows = 0;
    double labelWidth = 0, headerHeight = 0, rowHeight = 0;

    QRectF cellRect(int row, int pattern) const;
};

SparklineTableLayout sparklineTableLayout(const QRectF &bounds, int rows, const QFontMetricsF &fm);
void paintSparklineTable(QPainter &p, const QRectF &bounds, const std::vector<HeadPatternSeries> &series, int current,
                         const QPalette &palette);
// The short column title of a pattern ("prev", "induct", ...), translated.
QString attentionPatternTitle(AttentionPattern pattern);
QColor attentionPatternColor(AttentionPattern pattern);
