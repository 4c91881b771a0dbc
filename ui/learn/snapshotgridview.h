#pragma once
// The attention of the example sequence at one snapshot, one thumbnail per
// layer and head (ui/render's model grid), redrawn only when the snapshot changes.

#include "model/forward.h"
#include "modelgridpainter.h"

#include <QImage>
#include <QWidget>
#include <memory>
#include <vector>

class SnapshotGridView : public QWidget
{
    Q_OBJECT
public:
    explicit SnapshotGridView(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const attn::ModelTrace> trace, int step);
    // What the painter is given: the trace and the thumbnails made from it.
    const std::shared_ptr<const attn::ModelTrace> &trace() const { return m_trace; }
    const std::vector<std::vector<QImage>> &tiles() const { return m_tiles; }
    int step() const { return m_step; }
    QSize sizeHint() const override { return {260, 200}; }
    QSize minimumSizeHint() const override { return {160, 120}; }

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void rebuildTiles(int side); // thumbnails of at most `side` cells a side
    QColor maskedColor() const;

    std::shared_ptr<const attn::ModelTrace> m_trace;
    std::vector<std::vector<QImage>> m_tiles;
    int m_tilesSide = kModelGridMaxSide;
    int m_step = -1;
};
