#include "commandline.h"
#include "document.h"
#include "mainwindow.h"
#include "sessionio.h"

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
    if (args.size() == 2) {
        QString error;
        const std::optional<attn::Session> session = attn::readSession(args[1], &error);
        if (!session) {
            QTextStream(stderr) << "attention-explorer: " << error << Qt::endl;
            return ExitBadInput;
        }
        document.resetSession(*session);
    }
    MainWindow window(&document);
    if (args.size() == 1)
        window.restoreAttentionOptions();
    window.show();
    return app.exec();
}
