#include "viewselection.h"

#include <algorithm>

ViewSelection::ViewSelection(QObject *parent) : QObject(parent) {}

bool ViewSelection::accepts(const HeadRef &head) const
{
    if (head.layer < 0 || head.layer >= m_layers)
        return false;
    if (head.isAverage())
        return m_heads > 1; // the mean of one head is that head: no second name for it
    return *head.head >= 0 && *head.head < m_heads;
}

void ViewSelection::setShape(int layers, int heads)
{
    m_layers = std::max(1, layers);
    m_heads = std::max(1, heads);
    if (!accepts(m_head)) {
        const HeadRef fallback = HeadRef::one(std::min(m_head.layer, m_layers - 1), 0);
        if (fallback != m_head) {
            m_head = fallback;
            emit headChanged(m_head);
        }
    }
}

void ViewSelection::setHead(const HeadRef &head)
{
    if (head == m_head || !accepts(head))
        return;
    m_head = head;
    emit headChanged(m_head);
}

void ViewSelection::setLayer(int layer)
{
    HeadRef moved = m_head;
    moved.layer = layer;
    setHead(moved);
}

void ViewSelection::setShowScores(bool scores)
{
    if (scores == m_showScores)
        return;
    m_showScores = scores;
    emit showScoresChanged(scores);
}

void ViewSelection::setColorMap(ColorMap map)
{
    if (map == m_colorMap)
        return;
    m_colorMap = map;
    emit colorMapChanged(map);
}

void ViewSelection::setFirstTokenAside(bool aside)
{
    if (aside == m_firstTokenAside)
        return;
    m_firstTokenAside = aside;
    emit firstTokenAsideChanged(aside);
}

void ViewSelection::followQuery(int query)
{
    if (query == m_query)
        return;
    m_query = query;
    emit queryChanged(query);
}
