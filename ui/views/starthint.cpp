#include "starthint.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QStyle>
#include <QToolButton>

namespace {
const QString kDismissedKey = QStringLiteral("hints/startHereDismissed");
}

StartHint::StartHint(QWidget *parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("startHint"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);
    m_text = new QLabel;
    setQueryToken(QStringLiteral("journey"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_close = new QToolButton;
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Close this hint; it will not come back"));
    m_close->setAccessibleName(tr("Close the start hint"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_close, &QToolButton::clicked, this, [this] {
        QSettings().setValue(kDismissedKey, true);
        hide();
        emit dismissed();
    });
}

void StartHint::setQueryToken(const QString &token)
{
    m_text->setText(tr("<b>Start here.</b> “%1” is the query: its row in the heatmap holds its weights, and "
                       "the <b>Walkthrough</b> on the right computes them step by step with the numbers on "
                       "screen. Click another word to make it the query, drag a slider under <b>Embedding</b> "
                       "and watch every view follow. <b>Examples</b> has more to open.")
                        .arg(token.toHtmlEscaped()));
}

QString StartHint::text() const { return m_text->text(); }

bool StartHint::wanted() { return !QSettings().value(kDismissedKey, false).toBool(); }
