#include "patternsparklineview.h"

#include <QPainter>

PatternSparklineView::PatternSparklineView(QWidget *parent) : QWidget(parent)
{
    setAccessibleName(tr("Attention pattern scores per head"));
    setToolTip(tr("How much of each head's attention follows a pattern, from 0 to 1, over the run:\n"
                  "previous: on the token just before; induction: on the token after an earlier copy of the "
                  "current one;\nself: on the token itself; first: on the first token"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void PatternSparklineView::setSeries(const std::vector<HeadPatternSeries> &series)
{
    m_series = series;
    update();
    updateGeometry();
}

void PatternSparklineView::setCurrent(int snapshot)
{
    m_current = snapshot;
    update();
}

QSize PatternSparklineView::sizeHint() const
{
    const int line = fontMetrics().height();
    return {360, line * 2 + int(std::max<std::size_t>(m_series.size(), 4)) * (line + 8)};
}

void PatternSparklineView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    paintSparklineTable(p, QRectF(rect()).adjusted(4, 2, -4, -2), m_series, m_current, palette());
}
