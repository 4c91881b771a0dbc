// ModelActions' part for switched-off heads (the grid's and the head box's
// context menus, the marks) and the rollout dock's contents.

#include "modelactions.h"

#include "document.h"
#include "headbox.h"
#include "mainwindow.h"
#include "modeldocument.h"
#include "modelgridview.h"
#include "rolloutview.h"

#include <QAction>
#include <QComboBox>
#include <QMenu>
#include <QStringList>

void ModelActions::updateRollout()
{
    const SnapshotPtr snapshot = m_model->snapshot();
    m_rollout->setRollout(m_model->rollout(), snapshot->rowTokens, m_model->config()->causal,
                          m_model->config()->layers);
    m_rollout->setColorMap(m_document->selection()->colorMap());
    m_rollout->setQuery(m_model->query());
}

void ModelActions::onAblation()
{
    m_grid->setSwitchedOff(m_model->ablatedHeads());
    updateHeadBoxMarks();
}

void ModelActions::updateHeadBoxMarks()
{
    if (!m_model->isOpen())
        return;
    QComboBox *box = m_window->headBox();
    const attn::ModelConfig &c = *m_model->config();
    const int heads = c.heads;
    // Grouped-query attention: each head names its key/value head, and every
    // other group has a shaded background, so the groups stand out in the list.
    const bool grouped = c.kvHeads() < heads;
    for (int i = 0; i < box->count(); ++i) {
        const std::optional<int> h = headOfBoxItem(box, i);
        if (!h)
            continue;
        QString text = tr("%1 of %2").arg(*h).arg(heads);
        if (grouped)
            text += QStringLiteral(" · ") + tr("kv %1").arg(c.kvHeadOf(*h));
        if (m_model->isAblated(m_model->layer(), *h))
            text += QStringLiteral(" · ") + tr("switched off");
        box->setItemText(i, text);
        const int group = c.kvHeadOf(*h);
        box->setItemData(i, grouped && group % 2 == 1 ? QVariant(m_window->palette().brush(QPalette::AlternateBase))
                                                      : QVariant(),
                         Qt::BackgroundRole);
        QStringList sharing;
        for (int other = 0; other < heads; ++other)
            if (other != *h && c.kvHeadOf(other) == group)
                sharing << QString::number(other);
        const QString tip = sharing.size() == 1 ? tr("Query head %1 reads key/value head %2, as head %3 does")
                                                : tr("Query head %1 reads key/value head %2, as heads %3 do");
        box->setItemData(i, grouped ? tip.arg(*h).arg(group).arg(sharing.join(QStringLiteral(", "))) : QVariant(),
                         Qt::ToolTipRole);
    }
}

QMenu *ModelActions::headMenu(const HeadRef &ref)
{
    auto *menu = new QMenu(m_window);
    menu->setObjectName(QStringLiteral("headMenu"));
    if (ref.head) {
        const int layer = ref.layer, head = *ref.head;
        const bool off = m_model->isAblated(layer, head);
        QAction *one = menu->addAction(off ? tr("Switch head %1:%2 back on").arg(layer).arg(head)
                                           : tr("Switch head %1:%2 off").arg(layer).arg(head),
                                       this, [this, layer, head, off] { switchHead(layer, head, !off); });
        one->setObjectName(QStringLiteral("switchHead"));
        one->setStatusTip(tr("A switched-off head adds nothing to its layer's output; every later layer and the "
                             "prediction follow"));
    } else {
        menu->addAction(tr("Pick one head to switch it off"))->setEnabled(false);
    }
    const int count = int(m_model->ablatedHeads().size());
    QAction *all = menu->addAction(tr("Switch all heads back on (%n off)", nullptr, count), this, &ModelActions::switchAllOn);
    all->setObjectName(QStringLiteral("switchAllOn"));
    all->setEnabled(count > 0);
    return menu;
}

void ModelActions::popupHeadMenu(const HeadRef &head, const QPoint &globalPos)
{
    QMenu *menu = headMenu(head);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(globalPos);
}

void ModelActions::switchHead(int layer, int head, bool off)
{
    std::set<attn::LayerHead> heads = m_model->ablatedHeads();
    if (off)
        heads.insert({layer, head});
    else
        heads.erase({layer, head});
    m_document->setAblatedHeads(heads, off ? tr("Switch head %1:%2 off").arg(layer).arg(head)
                                           : tr("Switch head %1:%2 back on").arg(layer).arg(head));
}

void ModelActions::switchAllOn() { m_document->setAblatedHeads({}, tr("Switch all heads back on")); }
