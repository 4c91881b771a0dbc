// The heads grid's groups of heads that share keys and values.

#include "headsgridview.h"

#include <QPainter>
#include <QPainterPath>

int HeadsGridPainter::groupSize() const
{
    const attn::AttentionResult *r = m_snapshot ? m_snapshot->result.get() : nullptr;
    if (!r || r->heads.empty() || !r->sharesKeyValues())
        return 1;
    return int(r->heads.size()) / r->keyValueHeadCount();
}

int HeadsGridPainter::groupCount() const
{
    const attn::AttentionResult *r = m_snapshot ? m_snapshot->result.get() : nullptr;
    return r && !r->heads.empty() ? r->keyValueHeadCount() : 0;
}

std::optional<int> HeadsGridPainter::keyValueHeadOfTile(int index) const
{
    const std::optional<int> head = headOfTile(index);
    if (!head || *head < 0 || *head >= tileCount())
        return std::nullopt;
    return *head / groupSize();
}

QRectF HeadsGridPainter::groupRect(const QRectF &bounds, int group) const
{
    const int size = groupSize();
    if (size <= 1 || group < 0 || group >= groupCount() || columns() % size != 0)
        return {};
    // A group fills part of one row (columns is a multiple of its size): its first and last tiles span it.
    const QRectF first = tileRect(bounds, group * size), last = tileRect(bounds, (group + 1) * size - 1);
    return first.united(last).adjusted(-2, -2, 2, 2); // inside the gap of 8 between tiles: groups stay apart
}

void HeadsGridPainter::paintGroups(QPainter &p, const QRectF &rect, const QPalette &palette) const
{
    if (!showsGroups())
        return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    QColor fill = palette.color(QPalette::Highlight), edge = fill;
    fill.setAlphaF(0.10f);
    edge.setAlphaF(0.55f);
    p.setPen(QPen(edge, 1.0));
    p.setBrush(fill);
    for (int g = 0; g < groupCount(); ++g) {
        const QRectF frame = groupRect(rect, g);
        if (!frame.isEmpty())
            p.drawRoundedRect(frame, 5, 5);
    }
    p.restore();
}
