#include "menumnemonics.h"

#include <QAction>
#include <QMenu>
#include <QSet>

namespace MenuMnemonics {
namespace {

const char kAutomatic[] = "attnAutomaticMnemonic";

// `text` without its mnemonic marker; "&&" (a real ampersand) stays.
QString withoutMarker(const QString &text)
{
    QString plain;
    for (int i = 0; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('&') && i + 1 < text.size() && text[i + 1] == QLatin1Char('&')) {
            plain += QStringLiteral("&&");
            ++i;
        } else if (text[i] != QLatin1Char('&')) {
            plain += text[i];
        }
    }
    return plain;
}

// Where a mnemonic may go in `plain`, the first letters of words first.
QList<int> candidates(const QString &plain)
{
    QList<int> wordStarts, others;
    for (int i = 0; i < plain.size(); ++i) {
        if (plain[i] == QLatin1Char('&')) { // "&&": a literal ampersand
            ++i;
            continue;
        }
        if (!plain[i].isLetterOrNumber())
            continue;
        const bool start = i == 0 || !plain[i - 1].isLetterOrNumber();
        (start ? wordStarts : others) << i;
    }
    return wordStarts + others;
}

} // namespace

void markAutomatic(QAction *action) { action->setProperty(kAutomatic, true); }

QChar mnemonicOf(const QString &text)
{
    for (int i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != QLatin1Char('&'))
            continue;
        if (text[i + 1] != QLatin1Char('&'))
            return text[i + 1].toLower();
        ++i; // "&&"
    }
    return {};
}

void choose(QMenu *menu)
{
    const QList<QAction *> actions = menu->actions();
    QSet<QChar> taken;
    for (const QAction *a : actions)
        if (!a->isSeparator() && !a->property(kAutomatic).toBool())
            if (const QChar c = mnemonicOf(a->text()); !c.isNull())
                taken.insert(c);
    for (QAction *a : actions) {
        if (a->isSeparator() || !a->property(kAutomatic).toBool())
            continue;
        QString text = withoutMarker(a->text());
        for (int i : candidates(text)) {
            if (!taken.contains(text[i].toLower())) {
                taken.insert(text[i].toLower());
                text.insert(i, QLatin1Char('&'));
                break;
            }
        }
        if (text != a->text())
            a->setText(text);
    }
}

void chooseOnShow(QMenu *menu)
{
    QObject::connect(menu, &QMenu::aboutToShow, menu, [menu] { choose(menu); });
    choose(menu);
}

} // namespace MenuMnemonics
