#include "headsgridview.h"

#include "lessons/notation.h"
#include "runtime/twothreads.h"
#include "widgetcache.h"

#include <QCoreApplication>
#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <utility>

namespace {

constexpr qreal kMargin = 4;
constexpr qreal kGap = 8;
// A tile's matrix never needs more pixels than this: larger ones are pooled,
// by the forward pass itself for large results (attn::PooledMatrix).
constexpr int kTileImageSize = attn::kThumbnailSide;

} // namespace

int HeadsGridPainter::columns() const
{
    const int tiles = tileCount();
    const int square = std::max(1, int(std::ceil(std::sqrt(double(tiles)))));
    // Heads that share keys and values fill whole rows, a group or more a
    // row, as near the square as that allows; a group too wide for a row of
    // twice the square's width is only named in the titles.
    const int group = groupSize();
    if (group <= 1 || group > 2 * square)
        return square;
    return group * std::max(1, int(std::lround(std::sqrt(double(tiles)) / group)));
}

void HeadsGridPainter::setSnapshot(SnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
    const int heads = m_snapshot && m_snapshot->result ? int(m_snapshot->result->heads.size()) : 0;
    m_tiles.resize(heads > 1 ? heads + 1 : heads);
    for (int i = 0; i < int(m_tiles.size()); ++i) {
        HeatmapPainter &tile = m_tiles[i];
        tile.setCompact(true);
        tile.setShowTitle(false);
        tile.setMaxImageSize(kTileImageSize);
        tile.setHead(headOfTile(i));
        tile.setShowScores(m_showScores);
        tile.setColorMap(m_colorMap);
        tile.setColorScale(m_colorScale);
        tile.setQuery(m_query);
        tile.setVectorCells(m_vectorCells);
        tile.setSnapshot(m_snapshot);
    }
}

void HeadsGridPainter::setShowScores(bool scores)
{
    m_showScores = scores;
    for (HeatmapPainter &tile : m_tiles)
        tile.setShowScores(scores);
}

void HeadsGridPainter::setColorMap(ColorMap map)
{
    m_colorMap = map;
    for (HeatmapPainter &tile : m_tiles)
        tile.setColorMap(map);
}

void HeadsGridPainter::setColorScale(const ColorScale &scale)
{
    m_colorScale = scale;
    for (HeatmapPainter &tile : m_tiles)
        tile.setColorScale(scale);
}

void HeadsGridPainter::setQuery(int row)
{
    m_query = row;
    for (HeatmapPainter &tile : m_tiles)
        tile.setQuery(row);
}

void HeadsGridPainter::setVectorCells(bool vector)
{
    m_vectorCells = vector;
    for (HeatmapPainter &tile : m_tiles)
        tile.setVectorCells(vector);
}

bool HeadsGridPainter::showsFirstTokenAside() const
{
    return m_snapshot && m_snapshot->result && m_snapshot->firstTokenAside && !m_showScores;
}

QString HeadsGridPainter::firstTokenAsideCaption()
{
    return QCoreApplication::translate("HeadsGridView", "First token set aside: rows renormalised");
}

qreal HeadsGridPainter::captionHeight(const QFontMetricsF &metrics, qreal width) const
{
    if (!showsFirstTokenAside())
        return 0;
    // Wrapped in a narrow dock rather than cut: it is what the tiles are.
    const QRectF text = metrics.boundingRect(QRectF(0, 0, std::max<qreal>(1, width - 2 * kMargin), 1e6),
                                             Qt::AlignCenter | Qt::TextWordWrap, firstTokenAsideCaption());
    return std::min(text.height(), 3 * metrics.height()) + 4;
}

QRectF HeadsGridPainter::tileRect(const QRectF &bounds, int index, qreal caption) const
{
    const int tiles = tileCount();
    if (index < 0 || index >= tiles)
        return {};
    const int columns = this->columns();
    const int rows = (tiles + columns - 1) / columns;
    const QRectF inner = bounds.adjusted(kMargin, kMargin + caption, -kMargin, -kMargin);
    // Square tiles, the grid centred across the width: a tall dock does not
    // stretch one head into a tall frame.
    const qreal w = std::max<qreal>(1, (inner.width() - (columns - 1) * kGap) / columns);
    const qreal h = std::max<qreal>(1, (inner.height() - (rows - 1) * kGap) / rows);
    const qreal side = std::min(w, h);
    const qreal left = inner.left() + (inner.width() - columns * side - (columns - 1) * kGap) / 2;
    return QRectF(left + (index % columns) * (side + kGap), inner.top() + (index / columns) * (side + kGap), side, side);
}

QRectF HeadsGridPainter::tileCellsRect(const QRectF &tile, qreal titleHeight, int rows, int columns)
{
    // Keep the matrix's shape (within 1:2 and 2:1) and centre it under the title.
    const qreal titleBottom = tile.top() + titleHeight + 2;
    const QRectF room = QRectF(tile.left(), titleBottom, tile.width(), tile.bottom() - titleBottom).adjusted(3, 3, -3, -3);
    const qreal aspect = std::clamp(double(columns) / std::max(1, rows), 0.5, 2.0);
    const qreal w = std::min(room.width(), room.height() * aspect);
    const qreal h = w / aspect;
    return QRectF(room.center().x() - w / 2, room.top() + (room.height() - h) / 2, w, h);
}

int HeadsGridPainter::tileAt(const QRectF &bounds, const QPointF &pos, qreal caption) const
{
    for (int i = 0; i < tileCount(); ++i) {
        if (tileRect(bounds, i, caption).contains(pos))
            return i;
    }
    return -1;
}

QString HeadsGridPainter::singleHeadNote()
{
    return QCoreApplication::translate("HeadsGridView",
                                       "One head. With several heads (scaled dot-product mode, Heads in the Attention "
                                       "panel) each gets its own pattern here, with their average.");
}

QString HeadsGridPainter::tileTitle(int index) const
{
    const std::optional<int> head = headOfTile(index);
    if (head && showsGroups())
        return QCoreApplication::translate("HeadsGridView", "%1 · k/v %2")
            .arg(attn::headName(*head))
            .arg(*keyValueHeadOfTile(index));
    return head ? attn::headName(*head) : QCoreApplication::translate("HeadsGridView", "average");
}

void HeadsGridPainter::paint(QPainter &p, const QRectF &rect, const QPalette &palette) const
{
    p.save();
    p.fillRect(rect, palette.color(QPalette::Base));
    p.setPen(palette.color(QPalette::Text));
    if (m_tiles.empty()) {
        const QString message = m_snapshot ? m_snapshot->error : QString();
        p.drawText(rect.adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap, message);
        p.restore();
        return;
    }
    const QFont normal = p.font();
    QFont bold = normal;
    bold.setBold(true);
    const qreal line = QFontMetricsF(normal, p.device()).height();
    const qreal caption = captionHeight(QFontMetricsF(bold), rect.width()); // as the view measures it for clicks
    if (caption > 0) {
        // First and in bold: these tiles are not the weights the heads computed.
        p.setFont(bold);
        p.drawText(QRectF(rect.left() + kMargin, rect.top() + kMargin, rect.width() - 2 * kMargin, caption),
                   Qt::AlignCenter | Qt::TextWordWrap, firstTokenAsideCaption());
        p.setFont(normal);
    }
    const int selectedTile = tileOfHead(m_selected);
    const int rows = m_tiles.front().rows();
    const int columns = m_tiles.front().columns();
    // Every tile's cell image at once, half of them on a second thread: after
    // an edit all of them are rebuilt, and the other core is idle by then.
    // Each tile's image as many pixels as its cells get (all tiles are the same size).
    const QSize limit = m_tiles.front().imageLimit(p, tileCellsRect(tileRect(rect, 0, caption), line, rows, columns));
    const bool stale = std::any_of(m_tiles.begin(), m_tiles.end(),
                                   [&](const HeatmapPainter &t) { return t.needsImage(palette, limit); });
    if (stale && qint64(rows) * columns * tileCount() >= (qint64(1) << 17)) {
        const auto prepare = [&](std::size_t first) {
            for (std::size_t i = first; i < m_tiles.size(); i += 2)
                m_tiles[i].prepareImage(palette, limit);
        };
        attn::runBoth([&] { prepare(0); }, [&] { prepare(1); });
    }
    paintGroups(p, rect.adjusted(0, caption, 0, 0), palette); // tileRect(bounds, i, caption) is tileRect(bounds moved down, i)
    for (int i = 0; i < tileCount(); ++i) {
        const QRectF tile = tileRect(rect, i, caption);
        const bool selected = i == selectedTile;
        const QRectF titleRect(tile.left(), tile.top(), tile.width(), line + 2);
        p.setFont(selected ? bold : normal);
        p.setPen(palette.color(QPalette::Text));
        p.drawText(titleRect, Qt::AlignCenter,
                   QFontMetricsF(p.font(), p.device()).elidedText(tileTitle(i), Qt::ElideRight, tile.width()));
        const QRectF cells = tileCellsRect(tile, line, rows, columns);
        if (cells.width() >= 2 && cells.height() >= 2)
            m_tiles[i].paint(p, cells, palette);
        if (selected) {
            p.setPen(QPen(palette.color(QPalette::Highlight), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(tile.adjusted(1, 1, -1, -1));
        }
    }
    if (tileCount() == 1) {
        // The space under a single head says what this view is for.
        const QRectF tile = tileRect(rect, 0, caption);
        const QRectF below(rect.left() + 8, tile.bottom() + 6, rect.width() - 16, rect.bottom() - tile.bottom() - 12);
        if (below.height() > 2 * line) {
            p.setFont(normal);
            p.setPen(palette.color(QPalette::PlaceholderText));
            p.drawText(below, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, singleHeadNote());
        }
    }
    p.restore();
}

HeadsGridView::HeadsGridView(QWidget *parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Attention of every head"));
    setAccessibleDescription(tr("Click a head to show it in the heatmap"));
}

void HeadsGridView::setSnapshot(SnapshotPtr snapshot)
{
    if (!isVisible()) {
        m_pending = std::move(snapshot);
        return;
    }
    m_pending.reset();
    m_grid.setSnapshot(std::move(snapshot));
    invalidate();
}

void HeadsGridView::takePending() const
{
    if (!m_pending)
        return;
    m_grid.setSnapshot(std::exchange(m_pending, nullptr));
    m_cacheDirty = true; // painted when shown
}

const HeadsGridPainter &HeadsGridView::gridPainter() const
{
    takePending();
    return m_grid;
}

void HeadsGridView::showEvent(QShowEvent *event)
{
    takePending();
    QWidget::showEvent(event);
}

void HeadsGridView::setSelectedHead(std::optional<int> head)
{
    if (head == m_grid.selectedHead())
        return;
    m_grid.setSelectedHead(head);
    invalidate();
}

void HeadsGridView::setShowScores(bool scores)
{
    m_grid.setShowScores(scores);
    invalidate();
}

void HeadsGridView::setColorMap(ColorMap map)
{
    m_grid.setColorMap(map);
    invalidate();
}

void HeadsGridView::setColorScale(const ColorScale &scale)
{
    if (scale == m_grid.colorScale())
        return;
    m_grid.setColorScale(scale);
    invalidate();
}

void HeadsGridView::setQuery(int row)
{
    if (row == m_grid.query())
        return; // every edit re-announces the query; the tiles need no new picture
    m_grid.setQuery(row);
    invalidate();
}

void HeadsGridView::invalidate()
{
    m_cacheDirty = true;
    update();
}

void HeadsGridView::paintEvent(QPaintEvent *)
{
    if (refitWidgetCache(m_cache, *this, m_cacheDirty)) {
        QPainter cachePainter(&m_cache);
        cachePainter.setFont(font());
        m_grid.paint(cachePainter, QRectF(rect()), palette());
        m_cacheDirty = false;
    }
    QPainter p(this);
    p.drawImage(0, 0, m_cache);
}

QFontMetricsF HeadsGridView::boldMetrics() const
{
    QFont bold = font();
    bold.setBold(true);
    return QFontMetricsF(bold);
}

void HeadsGridView::mousePressEvent(QMouseEvent *event)
{
    const int tile = event->button() == Qt::LeftButton
        ? m_grid.tileAt(QRectF(rect()), event->position(), m_grid.captionHeight(boldMetrics(), width()))
        : -1;
    if (tile < 0)
        return QWidget::mousePressEvent(event);
    emit headSelected(m_grid.headOfTile(tile));
}

void HeadsGridView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange
        || event->type() == QEvent::StyleChange)
        invalidate();
    QWidget::changeEvent(event);
}
