#include "autosaver.h"
#include "commandline.h"
#include "fileactions.h"
#include "document.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFileInfo>
#include <QIcon>
#include <QLocale>
#include <QTranslator>
#include <QGuiApplication>
#include <QMessageBox>
#include <QTextStream>

namespace {

void setApplicationInfo()
{
    QCoreApplication::setApplicationName(QStringLiteral("attention-explorer"));
    QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ATTN_VERSION));
}

QtMessageHandler g_previousHandler = nullptr;

// The offscreen platform warns about XDG_RUNTIME_DIR while it starts, which
// it does not need for export; export's stderr stays one line on failure.
void quietStartupHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg && message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set")))
        return;
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

QStringList rawArguments(int argc, char **argv)
{
    QStringList list;
    for (int i = 0; i < argc; ++i)
        list << QString::fromLocal8Bit(argv[i]);
    return list;
}

// Checks the window's arguments before QApplication exists, because without a
// display QApplication aborts and a typo would never get its one-line answer.
// Qt's own options (-platform, -style, ...) pass through for QApplication.
bool windowArgumentsAreValid(const QStringList &arguments, QString *error)
{
    static const QStringList qtOptionsWithValue = {
        "platform", "platformpluginpath", "platformtheme", "plugin", "qwindowgeometry", "geometry",
        "qwindowtitle", "title", "qwindowicon", "icon", "style", "stylesheet", "session", "display", "name",
        "qmljsdebugger", "fontengine"};
    static const QStringList qtFlags = {"reverse", "widgetcount", "nograb", "dograb", "sync"};
    QStringList positional;
    for (int i = 1; i < arguments.size(); ++i) {
        const QString &arg = arguments[i];
        if (!arg.startsWith('-') || arg == QLatin1String("-")) {
            positional << arg;
            continue;
        }
        const QString option = arg.mid(arg.startsWith(QLatin1String("--")) ? 2 : 1).section('=', 0, 0);
        if (qtOptionsWithValue.contains(option)) {
            if (!arg.contains('='))
                ++i;
        } else if (!qtFlags.contains(option)) {
            *error = QStringLiteral("unknown option \"%1\" (see --help)").arg(arg);
            return false;
        }
    }
    if (positional.size() > 1) {
        *error = QStringLiteral("the window opens one session file at a time (see --help)");
        return false;
    }
    if (positional.size() == 1 && !QFileInfo::exists(positional.first())) {
        *error = QStringLiteral("%1: no such command or session file (see --help)").arg(positional.first());
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    const QStringList arguments = rawArguments(argc, argv);
    if (needsGuiApplication(arguments)) {
        // Export draws text, so it needs the font database of a QGuiApplication;
        // the offscreen platform gives one without any display or X server.
        qputenv("QT_QPA_PLATFORM", "offscreen");
        g_previousHandler = qInstallMessageHandler(quietStartupHandler);
        QGuiApplication app(argc, argv);
        qInstallMessageHandler(g_previousHandler);
        setApplicationInfo();
        return runHeadlessCommand(app.arguments());
    }
    if (isHeadlessCommand(arguments)) {
        // No QGuiApplication: these commands must run without any display.
        QCoreApplication app(argc, argv);
        setApplicationInfo();
        return runHeadlessCommand(app.arguments());
    }

    QString error;
    if (!windowArgumentsAreValid(arguments, &error)) {
        QTextStream(stderr) << "attention-explorer: " << error << Qt::endl;
        return ExitBadInput;
    }
    QApplication app(argc, argv);
    setApplicationInfo();
    QApplication::setApplicationDisplayName(QStringLiteral("Attention Explorer"));
    // The catalogue for the user's language when one ships (English is built in).
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("attention-explorer"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(&translator);
    // Lets the desktop (Wayland especially) match the window to its menu entry and icon.
    const QString appId = QStringLiteral("io.github.attention_explorer.AttentionExplorer");
    QGuiApplication::setDesktopFileName(appId);
    QApplication::setWindowIcon(QIcon::fromTheme(appId, QIcon(QStringLiteral(":/icons/%1.svg").arg(appId))));
    const QStringList args = app.arguments();

    Document document;
    MainWindow window(&document);
    if (args.size() == 2) {
        // A bad file named on the command line still opens the window (on the
        // example), and says what is wrong: a double-click should not fail silently.
        if (!window.fileActions()->openPath(args[1]))
            QTextStream(stderr) << "attention-explorer: could not open " << args[1] << Qt::endl;
    } else {
        window.restoreAttentionOptions();
    }
    window.show();

    const QString recoveryDir = Autosaver::defaultDirectory();
    Autosaver::offerRecovery(&document, &window, recoveryDir);
    Autosaver autosaver(&document, recoveryDir);
    const int exitCode = app.exec();
    autosaver.discard(); // a normal exit: the user saved or chose to discard
    return exitCode;
}
