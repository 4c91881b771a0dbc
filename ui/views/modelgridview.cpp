#include "modelgridview.h"

#include <QContextMenuEvent>
#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

ModelGridView::ModelGridView(QWidget *parent) : QWidget(parent)
{
    setAccessibleName(tr("All layers and heads"));
    setToolTip(tr("Each tile is one head's attention weights (queries down, keys across); click one to show it, "
                  "right-click one to switch it off"));
}

void ModelGridView::setLevels(std::shared_ptr<const ModelGridLevels> levels, std::shared_ptr<const ModelGridTiles> tiles)
{
    if (levels == m_levels)
        return;
    m_levels = std::move(levels);
    if (m_levels && tiles && tiles->map == m_colorMap && tiles->masked == maskedColor().rgba()
        && tiles->images.size() == m_levels->size()) {
        m_layers = tiles->images; // coloured on the worker: the images are shared, not copied
        m_pooled.clear();
        m_pooledSide = 0;
        m_order = modelGridOrder(layerCount(), headCount(), &m_scores);
    } else {
        rebuildImages();
    }
    update();
}

QColor ModelGridView::maskedColor() const { return palette().color(QPalette::Window); }

void ModelGridView::setSelected(int layer, int head)
{
    m_layer = layer;
    m_head = head;
    update();
}

void ModelGridView::setSwitchedOff(const std::set<attn::LayerHead> &heads)
{
    if (heads == m_switchedOff)
        return;
    m_switchedOff = heads;
    update();
}

void ModelGridView::setScores(ModelGridScores scores)
{
    m_scores = std::move(scores);
    m_order = modelGridOrder(layerCount(), headCount(), &m_scores);
    update();
}

QRectF ModelGridView::tileRect(int layer, int head) const
{
    int position = head;
    if (layer >= 0 && layer < int(m_order.size())) {
        const std::vector<int> &o = m_order[std::size_t(layer)];
        position = int(std::find(o.begin(), o.end(), head) - o.begin());
    }
    return layout().tileRect(layer, position);
}

bool ModelGridView::headAt(const QPointF &pos, int *layer, int *head) const
{
    int position = 0;
    if (!layout().tileAt(pos, layer, &position))
        return false;
    *head = *layer < int(m_order.size()) && position < int(m_order[std::size_t(*layer)].size())
        ? m_order[std::size_t(*layer)][std::size_t(position)]
        : position;
    return true;
}

void ModelGridView::setColorMap(ColorMap map)
{
    if (map == m_colorMap)
        return;
    m_colorMap = map;
    rebuildImages();
    update();
}

void ModelGridView::rebuildImages()
{
    m_pooled.clear();
    m_pooledSide = 0;
    m_layers.clear();
    if (m_levels)
        m_layers = colouredTiles(*m_levels, m_colorMap, maskedColor());
    m_order = modelGridOrder(layerCount(), headCount(), &m_scores);
}

ModelGridLayout ModelGridView::layout() const
{
    return modelGridLayout(QRectF(rect()).adjusted(4, 4, -4, -4), layerCount(), headCount(), QFontMetricsF(font()));
}

void ModelGridView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (layerCount() == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("Type a text to see every layer and head"));
        return;
    }
    const QRectF bounds = QRectF(rect()).adjusted(4, 4, -4, -4);
    // Tiles smaller than their thumbnails get the thumbnails pooled to their pixels.
    const int side = modelGridTilePixels(p, bounds, layerCount(), headCount());
    const bool smaller = m_levels && std::any_of(m_levels->begin(), m_levels->end(), [&](const std::vector<QImage> &layer) {
        return std::any_of(layer.begin(), layer.end(), [&](const QImage &i) { return i.width() > side || i.height() > side; });
    });
    if (smaller && m_pooledSide != side) {
        m_pooled = colouredTiles(pooledLevels(*m_levels, side), m_colorMap, maskedColor());
        m_pooledSide = side;
    }
    paintModelGrid(p, bounds, smaller ? m_pooled : m_layers, m_layer, m_head, palette(), m_switchedOff, &m_scores);
}

void ModelGridView::mousePressEvent(QMouseEvent *event)
{
    int layer = 0, head = 0;
    if (event->button() == Qt::LeftButton && headAt(event->position(), &layer, &head))
        emit tileSelected(layer, head);
}

void ModelGridView::contextMenuEvent(QContextMenuEvent *event)
{
    int layer = 0, head = 0;
    if (headAt(event->pos(), &layer, &head))
        emit tileMenuRequested(layer, head, event->globalPos());
}
