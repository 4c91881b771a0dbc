#include "cliparseoptions.h"

namespace cliparse {

QCommandLineOption valueOption(const char *name, const char *help, const char *value, const QString &defaultValue)
{
    return QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(help), QString::fromLatin1(value),
                              defaultValue);
}

QCommandLineOption flagOption(const char *name, const char *help)
{
    return QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(help));
}

bool parseOrStop(QCommandLineParser &parser, const QStringList &arguments, CommandLine *command)
{
    // Not addHelpOption(): it also lists --help-all (Qt's own options), which
    // only QCommandLineParser::process() answers, and these commands have none.
    parser.addOption(QCommandLineOption({QStringLiteral("h"), QStringLiteral("help")},
                                        QStringLiteral("Displays help on commandline options.")));
    if (!parser.parse(arguments)) {
        command->error = parser.errorText();
        return false;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        command->helpText = parser.helpText();
        return false;
    }
    return true;
}

} // namespace cliparse
