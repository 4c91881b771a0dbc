#include "formats/savefile.h"

#include <QCoreApplication>
#include <cerrno>
#include <cstring>

namespace attn {

bool commitSaveFile(QSaveFile &file, const QString &name, QString *error)
{
    errno = 0;
    if (!file.flush()) {
        const int code = errno;
        *error = QCoreApplication::translate("SaveFile", "%1: cannot write: %2")
                     .arg(name, code != 0 ? QString::fromLocal8Bit(std::strerror(code)) : file.errorString());
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        *error = QCoreApplication::translate("SaveFile", "%1: cannot write: %2").arg(name, file.errorString());
        file.cancelWriting();
        return false;
    }
    return true;
}

} // namespace attn
