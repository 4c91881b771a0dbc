#include "snapshotgridview.h"

#include "modelgridpainter.h"
#include "palettecolors.h"

#include <QEvent>
#include <QPainter>

SnapshotGridView::SnapshotGridView(QWidget *parent) : QWidget(parent)
{
    setAccessibleName(tr("Attention of the example per layer and head"));
    setToolTip(tr("The attention of the same example sequence at the chosen step: one square per head, "
                  "rows are queries, columns keys (causal: the upper right is masked)"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void SnapshotGridView::setTrace(std::shared_ptr<const attn::ModelTrace> trace, int step)
{
    if (trace == m_trace && step == m_step)
        return;
    m_trace = std::move(trace);
    m_step = step;
    rebuildTiles(m_tilesSide);
    update();
}

QColor SnapshotGridView::maskedColor() const
{
    // Quiet on light and dark themes alike: the masked half carries no data.
    return mixColors(palette().color(QPalette::Base), palette().color(QPalette::Text), 0.2);
}

void SnapshotGridView::rebuildTiles(int side)
{
    m_tilesSide = side;
    m_tiles = m_trace ? modelGridImages(*m_trace, true, ColorMap::Viridis, maskedColor(), side)
                      : std::vector<std::vector<QImage>>{};
}

void SnapshotGridView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        rebuildTiles(m_tilesSide); // the masked cells take the palette's colour
        update();
    }
    QWidget::changeEvent(event);
}

void SnapshotGridView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    if (m_tiles.empty()) {
        p.setPen(faintTextColor(palette()));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("The attention of an example appears here"));
        return;
    }
    const QRectF bounds = QRectF(rect()).adjusted(2, 2, -2, -2);
    // As many cells a side as the tiles have pixels (devicepixels.h).
    const int heads = m_trace->layers.empty() ? 0 : int(m_trace->layers.front().weights.size());
    const int side = modelGridTilePixels(p, bounds, int(m_trace->layers.size()), heads);
    if (side != m_tilesSide)
        rebuildTiles(side);
    paintModelGrid(p, bounds, m_tiles, -1, -1, palette());
}
