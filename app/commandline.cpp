#include "commandline.h"

#include "resultio.h"
#include "sessionio.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QTextStream>
#include <cstdio>

namespace {

int printError(const QString &message, int code)
{
    QTextStream(stderr) << "attention-explorer: " << message << Qt::endl;
    return code;
}

bool writeStdout(const QByteArray &bytes)
{
    return std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout) == std::size_t(bytes.size())
        && std::fflush(stdout) == 0;
}

int runCompute(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Compute attention for a session and write the result file."));
    parser.addPositionalArgument(QStringLiteral("compute"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("SESSION"), QStringLiteral("The session file (.attn.json)."));
    const QCommandLineOption out({QStringLiteral("o"), QStringLiteral("output")},
                                 QStringLiteral("Write the result to OUT instead of stdout."), QStringLiteral("OUT"));
    parser.addOption(out);
    parser.addHelpOption();
    if (!parser.parse(arguments))
        return printError(parser.errorText(), ExitBadInput);
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return ExitOk;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        return printError(QStringLiteral("compute takes one SESSION file (see --help)"), ExitBadInput);

    QString error;
    const std::optional<attn::Session> session = attn::readSession(positional[1], &error);
    if (!session)
        return printError(error, ExitBadInput);
    attn::AttentionResult result;
    try {
        result = attn::computeSession(*session);
    } catch (const attn::InputError &e) {
        return printError(positional[1] + QStringLiteral(": ") + QString::fromStdString(e.what()), ExitBadInput);
    }
    const QByteArray json = attn::resultToJson(*session, result);
    if (!parser.isSet(out))
        return writeStdout(json) ? ExitOk : printError(QStringLiteral("cannot write to stdout"), ExitFailure);
    if (!attn::writeFileAtomically(parser.value(out), json, &error))
        return printError(error, ExitFailure);
    return ExitOk;
}

} // namespace

QString usageText()
{
    return QStringLiteral(
        "Usage:\n"
        "  attention-explorer [SESSION]                 open the window (the built-in example when no file)\n"
        "  attention-explorer compute SESSION [-o OUT]  write the result file (stdout when no -o)\n"
        "  attention-explorer --help | --version\n"
        "\n"
        "Attention Explorer shows self-attention at work: edit each token's embedding,\n"
        "pick a query and see scores, weights and context vectors.\n"
        "\n"
        "Commands:\n"
        "  compute   Read SESSION (.attn.json), compute attention as the session sets it up,\n"
        "            and write every intermediate (inputs, queries, keys, values, scores,\n"
        "            weights, context, output) as a result JSON file. Needs no display.\n"
        "\n"
        "Exit status: 0 success; 2 bad input or bad usage (one line on stderr);\n"
        "1 any other failure, such as a file that cannot be written.\n");
}

bool isHeadlessCommand(const QStringList &arguments)
{
    if (arguments.size() < 2)
        return false;
    const QString &first = arguments[1];
    return first == QLatin1String("compute") || first == QLatin1String("--help") || first == QLatin1String("-h")
        || first == QLatin1String("--version") || first == QLatin1String("-v");
}

int runHeadlessCommand(const QStringList &arguments)
{
    const QString &command = arguments.value(1);
    if (command == QLatin1String("--help") || command == QLatin1String("-h")) {
        QTextStream(stdout) << usageText();
        return ExitOk;
    }
    if (command == QLatin1String("--version") || command == QLatin1String("-v")) {
        QTextStream(stdout) << QCoreApplication::applicationName() << ' ' << QCoreApplication::applicationVersion()
                            << Qt::endl;
        return ExitOk;
    }
    if (command == QLatin1String("compute"))
        return runCompute(arguments);
    return printError(QStringLiteral("unknown command \"%1\" (see --help)").arg(command), ExitBadInput);
}
