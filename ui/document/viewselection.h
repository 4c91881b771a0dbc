#pragma once
// What every view shows: the query row, the layer and head, weights or raw
// scores, the colour map, and whether the first token is set aside. The one owner of that state; the views follow
// its signals and ask it for changes, so two views can never disagree.
//
// The query belongs to the session (a file saves it; choosing one is not an
// edit): the document pushes it here with followQuery(), and views that pick
// a query ask the document. Layer and head are clamped to the shape set with setShape().

#include "colormap.h"
#include "headref.h"

#include <QObject>

class ViewSelection : public QObject
{
    Q_OBJECT
public:
    explicit ViewSelection(QObject *parent = nullptr);

    int query() const { return m_query; }
    HeadRef head() const { return m_head; }
    int layer() const { return m_head.layer; }
    bool showScores() const { return m_showScores; }
    ColorMap colorMap() const { return m_colorMap; }
    // Attention sinks set aside: the heatmap, the heads' tiles and Compare
    // show weights with the first token's column set aside and each row's
    // other weights renormalised (model/firsttokenaside.h), labelled so.
    bool firstTokenAside() const { return m_firstTokenAside; }
    int layers() const { return m_layers; }
    int heads() const { return m_heads; }

    // The shape of what is open (a session: 1 layer). A head or layer that no
    // longer exists goes back to head 0 of that layer (the last layer).
    void setShape(int layers, int heads);
    // Ignored when out of range; the average only with more than one head.
    void setHead(const HeadRef &head);
    void setLayer(int layer); // keeps the head (or the average)
    void setShowScores(bool scores);
    void setColorMap(ColorMap map);
    void setFirstTokenAside(bool aside);
    // The document's query (a session's, or the open model's).
    void followQuery(int query);

signals:
    void headChanged(const HeadRef &head); // also on a change of layer
    void queryChanged(int query);
    void showScoresChanged(bool scores);
    void colorMapChanged(ColorMap map);
    void firstTokenAsideChanged(bool aside);

private:
    bool accepts(const HeadRef &head) const;

    int m_query = 0;
    HeadRef m_head;
    bool m_showScores = false;
    ColorMap m_colorMap = ColorMap::Viridis;
    bool m_firstTokenAside = false;
    int m_layers = 1, m_heads = 1;
};
