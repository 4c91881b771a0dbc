#pragma once
// The loss (and accuracy, with its chance level) of a run so far, painted by
// paintTrainingCurves; a marker shows the step of the replayed snapshot.

#include "trainingcurves.h"

#include <QWidget>

class TrainingCurveView : public QWidget
{
    Q_OBJECT
public:
    explicit TrainingCurveView(QWidget *parent = nullptr);

    void setCurves(const TrainingCurves &curves);
    const TrainingCurves &curves() const { return m_curves; }
    QSize sizeHint() const override { return {480, 200}; }
    QSize minimumSizeHint() const override { return {240, 140}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    TrainingCurves m_curves;
};
