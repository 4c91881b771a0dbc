#include "modelgridview.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace {
constexpr double kGap = 3;
} // namespace

double ModelGridLayout::tileSide() const
{
    if (layers <= 0 || heads <= 0)
        return 0;
    const double w = (bounds.width() - labelWidth) / heads, h = (bounds.height() - labelHeight) / layers;
    return std::max(1.0, std::floor(std::min(w, h) - kGap));
}

QRectF ModelGridLayout::tileRect(int layer, int head) const
{
    const double side = tileSide(), step = side + kGap;
    return {bounds.left() + labelWidth + head * step, bounds.top() + labelHeight + layer * step, side, side};
}

bool ModelGridLayout::tileAt(const QPointF &pos, int *layer, int *head) const
{
    const double step = tileSide() + kGap;
    if (step <= kGap)
        return false;
    const int h = int(std::floor((pos.x() - bounds.left() - labelWidth) / step));
    const int l = int(std::floor((pos.y() - bounds.top() - labelHeight) / step));
    if (l < 0 || l >= layers || h < 0 || h >= heads || !tileRect(l, h).contains(pos))
        return false;
    *layer = l;
    *head = h;
    return true;
}

ModelGridView::ModelGridView(QWidget *parent) : QWidget(parent)
{
    setAccessibleName(tr("All layers and heads"));
    setToolTip(tr("Each tile is one head's attention weights (queries down, keys across); click one to show it"));
}

void ModelGridView::setTrace(std::shared_ptr<const attn::ModelTrace> trace, bool causal)
{
    m_trace = std::move(trace);
    m_causal = causal;
    rebuildImages();
    update();
}

void ModelGridView::setSelected(int layer, int head)
{
    m_layer = layer;
    m_head = head;
    update();
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
    m_layers.clear();
    if (!m_trace)
        return;
    for (const attn::LayerTrace &layer : m_trace->layers) {
        std::vector<QImage> tiles;
        for (const attn::RowMatrix<float> &w : layer.weights) {
            const int n = int(w.rows()), m = int(w.cols());
            const int rows = std::min(n, kMaxSide), cols = std::min(m, kMaxSide);
            QImage image(std::max(cols, 1), std::max(rows, 1), QImage::Format_RGB32);
            image.fill(Qt::black);
            // A pixel of a long text is the largest weight of its block of cells,
            // so a sharp head stays visible when shrunk.
            for (int r = 0; r < rows; ++r) {
                auto *line = reinterpret_cast<QRgb *>(image.scanLine(r));
                const int r0 = int(qint64(r) * n / rows), r1 = std::max(r0 + 1, int(qint64(r + 1) * n / rows));
                for (int c = 0; c < cols; ++c) {
                    const int c0 = int(qint64(c) * m / cols), c1 = std::max(c0 + 1, int(qint64(c + 1) * m / cols));
                    if (m_causal && c0 > r1 - 1) {
                        line[c] = palette().color(QPalette::Window).rgb();
                        continue;
                    }
                    const float v = w.block(r0, c0, r1 - r0, c1 - c0).maxCoeff();
                    line[c] = sequentialColor(m_colorMap, double(v)).rgb();
                }
            }
            tiles.push_back(image);
        }
        m_layers.push_back(std::move(tiles));
    }
}

ModelGridLayout ModelGridView::layout() const
{
    ModelGridLayout l;
    l.layers = layerCount();
    l.heads = headCount();
    l.bounds = QRectF(rect()).adjusted(4, 4, -4, -4);
    const QFontMetrics fm = fontMetrics();
    l.labelWidth = fm.horizontalAdvance(QStringLiteral("L%1").arg(std::max(0, l.layers - 1))) + 6;
    l.labelHeight = fm.height() + 2;
    return l;
}

void ModelGridView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const ModelGridLayout l = layout();
    if (l.layers == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("Type a text to see every layer and head"));
        return;
    }
    const double side = l.tileSide();
    p.setPen(palette().color(QPalette::Text));
    // Labels only where they fit: a 24-layer grid in a small dock skips every other one.
    const int every = std::max(1, int(std::ceil((fontMetrics().height() + 2) / (side + kGap))));
    for (int layer = 0; layer < l.layers; layer += every) {
        const QRectF t = l.tileRect(layer, 0);
        p.drawText(QRectF(l.bounds.left(), t.top(), l.labelWidth - 4, side), Qt::AlignRight | Qt::AlignVCenter,
                   QStringLiteral("L%1").arg(layer));
    }
    const int everyHead = std::max(1, int(std::ceil((fontMetrics().horizontalAdvance(QStringLiteral("H00")) + 2)
                                                    / (side + kGap))));
    for (int head = 0; head < l.heads; head += everyHead) {
        const QRectF t = l.tileRect(0, head);
        p.drawText(QRectF(t.left(), l.bounds.top(), side, l.labelHeight), Qt::AlignCenter,
                   QStringLiteral("H%1").arg(head));
    }
    p.setRenderHint(QPainter::SmoothPixmapTransform, false); // crisp cells
    for (int layer = 0; layer < l.layers; ++layer)
        for (int head = 0; head < l.heads; ++head)
            p.drawImage(l.tileRect(layer, head), thumbnail(layer, head));
    if (m_layer >= 0 && m_layer < l.layers) {
        QRectF outline = m_head >= 0 && m_head < l.heads
            ? l.tileRect(m_layer, m_head)
            : l.tileRect(m_layer, 0).united(l.tileRect(m_layer, l.heads - 1));
        p.setPen(QPen(palette().color(QPalette::Highlight), 2.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(outline.adjusted(-1.5, -1.5, 1.5, 1.5));
    }
}

void ModelGridView::mousePressEvent(QMouseEvent *event)
{
    int layer = 0, head = 0;
    if (event->button() == Qt::LeftButton && layout().tileAt(event->position(), &layer, &head))
        emit tileSelected(layer, head);
}
