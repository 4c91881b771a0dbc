#pragma once
// What both random-interaction tests (tst_monkey, tst_modelmonkey) need from
// their surroundings: numbers from the environment (seed, action count) and
// quiet about what the machine's fonts and the offscreen platform say.

#include <QString>
#include <QtGlobal>
#include <cstdint>

namespace monkeyenv {

inline std::uint64_t envNumber(const char *name, std::uint64_t fallback)
{
    bool ok = false;
    const std::uint64_t value = qEnvironmentVariable(name).toULongLong(&ok);
    return ok ? value : fallback;
}

inline QtMessageHandler g_previousHandler = nullptr;

// Fonts without Arabic or Hebrew shaping tables, and what the offscreen
// platform cannot do (size hints; raising and grabbing the keyboard for every
// popup menu): the machine's business, not the program's, and thousands of
// them would use up QTest's 2,000 messages.
inline void quietPlatformWarnings(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg
        && (message.startsWith(QLatin1String("OpenType support missing"))
            || message == QLatin1String("This plugin does not support propagateSizeHints()")
            || message == QLatin1String("This plugin does not support raise()")
            || message == QLatin1String("This plugin does not support grabbing the keyboard")))
        return;
    g_previousHandler(type, context, message);
}

inline void installQuietHandler() { g_previousHandler = qInstallMessageHandler(quietPlatformWarnings); }

} // namespace monkeyenv
