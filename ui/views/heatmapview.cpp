#include "heatmapview.h"

#include "widgetcache.h"

#include <QEvent>
#include <QPainter>
#include <algorithm>

HeatmapView::HeatmapView(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent); // the painter fills every pixel
    setAccessibleName(tr("Attention heatmap"));
    grabGesture(Qt::PinchGesture); // touch screens; touchpads send native zoom gestures
    buildButtons();
    updateAccessibleText();
}

void HeatmapView::setSnapshot(SnapshotPtr snapshot)
{
    m_painter.setSnapshot(std::move(snapshot));
    if (m_painter.hoverRow() >= m_painter.rows() || m_painter.hoverColumn() >= m_painter.columns())
        m_painter.setHoverCell(-1, -1);
    invalidate();
}

void HeatmapView::setQuery(int row)
{
    if (row == m_painter.query())
        return;
    m_painter.setQuery(row);
    if (m_focusColumn >= 0 && hasFocus())
        m_painter.setHoverCell(row, m_focusColumn); // the keyboard cursor moves with its row
    invalidate();
    // A query picked elsewhere (a chip, a key) is brought into view.
    if (row >= 0 && row < m_painter.rows())
        setZoom(currentLayout().scrolledTo(row, hasFocus() ? m_focusColumn : -1));
}

void HeatmapView::setHead(std::optional<int> head)
{
    if (head == m_painter.head())
        return;
    m_painter.setHead(head);
    invalidate();
}

void HeatmapView::setShowScores(bool scores)
{
    if (scores == m_painter.showScores())
        return;
    m_painter.setShowScores(scores);
    invalidate();
}

void HeatmapView::setColorMap(ColorMap map)
{
    if (map == m_painter.colorMap())
        return;
    m_painter.setColorMap(map);
    invalidate();
}

void HeatmapView::setColorScale(const ColorScale &scale)
{
    if (scale == m_painter.colorScale())
        return;
    m_painter.setColorScale(scale);
    invalidate();
    emit colorScaleChanged(scale);
}

void HeatmapView::setZoom(const HeatmapZoom &zoom)
{
    const HeatmapZoom before = currentLayout().zoom();
    m_painter.setZoom(zoom);
    const HeatmapZoom after = currentLayout().zoom(); // clamped
    m_painter.setZoom(after);
    if (after == before)
        return;
    invalidate();
    emit zoomChanged(after);
}

void HeatmapView::zoomBy(qreal factor, const QPointF &anchor)
{
    setZoom(currentLayout().zoomedAbout(anchor, factor));
}

QPointF HeatmapView::keyboardAnchor() const
{
    const HeatmapLayout &l = currentLayout();
    const int row = m_painter.query();
    const int column = std::max(0, m_focusColumn);
    if (row >= 0 && l.isCellVisible(row, column))
        return l.cellRect(row, column).center();
    return l.cellArea().center();
}

void HeatmapView::zoomIn()
{
    zoomBy(kZoomStep, keyboardAnchor());
}

void HeatmapView::zoomOut()
{
    zoomBy(1 / kZoomStep, keyboardAnchor());
}

void HeatmapView::fitToView()
{
    setZoom(HeatmapZoom());
}

void HeatmapView::invalidate()
{
    m_cacheDirty = true;
    updateAccessibleText();
    placeButtons();
    update();
}

const HeatmapLayout &HeatmapView::currentLayout() const
{
    return m_painter.layout(QRectF(rect()), font(), this);
}

QRectF HeatmapView::cellRect(int row, int column) const
{
    return currentLayout().cellRect(row, column);
}

std::optional<std::pair<int, int>> HeatmapView::cellAt(const QPointF &pos) const
{
    return currentLayout().cellAt(pos);
}

void HeatmapView::paintEvent(QPaintEvent *)
{
    if (refitWidgetCache(m_cache, *this, m_cacheDirty)) {
        QPainter cachePainter(&m_cache);
        cachePainter.setFont(font());
        m_painter.paintBase(cachePainter, QRectF(rect()), palette());
        m_cacheDirty = false;
    }
    QPainter p(this);
    p.drawImage(0, 0, m_cache);
    m_painter.paintHover(p, QRectF(rect()), palette());
}

void HeatmapView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    placeButtons();
}

void HeatmapView::setHighlightedCells(int row, const QList<int> &columns)
{
    m_painter.setHighlightedCells(row, columns);
    update(); // an overlay: the cached cells stay
}

void HeatmapView::setHover(int row, int column)
{
    if (row == m_painter.hoverRow() && column == m_painter.hoverColumn())
        return;
    m_painter.setHoverCell(row, column);
    update(); // the cache stays: only the hover ring is redrawn on top
    emit cellHovered(row, column);
}

void HeatmapView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange
        || event->type() == QEvent::StyleChange)
        invalidate();
    QWidget::changeEvent(event);
}
