#include "dockreach.h"

#include <QDockWidget>
#include <QMainWindow>

DockReach::DockReach(QMainWindow *window, QWidget *fallback) : QObject(window), m_window(window), m_fallback(fallback)
{
}

void DockReach::watch(QDockWidget *dock)
{
    // Tabbed docks all count as visible widgets: this signal says which tab is on screen.
    connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) { setOnScreen(dock, visible); });
    connect(dock, &QObject::destroyed, this, [this, dock] { m_onScreen.remove(dock); });
    m_onScreen.insert(dock, dock->isVisible());
}

void DockReach::setOnScreen(QDockWidget *dock, bool onScreen)
{
    m_onScreen.insert(dock, onScreen);
    apply(dock);
}

void DockReach::apply(QDockWidget *dock)
{
    QWidget *contents = dock->widget();
    if (!contents)
        return;
    // A hidden widget's layout item reports a maximum size of 0 x 0, and a tab
    // group is no larger than its smallest tab's maximum: the right dock could
    // no longer be widened, by a drag or by resizeDocks(). Hidden contents keep
    // their size limits instead.
    QSizePolicy policy = contents->sizePolicy();
    if (!policy.retainSizeWhenHidden()) {
        policy.setRetainSizeWhenHidden(true);
        contents->setSizePolicy(policy);
    }
    const bool onScreen = isOnScreen(dock);
    QWidget *focus = m_window->focusWidget(); // the window's, even while a dialog has the keyboard
    if (!onScreen && focus && (focus == contents || contents->isAncestorOf(focus)))
        m_fallback->setFocus(Qt::OtherFocusReason);
    if (contents->isVisibleTo(dock) != onScreen)
        contents->setVisible(onScreen);
}
