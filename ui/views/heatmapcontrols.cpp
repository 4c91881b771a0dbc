// The heatmap's two buttons, in the free corners of its layout: "Fit" (back
// to the whole matrix) and "Scale" (fitted or fixed colours). Part of HeatmapView.
#include "heatmapview.h"

#include <QActionGroup>
#include <QInputDialog>
#include <QMenu>
#include <QToolButton>
#include <algorithm>
#include <cmath>

void HeatmapView::buildButtons()
{
    m_fitButton = new QToolButton(this);
    m_fitButton->setText(tr("Fit"));
    m_fitButton->setAutoRaise(true);
    m_fitButton->setFocusPolicy(Qt::NoFocus); // the keys belong to the heatmap
    m_fitButton->setAccessibleName(tr("Show the whole matrix"));
    m_fitButton->setToolTip(tr("Show the whole matrix (Ctrl+0).\n"
                               "Zoom: Ctrl+wheel or pinch about the pointer, Ctrl+= and Ctrl+− about the cursor.\n"
                               "Pan: the wheel (Shift+wheel sideways), or drag with the middle button\n"
                               "or with the left button while holding Space.\n"
                               "Token labels and numbers appear as the cells grow."));
    connect(m_fitButton, &QToolButton::clicked, this, &HeatmapView::fitToView);

    m_scaleButton = new QToolButton(this);
    m_scaleButton->setText(tr("Scale"));
    m_scaleButton->setAutoRaise(true);
    m_scaleButton->setFocusPolicy(Qt::NoFocus);
    m_scaleButton->setPopupMode(QToolButton::InstantPopup);
    m_scaleButton->setAccessibleName(tr("Colour scale"));
    m_scaleButton->setToolTip(
        tr("Colour scale. Fitted to the data, the colours stretch to the largest value shown and change "
           "with every edit. Fixed, the same value always has the same colour, so two results can be "
           "compared: weights 0–1, scores ±R. R starts as the round number (1, 2 or 5 × 10ⁿ) above the "
           "largest |score| when you first fix it, and stays until you set another; scores beyond ±R "
           "take the end colours. The colour bar says which scale is in force."));
    m_scaleMenu = new QMenu(m_scaleButton);
    m_scaleButton->setMenu(m_scaleMenu);

    const auto choice = [this](QActionGroup *group, const QString &text) {
        QAction *action = m_scaleMenu->addAction(text);
        action->setCheckable(true);
        group->addAction(action);
        return action;
    };
    m_scaleMenu->addSection(tr("Weights α"));
    auto *weights = new QActionGroup(m_scaleMenu);
    m_weightsFit = choice(weights, tr("Fit to the data (0 to the largest weight)"));
    m_weightsFixed = choice(weights, tr("Fixed 0–1"));
    m_scaleMenu->addSection(tr("Scores ω"));
    auto *scores = new QActionGroup(m_scaleMenu);
    m_scoresFit = choice(scores, tr("Fit to the data (± the largest |score|)"));
    m_scoresFixed = choice(scores, tr("Fixed ±R"));
    QAction *range = m_scaleMenu->addAction(tr("Set the Fixed Score Range…"));

    connect(m_weightsFit, &QAction::triggered, this, [this] {
        ColorScale scale = colorScale();
        scale.fixedWeights = false;
        setColorScale(scale);
    });
    connect(m_weightsFixed, &QAction::triggered, this, [this] {
        ColorScale scale = colorScale();
        scale.fixedWeights = true;
        setColorScale(scale);
    });
    connect(m_scoresFit, &QAction::triggered, this, [this] {
        ColorScale scale = colorScale();
        scale.fixedScores = false;
        setColorScale(scale);
    });
    connect(m_scoresFixed, &QAction::triggered, this, [this] {
        ColorScale scale = colorScale();
        scale.fixedScores = true;
        if (!(scale.scoreLimit > 0))
            scale.scoreLimit = ColorScale::roundLimitAbove(largestScore());
        setColorScale(scale);
    });
    connect(range, &QAction::triggered, this, &HeatmapView::chooseScoreLimit);
    connect(m_scaleMenu, &QMenu::aboutToShow, this, &HeatmapView::refreshScaleMenu);
    refreshScaleMenu();
}

double HeatmapView::largestScore() const
{
    if (m_painter.showScores())
        return m_painter.dataMax();
    HeatmapPainter scores; // the head or average shown, as scores
    scores.setHead(m_painter.head());
    scores.setShowScores(true);
    scores.setSnapshot(m_painter.snapshot());
    return scores.rows() > 0 ? scores.dataMax() : 1.0;
}

void HeatmapView::refreshScaleMenu()
{
    const ColorScale scale = colorScale();
    m_weightsFit->setChecked(!scale.fixedWeights);
    m_weightsFixed->setChecked(scale.fixedWeights);
    m_scoresFit->setChecked(!scale.fixedScores);
    m_scoresFixed->setChecked(scale.fixedScores);
    const double limit = scale.scoreLimit > 0 ? scale.scoreLimit : ColorScale::roundLimitAbove(largestScore());
    m_scoresFixed->setText(tr("Fixed ±%1").arg(QString::number(limit, 'g', 4)));
}

void HeatmapView::chooseScoreLimit()
{
    ColorScale scale = colorScale();
    const double suggested = scale.scoreLimit > 0 ? scale.scoreLimit : ColorScale::roundLimitAbove(largestScore());
    bool ok = false;
    const double limit = QInputDialog::getDouble(this, tr("Fixed Score Range"),
                                                 tr("Colour scores from −R to +R. R ="), suggested, 1e-9, 1e300, 4,
                                                 &ok);
    if (!ok || !(limit > 0))
        return;
    scale.fixedScores = true;
    scale.scoreLimit = limit;
    setColorScale(scale);
}

void HeatmapView::placeButtons()
{
    if (!m_fitButton)
        return;
    const HeatmapLayout &l = currentLayout();
    const bool cells = m_painter.rows() > 0 && m_painter.columns() > 0;
    // Each button in its corner, or hidden when the corner is too small for it.
    const auto place = [cells](QToolButton *button, const QRectF &corner, bool right) {
        const QSize size = button->sizeHint();
        const bool fits = cells && corner.width() >= size.width() && corner.height() >= size.height();
        button->setVisible(fits);
        if (!fits)
            return;
        const int x = right ? int(std::floor(corner.right())) - size.width() : int(std::ceil(corner.left()));
        button->setGeometry(QRect(QPoint(x, int(std::ceil(corner.top()))), size));
    };
    place(m_fitButton, l.topLeftCorner(), false);
    place(m_scaleButton, l.topRightCorner(), true);
    m_fitButton->setEnabled(!l.zoom().isFit());
    // The title keeps clear of both buttons, by the same width at each end so
    // that it stays centred over the cells ("· switched off" ran under "Scale").
    const QRectF row = l.titleRect();
    qreal inset = 0;
    if (m_fitButton->isVisibleTo(this))
        inset = std::max(inset, m_fitButton->geometry().right() + 1 + kTitleGap - row.left());
    if (m_scaleButton->isVisibleTo(this))
        inset = std::max(inset, row.right() - m_scaleButton->geometry().left() + kTitleGap);
    inset = std::max<qreal>(inset, 0);
    if (inset != m_painter.titleInset()) {
        m_painter.setTitleInset(inset);
        m_cacheDirty = true;
        update();
    }
}
