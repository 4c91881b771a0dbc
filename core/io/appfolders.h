#pragma once
// Where the program keeps its own files, each named once by the program:
// ~/.local/share/attention-explorer (models it trained, recovery copies) and
// ~/.cache/attention-explorer (the example models it unpacks). Qt's
// AppDataLocation and CacheLocation put the organisation's name before the
// program's, and settings (QSettings) need an organisation: with both named
// "attention-explorer" those folders read .../attention-explorer/attention-explorer.

#include <QString>
#include <QStringList>

namespace attn {

// The names Qt files the program under: organisation and application
// "attention-explorer" (settings in ~/.config/attention-explorer/attention-explorer.conf,
// where they always were). Called first thing by main() and by tests.
void setApplicationNames();

// The program's data folder: GenericDataLocation/<application name>.
QString appDataFolder();
// The program's cache folder: GenericCacheLocation/<application name>.
QString appCacheFolder();
// Data folders earlier versions wrote to (Qt's AppDataLocation, when it is
// not appDataFolder()), so that what a user kept there is still found.
QStringList earlierAppDataFolders();

} // namespace attn
