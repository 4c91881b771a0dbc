#pragma once
// Each head's pattern scores (previous-token, induction, self, first-token)
// over the snapshots as small sparklines, so the moment a head specialises
// shows as a step in its line.

#include "trainingcurves.h"

#include <QWidget>

class PatternSparklineView : public QWidget
{
    Q_OBJECT
public:
    explicit PatternSparklineView(QWidget *parent = nullptr);

    void setSeries(const std::vector<HeadPatternSeries> &series);
    // The snapshot whose values are shown (-1: the latest).
    void setCurrent(int snapshot);
    const std::vector<HeadPatternSeries> &series() const { return m_series; }
    int current() const { return m_current; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {240, 120}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::vector<HeadPatternSeries> m_series;
    int m_current = -1;
};
