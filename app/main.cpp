#include "autosaver.h"
#include "commandline.h"
#include "fileactions.h"
#include "document.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCoreApplication>
#include <QMessageBox>
#include <QTextStream>

namespace {

void setApplicationInfo()
{
    QCoreApplication::setApplicationName(QStringLiteral("attention-explorer"));
    QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ATTN_VERSION));
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
    if (isHeadlessCommand(arguments)) {
        // No QGuiApplication: these commands must run without any display.
        QCoreApplication app(argc, argv);
        setApplicationInfo();
        return runHeadlessCommand(app.arguments());
    }

    QApplication app(argc, argv);
    setApplicationInfo();
    QApplication::setApplicationDisplayName(QStringLiteral("Attention Explorer"));
    const QStringList args = app.arguments();
    if (args.size() > 2 || (args.size() == 2 && args[1].startsWith('-'))) {
        QTextStream(stderr) << "attention-explorer: unexpected arguments (see --help)" << Qt::endl;
        return ExitBadInput;
    }

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
