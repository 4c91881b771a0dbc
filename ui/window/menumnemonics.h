#pragma once
// Mnemonics (the underlined Alt+letter) for menu entries whose text comes
// from data: dock titles, examples, models, files. Fixed entries carry their
// own & in their translated text; a marked entry gets the first letter no
// other entry of its menu uses, each time the menu opens (its text may have
// changed meanwhile: a dock's title follows the open model).

#include <QChar>
#include <QString>

class QAction;
class QMenu;

namespace MenuMnemonics {

// Marks `action` as one whose mnemonic is chosen when its menu opens.
void markAutomatic(QAction *action);
// Chooses the marked entries' mnemonics now and whenever `menu` is about to
// show (call it after connecting whatever fills the menu as it opens).
void chooseOnShow(QMenu *menu);
void choose(QMenu *menu);
// The character `text` underlines (the one after a single &), or a null QChar.
QChar mnemonicOf(const QString &text);

} // namespace MenuMnemonics
