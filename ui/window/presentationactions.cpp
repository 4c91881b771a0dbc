#include "presentationactions.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QLayout>
#include <QMainWindow>
#include <QMenu>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>
#include <cmath>

namespace {

const QString kZoomKey = QStringLiteral("view/zoom");
const QString kThemeKey = QStringLiteral("view/theme");
const QString kPresentingKey = QStringLiteral("view/presentationLayout");
const QString kNormalLayoutKey = QStringLiteral("view/normalLayout");

// The application font before any zoom: every step scales this one, so
// windows made one after another (tests, the screenshots) never compound.
const QFont &baseFont()
{
    static const QFont font = QApplication::font();
    return font;
}

} // namespace

const std::vector<double> &PresentationActions::zoomSteps()
{
    static const std::vector<double> steps{0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0};
    return steps;
}

PresentationActions::PresentationActions(QMainWindow *window) : QObject(window), m_window(window)
{
    baseFont();
    const std::vector<double> &steps = zoomSteps();
    const int unzoomed = int(std::find(steps.begin(), steps.end(), 1.0) - steps.begin());
    m_zoomStep = unzoomed;
    QSettings settings;
    const double saved = settings.value(kZoomKey, 1.0).toDouble();
    for (int i = 0; i < int(steps.size()); ++i)
        if (std::fabs(steps[std::size_t(i)] - saved) < std::fabs(steps[std::size_t(m_zoomStep)] - saved))
            m_zoomStep = i;
    m_theme = themeFromName(settings.value(kThemeKey).toString()).value_or(Theme::System);
    // The layout itself comes back with the window's state; only the switch is read here.
    m_presenting = settings.value(kPresentingKey, false).toBool();

    m_zoomIn = new QAction(tr("Zoom &In"), this);
    m_zoomIn->setObjectName(QStringLiteral("zoomIn"));
    // Ctrl+= as well: on most keyboards "+" needs Shift.
    m_zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    m_zoomIn->setStatusTip(tr("Make the whole interface larger: text, cells, tokens and labels"));
    connect(m_zoomIn, &QAction::triggered, this, [this] { setZoomStep(m_zoomStep + 1); });
    m_zoomOut = new QAction(tr("Zoom &Out"), this);
    m_zoomOut->setObjectName(QStringLiteral("zoomOut"));
    m_zoomOut->setShortcuts(QKeySequence::ZoomOut);
    m_zoomOut->setStatusTip(tr("Make the whole interface smaller"));
    connect(m_zoomOut, &QAction::triggered, this, [this] { setZoomStep(m_zoomStep - 1); });
    m_zoomReset = new QAction(tr("Reset &Zoom"), this);
    m_zoomReset->setObjectName(QStringLiteral("zoomReset"));
    m_zoomReset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    m_zoomReset->setStatusTip(tr("The interface at the desktop's own size"));
    connect(m_zoomReset, &QAction::triggered, this, [this, unzoomed] { setZoomStep(unzoomed); });

    m_fullScreen = new QAction(tr("&Full Screen"), this);
    m_fullScreen->setObjectName(QStringLiteral("fullScreen"));
    m_fullScreen->setCheckable(true);
    QList<QKeySequence> fullKeys{QKeySequence(Qt::Key_F11)};
    for (const QKeySequence &k : QKeySequence::keyBindings(QKeySequence::FullScreen))
        if (!fullKeys.contains(k))
            fullKeys << k;
    m_fullScreen->setShortcuts(fullKeys);
    connect(m_fullScreen, &QAction::triggered, this, &PresentationActions::setFullScreen);
    m_window->installEventFilter(this); // the check mark follows the window's state

    m_presentation = new QAction(tr("&Presentation Layout"), this);
    m_presentation->setObjectName(QStringLiteral("presentationLayout"));
    m_presentation->setCheckable(true);
    m_presentation->setChecked(m_presenting);
    m_presentation->setStatusTip(tr("The heatmap takes most of the window, the walkthrough and the other tabs "
                                    "beside it; the other panels are put away until the layout is switched off"));
    connect(m_presentation, &QAction::triggered, this, &PresentationActions::setPresentationLayout);

    m_themes = new QActionGroup(this);
    const std::pair<Theme, QString> themes[] = {{Theme::System, tr("Follow the &System")},
                                                {Theme::Light, tr("&Light")},
                                                {Theme::Dark, tr("&Dark")}};
    for (const auto &[theme, text] : themes) {
        QAction *action = m_themes->addAction(text);
        action->setCheckable(true);
        action->setChecked(theme == m_theme);
        action->setObjectName(QStringLiteral("theme-") + themeName(theme));
        action->setData(int(theme));
        connect(action, &QAction::triggered, this, [this, theme = theme] { setTheme(theme); });
    }
    if (m_theme != Theme::System)
        applyTheme(m_theme);
    applyZoom();
}

void PresentationActions::addToMenu(QMenu *viewMenu)
{
    viewMenu->addSeparator();
    viewMenu->addAction(m_zoomIn);
    viewMenu->addAction(m_zoomOut);
    viewMenu->addAction(m_zoomReset);
    viewMenu->addSeparator();
    viewMenu->addAction(m_fullScreen);
    viewMenu->addAction(m_presentation);
    QMenu *theme = viewMenu->addMenu(tr("&Theme"));
    theme->setObjectName(QStringLiteral("themeMenu"));
    theme->addActions(m_themes->actions());
}

void PresentationActions::raiseDocksWhenShown()
{
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>())
        connect(dock->toggleViewAction(), &QAction::triggered, dock, [dock](bool shown) {
            if (shown)
                dock->raise();
        });
}

QAction *PresentationActions::themeAction(Theme theme) const
{
    for (QAction *action : m_themes->actions())
        if (action->data().toInt() == int(theme))
            return action;
    return nullptr;
}

void PresentationActions::setZoomStep(int step)
{
    step = std::clamp(step, 0, int(zoomSteps().size()) - 1);
    if (step == m_zoomStep)
        return;
    m_zoomStep = step;
    QSettings().setValue(kZoomKey, zoom());
    applyZoom();
    emit zoomChanged(zoom());
    // Once the layouts have measured the larger text: the window stays on the screen.
    QTimer::singleShot(0, this, &PresentationActions::keepOnScreen);
}

void PresentationActions::applyZoom()
{
    QFont font = baseFont();
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * zoom());
    else
        font.setPixelSize(std::max(1, int(std::lround(font.pixelSize() * zoom()))));
    if (font != QApplication::font())
        QApplication::setFont(font); // every widget that has not chosen its own font follows
    // A dock draws its title with the font the application had when the dock
    // was made, unless its own font differs from its class's: given one that
    // differs only in a hint, its title bar grows with the rest. (At a start
    // the zoom comes before the docks, which then take it from the start.)
    QFont docks = font;
    docks.setStyleStrategy(QFont::PreferAntialias);
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>())
        dock->setFont(docks);
    updateZoomActions();
}

void PresentationActions::updateZoomActions()
{
    m_zoomIn->setEnabled(m_zoomStep + 1 < int(zoomSteps().size()));
    m_zoomOut->setEnabled(m_zoomStep > 0);
    m_zoomReset->setEnabled(zoom() != 1.0);
}

void PresentationActions::setTheme(Theme theme)
{
    m_theme = theme;
    if (QAction *action = themeAction(theme))
        action->setChecked(true);
    QSettings().setValue(kThemeKey, themeName(theme));
    applyTheme(theme);
}

void PresentationActions::setFullScreen(bool on)
{
    m_window->setWindowState(on ? m_window->windowState() | Qt::WindowFullScreen
                                : m_window->windowState() & ~Qt::WindowFullScreen);
}

void PresentationActions::setPresentationLayout(bool on)
{
    m_presentation->setChecked(on);
    if (on == m_presenting)
        return;
    m_presenting = on;
    QSettings settings;
    settings.setValue(kPresentingKey, on);
    if (on) {
        settings.setValue(kNormalLayoutKey, m_window->saveState());
        QList<QDockWidget *> side;
        for (QDockWidget *dock : m_window->findChildren<QDockWidget *>()) {
            if (dock->isFloating() || dock->isHidden())
                continue;
            if (m_window->dockWidgetArea(dock) == Qt::RightDockWidgetArea)
                side << dock;
            else
                dock->hide(); // the View menu shows any of them again
        }
        if (!side.isEmpty())
            m_window->resizeDocks({side.first()}, {int(m_window->width() * kSideShare)}, Qt::Horizontal);
        return;
    }
    if (!m_window->restoreState(settings.value(kNormalLayoutKey).toByteArray())) {
        // No layout to go back to: the panels the window starts with.
        for (const char *name : {"options", "embedding", "pipeline", "bars"})
            if (auto *dock = m_window->findChild<QDockWidget *>(QLatin1String(name)))
                dock->show();
    }
}

void PresentationActions::keepOnScreen()
{
    const QScreen *screen = m_window->screen();
    if (!screen || m_window->isFullScreen())
        return;
    const QRect area = screen->availableGeometry();
    const QSize frame = m_window->frameGeometry().size() - m_window->size(); // title bar and borders
    const QSize room = area.size() - frame;
    auto fits = [&] {
        const QSize least = m_window->minimumSizeHint().expandedTo(m_window->minimumSize());
        return least.width() <= room.width() && least.height() <= room.height();
    };
    if (!fits() && !m_presenting) {
        // The panels around the heatmap no longer fit at this size of text: the presentation layout does.
        setPresentationLayout(true);
        if (auto *status = m_window->statusBar())
            status->showMessage(tr("Panels put away to fit the screen (View › Presentation Layout)"), 15000);
        // The layout learns of the hidden panels only when it next runs; until then it holds the window at
        // the old least size, and the resize below would stop there.
        if (QLayout *layout = m_window->layout())
            layout->activate();
    }
    if (m_window->width() > room.width() || m_window->height() > room.height())
        m_window->resize(m_window->size().boundedTo(room));
    if (!area.contains(m_window->frameGeometry()))
        m_window->move(std::max(area.left(), std::min(m_window->x(), area.right() - m_window->frameGeometry().width())),
                       std::max(area.top(), std::min(m_window->y(), area.bottom() - m_window->frameGeometry().height())));
}

bool PresentationActions::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && event->type() == QEvent::WindowStateChange)
        m_fullScreen->setChecked(m_window->isFullScreen());
    return QObject::eventFilter(watched, event);
}
