// A stand-in for a user's session that will crash: makes the edits that
// tst_recovery expects, waits for the autosave, says "ready", then idles
// until the test kills it with SIGKILL.

#include "autosaver.h"
#include "document.h"
#include "recovery_edits.h"

#include <QCoreApplication>
#include <QFile>
#include <QTimer>
#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: recovery_child DIRECTORY\n");
        return 2;
    }
    Document document;
    Autosaver autosaver(&document, QString::fromLocal8Bit(argv[1]));
    autosaver.setInterval(50);
    applyRecoveryEdits(document);

    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        if (QFile::exists(autosaver.recoveryPath())) {
            std::printf("ready\n");
            std::fflush(stdout);
            poll.stop();
        }
    });
    poll.start(20);
    return app.exec();
}
