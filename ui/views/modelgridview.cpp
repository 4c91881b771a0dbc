#include "modelgridview.h"

#include "lessons/notation.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
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
    // A run colours its thumbnails only when the tiles show them whole.
    const auto coloured = [&] {
        for (std::size_t l = 0; l < m_levels->size(); ++l)
            if (tiles->images[l].size() != (*m_levels)[l].size())
                return false;
        return true;
    };
    if (m_levels && tiles && tiles->map == m_colorMap && tiles->masked == maskedColor().rgba()
        && tiles->images.size() == m_levels->size() && coloured()) {
        m_layers = tiles->images; // coloured on the worker: the images are shared, not copied
        m_pooled.clear();
        m_pooledSide = 0;
        m_order = modelGridOrder(layerCount(), headCount(), &m_scores);
    } else {
        rebuildImages();
    }
    update();
}

const std::vector<std::vector<QImage>> &ModelGridView::fullTiles() const
{
    if (m_layers.empty() && m_levels && !m_levels->empty())
        m_layers = colouredTiles(*m_levels, m_colorMap, maskedColor());
    return m_layers;
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

void ModelGridView::setMarks(ModelGridMarks marks)
{
    m_marks = std::move(marks);
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
    m_layers.clear(); // coloured when needed: tiles smaller than the thumbnails show them pooled
    m_order = modelGridOrder(layerCount(), headCount(), &m_scores);
}

ModelGridLayout ModelGridView::layout() const
{
    return modelGridLayout(QRectF(rect()).adjusted(4, 4, -4, -4), layerCount(), headCount(), QFontMetricsF(font()),
                           &m_marks, !m_scores.values.empty() && m_scores.sorted);
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
    const int side = modelGridTilePixels(p, bounds, layerCount(), headCount(), &m_marks);
    const bool smaller = m_levels && std::any_of(m_levels->begin(), m_levels->end(), [&](const std::vector<QImage> &layer) {
        return std::any_of(layer.begin(), layer.end(), [&](const QImage &i) { return i.width() > side || i.height() > side; });
    });
    if (side != m_tilePixels) {
        m_tilePixels = side;
        emit tilePixelsChanged(side);
    }
    if (smaller && m_pooledSide != side) {
        m_pooled = colouredTiles(pooledLevels(*m_levels, side), m_colorMap, maskedColor());
        m_pooledSide = side;
    }
    paintModelGrid(p, bounds, smaller ? m_pooled : fullTiles(), m_layer, m_head, palette(), m_switchedOff, &m_scores,
                   &m_marks);
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

QString ModelGridView::tileToolTip(int layer, int head) const
{
    QString text = tr("Layer %1, head %2").arg(layer).arg(head);
    if (layer < int(m_scores.values.size()) && head < int(m_scores.values[std::size_t(layer)].size())) {
        const double value = m_scores.values[std::size_t(layer)][std::size_t(head)];
        text += QLatin1String(" · ") + tr("%1: %2").arg(m_scores.name,
                                                        std::isnan(value) ? tr("no number for this text")
                                                                          : attn::formatFixed(value));
    }
    if (m_switchedOff.count({layer, head}))
        text += QLatin1String(" · ") + tr("switched off");
    return text;
}

bool ModelGridView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        int layer = 0, head = 0;
        if (headAt(help->pos(), &layer, &head))
            QToolTip::showText(help->globalPos(), tileToolTip(layer, head), this, tileRect(layer, head).toAlignedRect());
        else
            QToolTip::showText(help->globalPos(), toolTip(), this);
        return true;
    }
    return QWidget::event(event);
}

void ModelGridView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        rebuildImages();
        update();
    }
    QWidget::changeEvent(event);
}
