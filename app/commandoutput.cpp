#include "commandoutput.h"

#include "cliparse.h"

#include <QTextStream>
#include <cstdio>

int printError(const QString &message, int code)
{
    QTextStream(stderr) << "attention-explorer: " << oneLine(message) << Qt::endl;
    return code;
}

bool writeStdout(const QByteArray &bytes)
{
    return std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout) == std::size_t(bytes.size())
        && std::fflush(stdout) == 0;
}
