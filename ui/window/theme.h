#pragma once
// The window's colours: the desktop's own palette, or a light or dark one
// chosen in View › Theme (remembered), for a room whose projector washes out
// one of them. Every view draws with the application palette, so switching
// it repaints the whole interface.

#include <QPalette>
#include <QString>
#include <optional>

enum class Theme { System, Light, Dark };

QString themeName(Theme theme); // "system", "light", "dark": how settings store it
std::optional<Theme> themeFromName(const QString &name);

// The palettes the Light and Dark themes use.
QPalette lightPalette();
QPalette darkPalette();

// Gives the application `theme`'s palette. System is the palette the
// application had before any theme was applied.
void applyTheme(Theme theme);
