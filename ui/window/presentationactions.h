#pragma once
// View › Zoom In, Zoom Out and Actual Size (the whole interface: text, cells,
// chips and labels grow with the application font), Full Screen (F11), the
// presentation layout (the heatmap takes most of the window, the lesson's
// tab group beside it, the other panels put away) and the theme: a classroom
// set-up that the next start remembers.

#include "theme.h"

#include <QByteArray>
#include <QObject>
#include <vector>

class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;

class PresentationActions : public QObject
{
    Q_OBJECT
public:
    // Reads what the last session chose (zoom and theme are applied at once).
    explicit PresentationActions(QMainWindow *window);

    // The entries, after a separator, at the end of `viewMenu`.
    void addToMenu(QMenu *viewMenu);
    // Every dock's View entry raises its dock when it shows it: a tab the
    // user asks for comes to the front instead of opening behind another.
    void raiseDocksWhenShown();

    // The zoom steps, 1 being the desktop's own size.
    static const std::vector<double> &zoomSteps();
    double zoom() const { return zoomSteps()[std::size_t(m_zoomStep)]; }
    void setZoomStep(int step);
    Theme theme() const { return m_theme; }
    void setTheme(Theme theme);
    bool isPresentationLayout() const { return m_presenting; }
    void setPresentationLayout(bool on);
    void setFullScreen(bool on);

    QAction *zoomInAction() const { return m_zoomIn; }
    QAction *zoomOutAction() const { return m_zoomOut; }
    QAction *zoomResetAction() const { return m_zoomReset; }
    QAction *fullScreenAction() const { return m_fullScreen; }
    QAction *presentationAction() const { return m_presentation; }
    QAction *themeAction(Theme theme) const;

    // How wide the tab group beside the heatmap is in the presentation layout, as a share of the window.
    static constexpr double kSideShare = 0.3;

signals:
    void zoomChanged(double zoom);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applyZoom();
    void updateZoomActions();
    // After a zoom: when the panels' least size no longer fits the screen,
    // the presentation layout puts them away; the window is brought back onto the screen.
    void keepOnScreen();

    QMainWindow *m_window;
    int m_zoomStep = 0;
    Theme m_theme = Theme::System;
    bool m_presenting = false;
    QAction *m_zoomIn = nullptr, *m_zoomOut = nullptr, *m_zoomReset = nullptr;
    QAction *m_fullScreen = nullptr, *m_presentation = nullptr;
    QActionGroup *m_themes = nullptr;
};
