#pragma once
// Sizes a window as wanted, but never larger than the screen it opens on
// (frame and panels included): a 1280 x 720 projector has no room to spare.

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>
#include <algorithm>

inline void resizeWithinScreen(QWidget *window, const QSize &wanted)
{
    const QScreen *screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (!screen) {
        window->resize(wanted);
        return;
    }
    // Room for a title bar and borders, which the window's own size excludes.
    const QSize room = screen->availableGeometry().size() - QSize(16, 48);
    window->resize(std::max(window->minimumSizeHint().width(), std::min(wanted.width(), room.width())),
                   std::max(window->minimumSizeHint().height(), std::min(wanted.height(), room.height())));
}
