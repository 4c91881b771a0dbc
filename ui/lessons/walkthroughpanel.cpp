#include "walkthroughpanel.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>

WalkthroughPanel::WalkthroughPanel(QWidget *parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus); // arrow keys step through while the panel has focus
    setAccessibleName(tr("Walkthrough"));
    auto *layout = new QVBoxLayout(this);
    m_indicator = new QLabel;
    m_title = new QLabel;
    m_title->setWordWrap(true);
    m_changed = new QLabel;
    m_changed->setWordWrap(true);
    m_changed->setAccessibleName(tr("The steps changed"));
    m_changed->hide();
    m_switchedOff = new QLabel;
    m_switchedOff->setWordWrap(true);
    m_switchedOff->setStyleSheet(QStringLiteral("font-weight: bold"));
    m_switchedOff->hide();
    m_explanation = new QLabel;
    m_explanation->setWordWrap(true);
    m_explanation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_formulas = new QLabel;
    m_formulas->setWordWrap(true);
    m_formulas->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_formulas->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_formulas->setMargin(6);
    m_formulas->setAccessibleName(tr("Formulas of this step"));
    auto *scroll = new QScrollArea;
    scroll->setAccessibleName(tr("Formulas of this step"));
    scroll->setWidget(m_formulas);
    scroll->setWidgetResizable(true);
    scroll->setBackgroundRole(QPalette::Base); // formulas on the text background, as in an editor
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    m_back = new QPushButton(tr("&Back"));
    m_next = new QPushButton(tr("&Next"));
    m_back->setToolTip(tr("Previous step (Left, Page Up or Alt+B)"));
    m_next->setToolTip(tr("Next step (Right, Page Down or Alt+N)"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_indicator, 1);
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);

    layout->addWidget(m_switchedOff);
    layout->addWidget(m_changed);
    layout->addWidget(m_title);
    layout->addWidget(m_explanation);
    layout->addWidget(scroll, 1);
    layout->addLayout(buttons);
    applyFonts();
    connect(m_back, &QPushButton::clicked, this, &WalkthroughPanel::back);
    connect(m_next, &QPushButton::clicked, this, &WalkthroughPanel::next);
    rebuild();
}

void WalkthroughPanel::setSnapshot(SnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
    rebuild();
}

void WalkthroughPanel::setQuery(int query)
{
    if (query == m_query)
        return;
    m_query = query;
    rebuild();
}

void WalkthroughPanel::setHead(int head)
{
    head = std::max(head, 0);
    if (head == m_head)
        return;
    m_head = head;
    rebuild();
}

void WalkthroughPanel::setCurrentStep(int step)
{
    step = std::clamp(step, 0, std::max(stepCount() - 1, 0));
    m_changed->hide(); // the user has moved on: the note has done its work
    m_changed->clear();
    if (step == m_step)
        return;
    m_step = step;
    showStep();
    emit stepChanged(m_step);
}

QString WalkthroughPanel::titleText() const
{
    return m_title->text();
}

QString WalkthroughPanel::explanationText() const
{
    return m_explanation->text();
}

QString WalkthroughPanel::formulaText() const
{
    return m_formulas->text();
}

QString WalkthroughPanel::changeNote() const
{
    return m_changed->isHidden() ? QString() : m_changed->text();
}

QString WalkthroughPanel::switchedOffNote() const
{
    return m_switchedOff->isHidden() ? QString() : m_switchedOff->text();
}

void WalkthroughPanel::rebuild()
{
    // Behind another tab of a shown window: built when it comes up (the steps
    // of a 512-token text take milliseconds, for nobody).
    if (!isVisible() && window()->isVisible()) {
        m_stale = true;
        return;
    }
    m_stale = false;
    std::vector<attn::WalkthroughStepKind> before;
    for (const attn::WalkthroughStep &s : m_steps)
        before.push_back(s.kind);
    const bool hadStep = m_step >= 0 && m_step < stepCount();
    const attn::WalkthroughStepKind was = hadStep ? m_steps[std::size_t(m_step)].kind : attn::WalkthroughStepKind::PickQuery;
    const QString wasTitle = hadStep ? m_steps[std::size_t(m_step)].title : QString();
    m_steps.clear();
    if (m_snapshot && m_snapshot->result)
        m_steps = attn::buildWalkthrough(m_snapshot->rowTokens, m_snapshot->columnTokens, *m_snapshot->result, m_query,
                                         m_head, {}, &m_snapshot->embeddings);
    // Keep the learner on the same step while numbers change.
    if (hadStep && !m_steps.empty())
        keepPlace(before, was, wasTitle);
    m_step = std::clamp(m_step, 0, std::max(stepCount() - 1, 0));
    showStep();
}

void WalkthroughPanel::keepPlace(const std::vector<attn::WalkthroughStepKind> &before,
                                 attn::WalkthroughStepKind was, const QString &wasTitle)
{
    std::vector<attn::WalkthroughStepKind> now;
    for (const attn::WalkthroughStep &s : m_steps)
        now.push_back(s.kind);
    if (now == before)
        return;
    // The steps come in the order of the computation, and so do the kinds:
    // a step that went away (the mask switched off) gives way to the next.
    const auto same = std::find(now.begin(), now.end(), was);
    const auto next = std::find_if(now.begin(), now.end(), [was](attn::WalkthroughStepKind k) { return k > was; });
    const int oldStep = m_step;
    if (same != now.end()) {
        m_step = int(same - now.begin());
        if (m_step == oldStep)
            return; // the same step under the same number: nothing moved for the reader
        m_changed->setText(tr("The steps changed with the options: this is still \u201c%1\u201d, now step %2 of %3.")
                               .arg(wasTitle).arg(m_step + 1).arg(stepCount()));
    } else {
        m_step = next != now.end() ? int(next - now.begin()) : stepCount() - 1;
        m_changed->setText(tr("The steps changed with the options: \u201c%1\u201d is no longer one of them; this is "
                              "the step that came after it.")
                               .arg(wasTitle));
    }
    m_changed->show();
}

void WalkthroughPanel::showStep()
{
    const bool off = m_snapshot && m_snapshot->isSwitchedOff(m_head);
    m_switchedOff->setText(off ? tr("Head %1 is switched off: its output is zero. These are the weights it computes; "
                                    "the layer adds none of its context.")
                                     .arg(m_head)
                               : QString());
    m_switchedOff->setVisible(off);
    if (m_steps.empty()) {
        const QString why = m_snapshot && !m_snapshot->error.isEmpty() ? m_snapshot->error
                                                                        : tr("There is nothing to compute yet.");
        m_title->setText(tr("No walkthrough"));
        m_explanation->setText(why);
        m_formulas->clear();
        m_indicator->clear();
        m_back->setEnabled(false);
        m_next->setEnabled(false);
        emit highlightChanged(-1, {}); // nothing explained, nothing outlined
        return;
    }
    const attn::WalkthroughStep &step = m_steps[std::size_t(m_step)];
    m_title->setText(tr("%1. %2").arg(m_step + 1).arg(step.title));
    m_explanation->setText(step.explanation);
    QStringList lines;
    for (const attn::FormulaLine &line : step.lines)
        lines << line.text;
    m_formulas->setText(lines.join(QLatin1Char('\n')));
    m_indicator->setText(tr("Step %1 of %2").arg(m_step + 1).arg(stepCount()));
    m_back->setEnabled(m_step > 0);
    m_next->setEnabled(m_step + 1 < stepCount());
    QList<int> keys;
    for (int key : step.keys)
        keys << key;
    emit highlightChanged(step.query, keys);
}

void WalkthroughPanel::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_PageDown: next(); break;
    case Qt::Key_Left:
    case Qt::Key_PageUp: back(); break;
    case Qt::Key_Home: setCurrentStep(0); break;
    case Qt::Key_End: setCurrentStep(stepCount() - 1); break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

void WalkthroughPanel::showEvent(QShowEvent *event)
{
    if (m_stale)
        rebuild();
    QWidget::showEvent(event);
}

void WalkthroughPanel::applyFonts()
{
    // Derived from the panel's font each time, so they grow with View › Zoom In.
    QFont titleFont = font();
    titleFont.setBold(true);
    if (font().pointSizeF() > 0)
        titleFont.setPointSizeF(font().pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (font().pointSizeF() > 0)
        fixed.setPointSizeF(font().pointSizeF());
    m_formulas->setFont(fixed);
}

void WalkthroughPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange)
        applyFonts();
    if (event->type() == QEvent::LanguageChange) {
        m_back->setText(tr("&Back"));
        m_next->setText(tr("&Next"));
        rebuild(); // the step texts are translated when built
    }
    QWidget::changeEvent(event);
}
