#pragma once
// Every head of every layer of a model as a small heatmap of its weights,
// layers down and heads across (the model view of BertViz); a click picks
// the layer and head the other views show; a right-click asks for the tile's
// menu (switch the head off or on). Switched-off heads are crossed out.

#include "modelgridpainter.h"

#include <QFontMetricsF>
#include <QImage>
#include <QWidget>
#include <memory>
#include <set>
#include <vector>

class ModelGridView : public QWidget
{
    Q_OBJECT
public:
    explicit ModelGridView(QWidget *parent = nullptr);

    // The heads' thumbnails before colouring (modelGridLevels(), built on a
    // worker); here they only get the colour map's colours, unless `tiles`
    // already has them in this grid's colours. Null: no text yet.
    void setLevels(std::shared_ptr<const ModelGridLevels> levels,
                   std::shared_ptr<const ModelGridTiles> tiles = nullptr);
    const std::shared_ptr<const ModelGridLevels> &levels() const { return m_levels; }
    void setSelected(int layer, int head); // head -1 (the average) outlines the whole row
    void setColorMap(ColorMap map);
    void setSwitchedOff(const std::set<attn::LayerHead> &heads);
    // A pattern score shown under each tile, and whether each layer's heads
    // are sorted by it (empty values: none). Clicks follow the order shown.
    void setScores(ModelGridScores scores);
    const ModelGridScores &scores() const { return m_scores; }
    // The caption, key/value groups and windowed layers' marks (modelgridpainter.h).
    void setMarks(ModelGridMarks marks);
    const ModelGridMarks &marks() const { return m_marks; }
    // The grid's geometry as painted now (tests read the groups' bands from it).
    ModelGridLayout gridLayout() const { return layout(); }
    const std::set<attn::LayerHead> &switchedOff() const { return m_switchedOff; }

    int layerCount() const { return m_levels ? int(m_levels->size()) : 0; }
    int headCount() const { return layerCount() == 0 ? 0 : int(m_levels->front().size()); }
    // Where head `head` of `layer` is drawn (in the order shown).
    QRectF tileRect(int layer, int head) const;
    const QImage &thumbnail(int layer, int head) const { return fullTiles().at(std::size_t(layer)).at(std::size_t(head)); }

    static constexpr int kMaxSide = kModelGridMaxSide;

    // What a tile's tooltip says: "Layer 3, head 7", its score with four
    // decimals when one is shown, and whether it is switched off.
    QString tileToolTip(int layer, int head) const;

    QSize sizeHint() const override { return {320, 320}; }
    QSize minimumSizeHint() const override { return {120, 120}; }

signals:
    void tileSelected(int layer, int head);
    // The pixels a tile has now, when they change (painting finds them): a
    // run colours its thumbnails only for tiles that show them whole.
    void tilePixelsChanged(int pixels);
    void tileMenuRequested(int layer, int head, const QPoint &globalPos);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    bool event(QEvent *event) override; // a tile's tooltip names its head and score
    void changeEvent(QEvent *event) override; // a new palette colours the masked cells anew

private:
    ModelGridLayout layout() const;
    void rebuildImages();
    // The thumbnails in colour, whole: the worker's, else coloured here when first needed.
    const std::vector<std::vector<QImage>> &fullTiles() const;
    QColor maskedColor() const; // the pixels a causal mask hides

    std::shared_ptr<const ModelGridLevels> m_levels;
    mutable std::vector<std::vector<QImage>> m_layers; // empty until fullTiles() needs them
    // m_levels pooled to m_pooledSide pixels a side and coloured, for tiles
    // smaller than the thumbnails (0: none yet).
    std::vector<std::vector<QImage>> m_pooled;
    int m_pooledSide = 0;
    int m_tilePixels = 0; // as last painted
    int m_layer = 0, m_head = 0;
    ColorMap m_colorMap = ColorMap::Viridis;
    std::set<attn::LayerHead> m_switchedOff;
    ModelGridScores m_scores;
    ModelGridMarks m_marks;
    std::vector<std::vector<int>> m_order; // [layer][tile] = head

    bool headAt(const QPointF &pos, int *layer, int *head) const;
};
