#include "io/appfolders.h"

#include <QCoreApplication>
#include <QDir>
#include <QStandardPaths>

namespace attn {
namespace {

QString underApplication(QStandardPaths::StandardLocation generic)
{
    return QDir(QStandardPaths::writableLocation(generic)).filePath(QCoreApplication::applicationName());
}

} // namespace

void setApplicationNames()
{
    QCoreApplication::setApplicationName(QStringLiteral("attention-explorer"));
    QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer"));
}

QString appDataFolder() { return underApplication(QStandardPaths::GenericDataLocation); }

QString appCacheFolder() { return underApplication(QStandardPaths::GenericCacheLocation); }

QStringList earlierAppDataFolders()
{
    const QString qtDefault = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (qtDefault.isEmpty() || QDir::cleanPath(qtDefault) == QDir::cleanPath(appDataFolder()))
        return {};
    return {qtDefault};
}

} // namespace attn
