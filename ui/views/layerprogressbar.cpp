#include "layerprogressbar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

LayerProgressBar::LayerProgressBar(QWidget *parent)
    : QWidget(parent), m_bar(new QProgressBar), m_label(new QLabel), m_cancel(new QPushButton(tr("Cancel"))),
      m_rest(new QPushButton(tr("Compute the Rest")))
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_label);
    row->addWidget(m_bar);
    row->addWidget(m_cancel);
    row->addWidget(m_rest);
    m_bar->setTextVisible(true);
    m_bar->setMinimumWidth(150);
    m_bar->setMaximumWidth(220);
    m_bar->setAccessibleName(tr("Layers computed"));
    m_cancel->setToolTip(tr("Stop computing: the layers done stay shown"));
    m_rest->setToolTip(tr("Compute the layers the stopped run left, going on from the last one done"));
    m_cancel->setObjectName(QStringLiteral("cancelRun"));
    m_rest->setObjectName(QStringLiteral("computeRest"));
    connect(m_cancel, &QPushButton::clicked, this, &LayerProgressBar::cancelRequested);
    connect(m_rest, &QPushButton::clicked, this, &LayerProgressBar::restRequested);
    hide();
}

void LayerProgressBar::showRunning(int done, int total)
{
    m_label->hide();
    m_rest->hide();
    m_bar->setRange(0, std::max(1, total));
    m_bar->setValue(std::min(done, total));
    // Layers count from 0: "Layer 5 of 32" is the sixth, the one under way after 0 to 4.
    m_bar->setFormat(tr("Layer %1 of %2").arg(std::min(done, total - 1)).arg(total));
    m_bar->setToolTip(done > 0 ? tr("Layers 0 to %1 are computed and shown; the others follow").arg(done - 1)
                               : tr("The first layer is being computed"));
    m_bar->show();
    m_cancel->show();
    show();
}

void LayerProgressBar::showStopped(int done, int total)
{
    m_bar->hide();
    m_cancel->hide();
    m_label->setText(done == total - 1 ? tr("Stopped: layer %1 not computed").arg(done)
                                       : tr("Stopped: layers %1 to %2 not computed").arg(done).arg(total - 1));
    m_label->show();
    m_rest->show();
    show();
}

void LayerProgressBar::showNothing() { hide(); }

QString LayerProgressBar::text() const
{
    if (m_bar->isVisibleTo(this))
        return m_bar->text();
    return m_label->text();
}
