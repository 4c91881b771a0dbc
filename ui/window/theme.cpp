#include "theme.h"

#include <QApplication>
#include <QStyle>

namespace {

// The desktop's palette, as the application had it before a theme replaced it.
const QPalette &systemPalette()
{
    static const QPalette palette = QApplication::palette();
    return palette;
}

} // namespace

QString themeName(Theme theme)
{
    switch (theme) {
    case Theme::System: return QStringLiteral("system");
    case Theme::Light: return QStringLiteral("light");
    case Theme::Dark: return QStringLiteral("dark");
    }
    return QStringLiteral("system");
}

std::optional<Theme> themeFromName(const QString &name)
{
    for (Theme theme : {Theme::System, Theme::Light, Theme::Dark})
        if (name == themeName(theme))
            return theme;
    return std::nullopt;
}

QPalette lightPalette()
{
    return QApplication::style()->standardPalette();
}

QPalette darkPalette()
{
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::AlternateBase, QColor(0x33, 0x33, 0x33));
    dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    dark.setColor(QPalette::Button, QColor(0x3a, 0x3a, 0x3a));
    dark.setColor(QPalette::ButtonText, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Light, QColor(0x50, 0x50, 0x50));
    dark.setColor(QPalette::Midlight, QColor(0x45, 0x45, 0x45));
    dark.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    dark.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x18));
    dark.setColor(QPalette::Shadow, QColor(0x10, 0x10, 0x10));
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
    dark.setColor(QPalette::HighlightedText, QColor(0x10, 0x10, 0x10));
    dark.setColor(QPalette::Link, QColor(0x6c, 0xc4, 0xf0));
    dark.setColor(QPalette::ToolTipBase, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::ToolTipText, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    // Disabled controls (the hand-made panels while a model is open) stay readable but dimmer.
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        dark.setColor(QPalette::Disabled, role, QColor(0x80, 0x80, 0x80));
    return dark;
}

void applyTheme(Theme theme)
{
    systemPalette(); // taken before the first change
    switch (theme) {
    case Theme::System: QApplication::setPalette(systemPalette()); break;
    case Theme::Light: QApplication::setPalette(lightPalette()); break;
    case Theme::Dark: QApplication::setPalette(darkPalette()); break;
    }
}
