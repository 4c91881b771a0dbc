#pragma once
// Runs a program as on a server: no DISPLAY, no Wayland, no QT_QPA_PLATFORM.
// Shared by the tests that check the command line needs no display.

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

struct HeadlessRun
{
    int exitCode = -1; // -1: crashed or did not finish within a minute
    QByteArray out, err;
};

inline HeadlessRun runHeadless(const QString &program, const QStringList &arguments,
                               const QString &workingDirectory = QString())
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "WAYLAND_SOCKET"})
        env.remove(QString::fromLatin1(name));
    QProcess p;
    p.setProcessEnvironment(env);
    if (!workingDirectory.isEmpty())
        p.setWorkingDirectory(workingDirectory);
    p.start(program, arguments);
    HeadlessRun run;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return run;
    }
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return run;
}
