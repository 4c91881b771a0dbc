#include "autosaver.h"
#include "runtime/blasruntime.h"
#include "cliparse.h"
#include "commandline.h"
#include "fileactions.h"
#include "runtime/freedmemory.h"
#include "io/appfolders.h"
#include "document.h"
#include "mainwindow.h"
#include "timedapplication.h"

#include <QApplication>
#include <QCoreApplication>
#include <QIcon>
#include <QLocale>
#include <QTranslator>
#include <QGuiApplication>
#include <QMessageBox>
#include <QTextStream>
#include <cstdlib>
#include <sys/auxv.h>
#include <memory>
#include <unistd.h>

namespace {

void setApplicationInfo()
{
    attn::setApplicationNames(); // and the folders named by them: core/io/appfolders.h
    QCoreApplication::setApplicationVersion(QStringLiteral(ATTN_VERSION));
}

QtMessageHandler g_previousHandler = nullptr;

// Qt warns about XDG_RUNTIME_DIR when the environment has none (a shell
// outside a desktop session, the offscreen platform), which neither export
// nor the window needs: export's stderr stays one line on failure, and a
// clean start of the window prints nothing.
void quietStartupHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg && message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set")))
        return;
    // bench --drag shows the window on the offscreen platform, which says this of it.
    if (type == QtWarningMsg && message == QLatin1String("This plugin does not support propagateSizeHints()"))
        return;
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

// OpenBLAS reads its settings when it loads, before main(), so the program
// names what it wants and starts again, once: from then on both are set.
// - It may have chosen its slowest kernels on a processor newer than it
//   (see core/runtime/blasruntime.h): name the right family.
// - After each parallel call its threads spin, yielding, for some 2^28
//   processor cycles (a tenth of a second) before they sleep. On two cores
//   that spinning competes with the program's own two threads and with the
//   GUI thread (on hosts whose two virtual processors share a core, it slowed
//   the window's repaints by half). 2^18 cycles (under a tenth of a
//   millisecond) still bridges the gaps between the calls of one pass. Only
//   for the window and the commands that run many passes (bench, train):
//   starting again costs a short command such as export some 30 ms.
void useBetterBlasSettings(char **argv, bool manyPasses)
{
    // AT_BASE is 0 when the dynamic loader was run by hand as the program
    // (ld.so ./attention-explorer): /proc/self/exe would then be the loader.
    if (getauxval(AT_BASE) == 0)
        return;
    bool changed = false;
    if (!std::getenv("OPENBLAS_CORETYPE")) {
        const std::string type = attn::betterBlasCoreType(attn::blasCoreName(), attn::detectCpuFeatures());
        changed = !type.empty() && setenv("OPENBLAS_CORETYPE", type.c_str(), 1) == 0;
    }
    if (manyPasses && !std::getenv("OPENBLAS_THREAD_TIMEOUT"))
        changed = setenv("OPENBLAS_THREAD_TIMEOUT", "18", 1) == 0 || changed;
    if (changed)
        execv("/proc/self/exe", argv); // returns only on failure: go on as loaded
}

QStringList rawArguments(int argc, char **argv)
{
    QStringList list;
    for (int i = 0; i < argc; ++i)
        list << QString::fromLocal8Bit(argv[i]);
    return list;
}

} // namespace

int main(int argc, char **argv)
{
    const QStringList arguments = rawArguments(argc, argv);
    const CommandLine::Kind kind = commandKind(arguments);
    useBetterBlasSettings(argv, kind == CommandLine::Kind::Window || kind == CommandLine::Kind::Bench
                                    || kind == CommandLine::Kind::ModelBench || kind == CommandLine::Kind::Train);
    attn::keepFreedMemoryForReuse();
    if (needsGuiApplication(arguments)) {
        // Export draws text, so it needs the font database of a QGuiApplication;
        // the offscreen platform gives one without any display or X server.
        qputenv("QT_QPA_PLATFORM", "offscreen");
        g_previousHandler = qInstallMessageHandler(quietStartupHandler); // for the whole command
        // bench --drag times the real main window, which needs widgets.
        const std::unique_ptr<QGuiApplication> app = kind == CommandLine::Kind::Bench || kind == CommandLine::Kind::ModelBench
            ? std::make_unique<TimedApplication>(argc, argv)
            : std::make_unique<QGuiApplication>(argc, argv);
        setApplicationInfo();
        return runHeadlessCommand(app->arguments());
    }
    if (isHeadlessCommand(arguments)) {
        // No QGuiApplication: these commands must run without any display.
        QCoreApplication app(argc, argv);
        setApplicationInfo();
        return runHeadlessCommand(app.arguments());
    }

    // Checked before QApplication exists: without a display it aborts, and a
    // typo would never get its one-line answer.
    const CommandLine command = parseCommandLine(arguments);
    if (!command.error.isEmpty()) {
        QTextStream(stderr) << "attention-explorer: " << command.error << Qt::endl;
        return ExitBadInput;
    }
    g_previousHandler = qInstallMessageHandler(quietStartupHandler);
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
    }
    window.show();

    const QString recoveryDir = Autosaver::defaultDirectory();
    Autosaver::offerRecovery(&document, &window, recoveryDir);
    for (const QString &earlier : Autosaver::earlierDirectories())
        if (!document.isModified()) // one restored session is enough
            Autosaver::offerRecovery(&document, &window, earlier);
    Autosaver autosaver(&document, recoveryDir);
    const int exitCode = app.exec();
    autosaver.discard(); // a normal exit: the user saved or chose to discard
    return exitCode;
}
