#include "comparecanvas.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>

CompareCanvas::CompareCanvas(QWidget *parent) : QWidget(parent)
{
    // Small enough for a 1280 x 720 screen beside the window's other panels
    // (480 x 320 grew the window past it); the panels pool to what they get.
    setMinimumSize(320, 120);
    setAccessibleName(tr("Comparison of run A and variant B"));
}

void CompareCanvas::setData(std::shared_ptr<const ComparisonData> data)
{
    m_painter.setData(std::move(data));
    m_dirty = true;
    update();
}

void CompareCanvas::setColorMap(ColorMap map)
{
    m_painter.setColorMap(map);
    m_dirty = true;
    update();
}

QRectF CompareCanvas::contentRect() const { return QRectF(rect()).adjusted(8, 8, -8, -8); }

void CompareCanvas::paintEvent(QPaintEvent *)
{
    const qreal dpr = devicePixelRatioF();
    const QSize pixels = (QSizeF(size()) * dpr).toSize();
    if (m_dirty || m_cache.size() != pixels) {
        m_cache = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
        m_cache.setDevicePixelRatio(dpr);
        m_cache.fill(palette().color(QPalette::Base));
        QPainter p(&m_cache);
        m_painter.paint(p, contentRect(), palette(), font());
        m_dirty = false;
    }
    QPainter p(this);
    p.drawImage(QPointF(0, 0), m_cache);
}

void CompareCanvas::mousePressEvent(QMouseEvent *event)
{
    int layer = 0, head = 0;
    if (event->button() == Qt::LeftButton && m_painter.tileAt(contentRect(), font(), event->position(), &layer, &head))
        emit tileClicked(layer, head);
}

void CompareCanvas::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    QAction *exportAction = menu.addAction(tr("Export this comparison…"));
    exportAction->setEnabled(m_painter.data() && !m_painter.data()->isEmpty());
    if (menu.exec(event->globalPos()) == exportAction)
        emit exportRequested();
}

void CompareCanvas::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        m_dirty = true;
    QWidget::changeEvent(event);
}
