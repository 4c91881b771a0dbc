#include "commandline.h"

#include "benchcommand.h"

#include "exporter.h"
#include "resultio.h"
#include "sessionio.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
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
        return printError(QFileInfo(positional[1]).fileName() + QStringLiteral(": ") + QString::fromStdString(e.what()),
                          ExitBadInput);
    }
    const QByteArray json = attn::resultToJson(*session, result);
    if (!parser.isSet(out))
        return writeStdout(json) ? ExitOk : printError(QStringLiteral("cannot write to stdout"), ExitFailure);
    if (!attn::writeFileAtomically(parser.value(out), json, &error))
        return printError(error, ExitFailure);
    return ExitOk;
}

std::optional<QSize> parseSize(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d{1,6})[xX](\\d{1,6})$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    return QSize(match.captured(1).toInt(), match.captured(2).toInt());
}

// The whole option value must be an integer: "--head 1x" is a typo, not head 1.
std::optional<int> parseInt(const QString &text)
{
    bool ok = false;
    const int value = text.toInt(&ok);
    return ok ? std::optional<int>(value) : std::nullopt;
}

int runExport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Export a view as a picture, or the numbers as CSV or JSON."));
    parser.addPositionalArgument(QStringLiteral("export"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("SESSION"), QStringLiteral("The session file (.attn.json)."));
    const auto option = [](const char *name, const char *help, const char *value) {
        return QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(help), QString::fromLatin1(value));
    };
    const QCommandLineOption out({QStringLiteral("o"), QStringLiteral("output")},
                                 QStringLiteral("The file to write; its suffix picks the format: "
                                                ".png, .svg, .pdf, .csv or .json."),
                                 QStringLiteral("OUT"));
    const QCommandLineOption view = option("view", "heatmap (default), scores, pipeline, bars, heads or dashboard.",
                                           "VIEW");
    const QCommandLineOption head = option("head", "0-based head (default 0); \"average\" for the average.", "K");
    const QCommandLineOption query = option("query", "0-based query token (default: the session's).", "I");
    const QCommandLineOption size = option("size", "Picture size in pixels (default per view).", "WxH");
    const QCommandLineOption scale = option("scale", "PNG pixel ratio: 2 gives twice the pixels (default 1).", "F");
    const QCommandLineOption colormap = option("colormap", "viridis (default), cividis, magma or grayscale.",
                                               "NAME");
    const QCommandLineOption dark(QStringLiteral("dark"), QStringLiteral("Dark background instead of light."));
    parser.addOptions({out, view, head, query, size, scale, colormap, dark});
    parser.addHelpOption();
    if (!parser.parse(arguments))
        return printError(parser.errorText(), ExitBadInput);
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return ExitOk;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        return printError(QStringLiteral("export takes one SESSION file (see --help)"), ExitBadInput);
    if (!parser.isSet(out))
        return printError(QStringLiteral("export needs -o OUT (see --help)"), ExitBadInput);
    const QString path = parser.value(out);

    ExportOptions options;
    if (parser.isSet(view)) {
        const std::optional<ExportView> v = exportViewFromName(parser.value(view));
        if (!v)
            return printError(QStringLiteral("--view %1: unknown view; use heatmap, scores, pipeline, bars, heads "
                                             "or dashboard").arg(parser.value(view)), ExitBadInput);
        options.view = *v;
    }
    if (parser.isSet(head)) {
        const QString text = parser.value(head);
        const std::optional<int> k = text == QLatin1String("average") ? std::optional<int>(-1) : parseInt(text);
        if (!k)
            return printError(QStringLiteral("--head %1: expected a 0-based head number or \"average\"").arg(text),
                              ExitBadInput);
        options.head = *k;
    }
    if (parser.isSet(size)) {
        const std::optional<QSize> s = parseSize(parser.value(size));
        if (!s)
            return printError(QStringLiteral("--size %1: expected WxH in pixels, for example 800x600")
                                  .arg(parser.value(size)), ExitBadInput);
        options.size = *s;
    }
    if (parser.isSet(scale)) {
        bool ok = false;
        options.scale = parser.value(scale).toDouble(&ok);
        if (!ok)
            return printError(QStringLiteral("--scale %1: expected a number, for example 2").arg(parser.value(scale)),
                              ExitBadInput);
    }
    if (parser.isSet(colormap)) {
        const std::optional<ColorMap> map = colorMapFromName(parser.value(colormap));
        if (!map)
            return printError(QStringLiteral("--colormap %1: unknown colour map; use viridis, cividis, magma or "
                                             "grayscale").arg(parser.value(colormap)), ExitBadInput);
        options.colorMap = *map;
    }
    if (parser.isSet(dark))
        options.palette = darkExportPalette();

    QString error;
    const std::optional<attn::Session> session = attn::readSession(positional[1], &error);
    if (!session)
        return printError(error, ExitBadInput);
    options.query = session->query;
    if (parser.isSet(query)) {
        const std::optional<int> i = parseInt(parser.value(query));
        if (!i)
            return printError(QStringLiteral("--query %1: expected a 0-based token number").arg(parser.value(query)),
                              ExitBadInput);
        options.query = *i;
    }
    const SnapshotPtr snapshot = snapshotForSession(*session);
    if (!snapshot->result)
        return printError(positional[1] + QStringLiteral(": ") + snapshot->error, ExitBadInput);
    // The user's mistakes (suffix, head, query, size) exit with 2; only writing exits with 1.
    error = checkExport(snapshot, options, path);
    if (!error.isEmpty())
        return printError(error, ExitBadInput);
    return exportFile(*session, snapshot, options, path, &error) ? ExitOk : printError(error, ExitFailure);
}

} // namespace

QString usageText()
{
    return QStringLiteral(
        "Usage:\n"
        "  attention-explorer [SESSION]                 open the window (the built-in example when no file)\n"
        "  attention-explorer compute SESSION [-o OUT]  write the result file (stdout when no -o)\n"
        "  attention-explorer export SESSION -o OUT [--view VIEW] [--head K] [--query I]\n"
        "                          [--size WxH] [--scale F] [--colormap NAME] [--dark]\n"
        "  attention-explorer bench [--tokens N] [--d-model D] [--heads H] [--head-dim K]\n"
        "                          [--causal] [--repeat R] [--paint]\n"
        "  attention-explorer --help | --version\n"
        "\n"
        "Attention Explorer shows self-attention at work: edit each token's embedding,\n"
        "pick a query and see scores, weights and context vectors.\n"
        "\n"
        "Commands:\n"
        "  compute   Read SESSION (.attn.json), compute attention as the session sets it up,\n"
        "            and write every intermediate (inputs, queries, keys, values, scores,\n"
        "            weights, context, output) as a result JSON file. Needs no display.\n"
        "  export    Draw a view of SESSION into OUT, or write its numbers. OUT's suffix picks\n"
        "            the format: .png, .svg, .pdf (pictures), .csv (one head's matrix with the\n"
        "            tokens on both axes) or .json (the result file, as compute writes it).\n"
        "            Needs no display.\n"
        "              --view VIEW      heatmap (weights, default), scores (raw scores),\n"
        "                               pipeline, bars, heads or dashboard (all of them)\n"
        "              --head K         0-based head, default 0; \"average\" for the average\n"
        "              --query I        0-based query token, default the session's\n"
        "              --size WxH       picture size in pixels; default 800x700 (heatmap,\n"
        "                               scores), 900x420 (bars), 1600x1000 (dashboard); the\n"
        "                               pipeline and heads shrink to fit, within 900x420, 900x700\n"
        "              --scale F        PNG pixel ratio: 2 doubles the pixels, same layout\n"
        "              --colormap NAME  viridis (default), cividis, magma or grayscale\n"
        "              --dark           dark background instead of the light default\n"
        "  bench     Time the full forward pass on deterministic random data (defaults: 1024\n"
        "            tokens, d_model 512, 8 heads) and the machine's fastest single-precision\n"
        "            matrix product (OpenBLAS sgemm); print one JSON line. --paint times the\n"
        "            heatmap painted at 1280x800 with 512, 2048 and 4096 tokens instead.\n"
        "\n"
        "Exit status: 0 success; 2 bad input or bad usage (one line on stderr);\n"
        "1 any other failure, such as a file that cannot be written.\n");
}

bool needsGuiApplication(const QStringList &arguments)
{
    return arguments.size() >= 2
        && (arguments[1] == QLatin1String("export") || arguments[1] == QLatin1String("bench"));
}

bool isHeadlessCommand(const QStringList &arguments)
{
    if (arguments.size() < 2)
        return false;
    const QString &first = arguments[1];
    return first == QLatin1String("compute") || first == QLatin1String("export") || first == QLatin1String("bench")
        || first == QLatin1String("--help")
        || first == QLatin1String("-h") || first == QLatin1String("--version") || first == QLatin1String("-v");
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
    if (command == QLatin1String("export"))
        return runExport(arguments);
    if (command == QLatin1String("bench"))
        return runBench(arguments);
    return printError(QStringLiteral("unknown command \"%1\" (see --help)").arg(command), ExitBadInput);
}
