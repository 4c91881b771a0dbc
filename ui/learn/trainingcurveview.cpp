#include "trainingcurveview.h"

#include <QPainter>

TrainingCurveView::TrainingCurveView(QWidget *parent) : QWidget(parent)
{
    setAccessibleName(tr("Loss curve"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void TrainingCurveView::setCurves(const TrainingCurves &curves)
{
    m_curves = curves;
    update();
}

void TrainingCurveView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    paintTrainingCurves(p, QRectF(rect()).adjusted(4, 4, -4, -4), m_curves, palette());
}
