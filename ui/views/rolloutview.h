#pragma once
// Attention rollout of the open model's text as a heatmap of its own
// (contract section 6; Abnar & Zuidema, 2020), with a paragraph on what it
// does and does not mean. It shows the matrix it is given; the model document
// computes it on its worker with the trace.

#include "colormap.h"
#include "heatmappainter.h"
#include "model/modeltypes.h"

#include <QStringList>
#include <QWidget>
#include <memory>

class QLabel;

class RolloutView : public QWidget
{
    Q_OBJECT
public:
    explicit RolloutView(QWidget *parent = nullptr);

    // Null: nothing to show (no model, or no text yet). `tokens` name rows and
    // columns; `causal` hatches the cells a causal model never reads.
    void setRollout(std::shared_ptr<const attn::RowMatrix<double>> rollout, const QStringList &tokens, bool causal,
                    int layers);
    void setColorMap(ColorMap map);
    void setQuery(int query); // the row outlined, as in the heatmap

    std::shared_ptr<const attn::RowMatrix<double>> rollout() const { return m_rollout; }
    // What is painted: the rollout as a one-"head" weights matrix.
    const HeatmapPainter &painter() const { return m_painter; }
    QString heading() const { return m_heading; }
    QString explanation() const;
    // The heatmap's part of the view (below the explanation), in view coordinates.
    QRect heatmapRect() const;
    // Whether the explanation stands to the right of the heatmap (a wide dock) rather than above it.
    bool explanationBeside() const;

    QSize sizeHint() const override { return {420, 460}; }
    QSize minimumSizeHint() const override { return {200, 200}; }

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool event(QEvent *event) override; // cell tooltips

private:
    void applySmallFont();

    QLabel *m_explanation;
    std::shared_ptr<const attn::RowMatrix<double>> m_rollout;
    HeatmapPainter m_painter;
    QString m_heading;
};
