#pragma once
// Help › About and Help › Keyboard shortcuts.

class QMainWindow;
class QWidget;

void showAboutDialog(QWidget *parent);

// Lists every menu action that has a shortcut (read from the menus, so the
// list never goes stale) and the keys the views understand.
void showShortcutsDialog(QMainWindow *window);

// The same list as text, one "keys<TAB>what" per line; for the dialog and tests.
class QString;
QString shortcutsText(QMainWindow *window);
