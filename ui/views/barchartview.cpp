#include "barchartview.h"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include "widgetcache.h"

#include <QPainter>
#include <QToolTip>

BarChartView::BarChartView(QWidget *parent) : QWidget(parent)
{
    m_painter.setFont(font());
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent); // the cached image covers every pixel
}

void BarChartView::setSnapshot(SnapshotPtr snapshot)
{
    m_painter.setSnapshot(std::move(snapshot));
    invalidate();
}

void BarChartView::setQuery(int query)
{
    if (query == m_painter.query())
        return;
    m_painter.setQuery(query);
    invalidate();
}

QString BarChartView::tooltipText(int dim) const
{
    const BarChartModel &m = m_painter.model();
    if (!m.isValid() || dim < 0 || dim >= m.length())
        return {};
    auto value = [&](int series) {
        return m.hasValue(series, dim) ? QString::number(m.series(series)[size_t(dim)], 'g', 4) : tr("none");
    };
    return tr("d%1: embedding %2, context %3").arg(dim).arg(value(BarChartModel::Embedding), value(BarChartModel::Context));
}

QSize BarChartView::sizeHint() const
{
    return {640, 300};
}

QSize BarChartView::minimumSizeHint() const
{
    return {240, 140};
}

bool BarChartView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const BarChartLayout layout = currentLayout();
        const int dim = layout.plotRect().contains(help->pos()) ? layout.dimensionAt(help->pos().x()) : -1;
        const QString text = tooltipText(dim);
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this, layout.slotRect(dim).toAlignedRect());
        }
        return true;
    }
    return QWidget::event(event);
}

// The bars come from a cached image (1024 dims are a few hundred rectangles,
// but hover repaints come with every mouse move); only the band is live.
void BarChartView::paintEvent(QPaintEvent *)
{
    if (refitWidgetCache(m_cache, *this, m_dirty)) {
        QPainter cachePainter(&m_cache);
        m_painter.paint(cachePainter, QRectF(rect()), palette());
        m_dirty = false;
    }
    QPainter painter(this);
    painter.drawImage(0, 0, m_cache);
    if (m_hoverDim >= 0 && m_hoverDim < m_painter.model().length()) {
        QColor band = palette().color(QPalette::Text);
        band.setAlphaF(0.12f);
        const QRectF slot = currentLayout().slotRect(m_hoverDim);
        painter.fillRect(slot.width() < 3 ? slot.adjusted(-1, 0, 1, 0) : slot, band);
    }
}

void BarChartView::resizeEvent(QResizeEvent *event)
{
    m_dirty = true;
    QWidget::resizeEvent(event);
}

void BarChartView::mouseMoveEvent(QMouseEvent *event)
{
    const BarChartLayout layout = currentLayout();
    const QPointF pos = event->position();
    setHoveredDimension(layout.plotRect().contains(pos) ? layout.dimensionAt(pos.x()) : -1);
    QWidget::mouseMoveEvent(event);
}

void BarChartView::leaveEvent(QEvent *event)
{
    setHoveredDimension(-1);
    QWidget::leaveEvent(event);
}

void BarChartView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange)
        m_painter.setFont(font());
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        invalidate();
    QWidget::changeEvent(event);
}

void BarChartView::invalidate()
{
    m_dirty = true;
    if (m_hoverDim >= m_painter.model().length())
        setHoveredDimension(-1);
    update();
}

void BarChartView::setHoveredDimension(int dim)
{
    if (dim == m_hoverDim)
        return;
    m_hoverDim = dim;
    update();
    emit dimensionHovered(dim);
}
