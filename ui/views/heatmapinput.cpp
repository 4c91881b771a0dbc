// How the heatmap answers the mouse, the wheel, gestures and keys: picking
// the query, hovering, zooming and panning. The rest of HeatmapView is in
// heatmapview.cpp; the maths of zoom and pan is HeatmapLayout's.
#include "heatmapview.h"

#include <QGestureEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QNativeGestureEvent>
#include <QPinchGesture>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

void HeatmapView::mouseMoveEvent(QMouseEvent *event)
{
    if (m_panning) {
        const QPointF delta = event->position() - m_panFrom;
        m_panFrom = event->position();
        setZoom(currentLayout().pannedBy(delta));
        return;
    }
    const auto cell = cellAt(event->position());
    setHover(cell ? cell->first : -1, cell ? cell->second : -1);
}

void HeatmapView::mousePressEvent(QMouseEvent *event)
{
    // Middle button, or left with Space held, grabs the matrix to pan it.
    if (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && m_spaceHeld)) {
        m_panning = true;
        m_panFrom = event->position();
        setCursor(Qt::ClosedHandCursor);
        return;
    }
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    if (const auto cell = cellAt(event->position()))
        emit querySelected(cell->first);
}

void HeatmapView::mouseReleaseEvent(QMouseEvent *event)
{
    if (!m_panning)
        return QWidget::mouseReleaseEvent(event);
    m_panning = false;
    if (m_spaceHeld)
        setCursor(Qt::OpenHandCursor);
    else
        unsetCursor();
}

void HeatmapView::wheelEvent(QWheelEvent *event)
{
    const HeatmapLayout &l = currentLayout();
    if (m_painter.rows() == 0) {
        event->ignore();
        return;
    }
    if (event->modifiers() & Qt::ControlModifier) {
        // 120 is one notch of a mouse wheel; touchpads send smaller steps.
        const qreal notches = (event->angleDelta().y() != 0 ? event->angleDelta().y() : event->angleDelta().x()) / 120.0;
        if (notches != 0)
            zoomBy(std::pow(kZoomStep, notches), event->position());
        event->accept();
        return;
    }
    // Fitted, there is nothing to scroll: the wheel belongs to whatever is around.
    if (l.zoom().isFit()) {
        event->ignore();
        return;
    }
    const qreal line = fontMetrics().height();
    QPointF delta = !event->pixelDelta().isNull() ? QPointF(event->pixelDelta())
                                                  : QPointF(event->angleDelta()) / 120.0 * 3 * line;
    if ((event->modifiers() & Qt::ShiftModifier) && delta.x() == 0)
        delta = QPointF(delta.y(), 0); // Shift+wheel scrolls sideways, as in most desktop viewers
    setZoom(l.pannedBy(delta));
    event->accept();
}

void HeatmapView::leaveEvent(QEvent *event)
{
    setHover(-1, -1);
    QWidget::leaveEvent(event);
}

bool HeatmapView::handleZoomKey(const QKeyEvent *event)
{
    if (!(event->modifiers() & Qt::ControlModifier))
        return false;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        return true;
    case Qt::Key_Minus:
        zoomOut();
        return true;
    case Qt::Key_0:
        fitToView();
        return true;
    default:
        return false;
    }
}

void HeatmapView::keyPressEvent(QKeyEvent *event)
{
    if (handleZoomKey(event))
        return;
    if (event->key() == Qt::Key_Space && event->modifiers() == Qt::NoModifier) {
        if (!event->isAutoRepeat() && !m_panning)
            setCursor(Qt::OpenHandCursor);
        m_spaceHeld = true;
        return;
    }
    if (m_painter.rows() == 0 || m_painter.columns() == 0)
        return QWidget::keyPressEvent(event);
    // Left/Right walk a cursor along the query's row; Up/Down move the query.
    const int across = event->key() == Qt::Key_Left ? -1 : event->key() == Qt::Key_Right ? 1 : 0;
    if (across != 0) {
        m_focusColumn = m_focusColumn < 0 ? 0 : std::clamp(m_focusColumn + across, 0, m_painter.columns() - 1);
        setZoom(currentLayout().scrolledTo(m_painter.query(), m_focusColumn));
        setHover(m_painter.query(), m_focusColumn);
        updateAccessibleText();
        return;
    }
    const int step = event->key() == Qt::Key_Up ? -1 : event->key() == Qt::Key_Down ? 1 : 0;
    if (step == 0)
        return QWidget::keyPressEvent(event);
    const int next = std::clamp(m_painter.query() + step, 0, m_painter.rows() - 1);
    if (next != m_painter.query())
        emit querySelected(next);
}

void HeatmapView::keyReleaseEvent(QKeyEvent *event)
{
    if (event->key() != Qt::Key_Space || event->isAutoRepeat())
        return QWidget::keyReleaseEvent(event);
    m_spaceHeld = false;
    if (!m_panning)
        unsetCursor();
}

void HeatmapView::focusOutEvent(QFocusEvent *event)
{
    m_spaceHeld = false; // its release goes to another widget
    if (!m_panning)
        unsetCursor();
    QWidget::focusOutEvent(event);
}

bool HeatmapView::event(QEvent *event)
{
    switch (event->type()) {
    case QEvent::ShortcutOverride:
        // Ctrl+= / Ctrl+- / Ctrl+0 zoom the heatmap while it has the focus.
        if (auto *key = static_cast<QKeyEvent *>(event); (key->modifiers() & Qt::ControlModifier)
            && (key->key() == Qt::Key_Plus || key->key() == Qt::Key_Equal || key->key() == Qt::Key_Minus
                || key->key() == Qt::Key_0)) {
            event->accept();
            return true;
        }
        break;
    case QEvent::NativeGesture: {
        auto *gesture = static_cast<QNativeGestureEvent *>(event);
        if (gesture->gestureType() == Qt::ZoomNativeGesture) {
            zoomBy(1 + gesture->value(), gesture->position());
            return true;
        }
        if (gesture->gestureType() == Qt::SmartZoomNativeGesture) {
            if (zoom().isFit())
                zoomBy(4, gesture->position());
            else
                fitToView();
            return true;
        }
        break;
    }
    case QEvent::Gesture: {
        auto *gestures = static_cast<QGestureEvent *>(event);
        if (auto *pinch = static_cast<QPinchGesture *>(gestures->gesture(Qt::PinchGesture))) {
            if (pinch->changeFlags() & QPinchGesture::ScaleFactorChanged)
                zoomBy(pinch->scaleFactor(), mapFromGlobal(pinch->centerPoint()));
            gestures->accept(pinch);
            return true;
        }
        break;
    }
    case QEvent::ToolTip: {
        auto *help = static_cast<QHelpEvent *>(event);
        const auto cell = cellAt(help->pos());
        if (cell) {
            QToolTip::showText(help->globalPos(), tooltipText(cell->first, cell->second), this,
                               cellRect(cell->first, cell->second).toAlignedRect());
        } else {
            QToolTip::hideText();
            event->ignore();
        }
        return true;
    }
    default:
        break;
    }
    return QWidget::event(event);
}
