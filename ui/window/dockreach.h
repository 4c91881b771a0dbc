#pragma once
// Keeps the keyboard out of docks that are not on screen. A dock behind
// another tab is moved off screen by QMainWindow, not hidden, so its fields
// could keep the focus (keys typed after a tab switch, or after a dialog
// closed and gave the window its focus back, landed in the Cross-attention
// tab's Source box, unseen) and take Tab and Alt+letter shortcuts. Here a
// dock's contents are hidden while its tab is not the one shown: Qt then
// gives them no focus, and the focus they held goes to `fallback` (the
// sentence field). Hidden contents keep their size limits, so the tab group
// keeps the sizes it had (hidden, they would pin it to its least width).

#include <QHash>
#include <QObject>

class QDockWidget;
class QMainWindow;
class QWidget;

class DockReach : public QObject
{
    Q_OBJECT
public:
    DockReach(QMainWindow *window, QWidget *fallback);

    // Follows `dock` from now on (call before the window is shown).
    void watch(QDockWidget *dock);
    // Shows or hides `dock`'s contents as its tab is shown or not (after its
    // contents were replaced, say).
    void apply(QDockWidget *dock);
    bool isOnScreen(QDockWidget *dock) const { return m_onScreen.value(dock, false); }

private:
    void setOnScreen(QDockWidget *dock, bool onScreen);

    QMainWindow *m_window;
    QWidget *m_fallback;
    QHash<QDockWidget *, bool> m_onScreen;
};
