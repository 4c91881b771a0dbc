// The model commands' arguments (contract section 6): tokenize, compute
// --model, export --model and bench --model. What only the model knows (its layers, heads and
// positions) is checked when it is loaded, by modelcommands.cpp.

#include "cliparse.h"

#include "cliparseoptions.h"

#include "model/modelconfig.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QRegularExpression>

namespace {

using Kind = CommandLine::Kind;

using cliparse::parseOrStop;
using cliparse::valueOption;

// The whole value must be a number in range: "--top 5x" is a typo, not 5.
bool wholeNumber(const QCommandLineParser &parser, const QCommandLineOption &option, int low, int high, int *out,
                 QString *error)
{
    bool ok = false;
    const int value = parser.value(option).toInt(&ok);
    if (!ok || value < low || value > high) {
        *error = QStringLiteral("--%1 must be a whole number from %2 to %3").arg(option.names().first()).arg(low).arg(high);
        return false;
    }
    *out = value;
    return true;
}

// "L:H" with both numbers from 0; whether that head exists is the model's to say.
std::optional<std::pair<int, int>> parseLayerHead(const QString &text)
{
    static const QRegularExpression pattern(QRegularExpression::anchoredPattern(QStringLiteral("(\\d{1,6}):(\\d{1,6})")));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    return std::make_pair(match.captured(1).toInt(), match.captured(2).toInt());
}

// --model (and --text) present and sensible; the rest of the line is the command's.
bool modelAndText(const QCommandLineParser &parser, const char *command, bool needsText, QString *model, QString *text,
                  QString *error)
{
    const QString name = QString::fromLatin1(command);
    if (parser.positionalArguments().size() > 1) {
        *error = QStringLiteral("%1: unexpected argument \"%2\"; the model comes with --model DIR%3 (see --help)")
                     .arg(name, parser.positionalArguments().at(1),
                          needsText ? QStringLiteral(", the text with --text TEXT") : QString());
        return false;
    }
    if (!parser.isSet(QStringLiteral("model")) || parser.value(QStringLiteral("model")).isEmpty()) {
        *error = QStringLiteral("%1 needs --model DIR (see --help)").arg(name);
        return false;
    }
    *model = parser.value(QStringLiteral("model"));
    if (!needsText)
        return true;
    if (!parser.isSet(QStringLiteral("text"))) {
        *error = QStringLiteral("%1 needs --text TEXT (see --help)").arg(name);
        return false;
    }
    *text = parser.value(QStringLiteral("text"));
    if (text->isEmpty()) {
        *error = QStringLiteral("--text is empty: give the text to run through the model");
        return false;
    }
    return true;
}

const QCommandLineOption &modelOption()
{
    static const QCommandLineOption o = valueOption(
        "model", "The model: a folder with config.json and model.safetensors, a Hugging Face cache entry "
                 "(models--ORG--NAME) or a snapshot in one, a GGUF file (FILE.gguf), or ollama:NAME[:TAG] "
                 "(a model of Ollama's store).", "DIR");
    return o;
}

const QCommandLineOption &textOption()
{
    static const QCommandLineOption o = valueOption("text", "The text to run through the model.", "TEXT");
    return o;
}

void parseTokenize(const QStringList &arguments, CommandLine *command)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Print the token ids and pieces the model's tokenizer gives."));
    parser.addPositionalArgument(QStringLiteral("tokenize"), QStringLiteral("The command."));
    parser.addOptions({modelOption(), textOption()});
    if (parseOrStop(parser, arguments, command))
        modelAndText(parser, "tokenize", true, &command->tokenize.model, &command->tokenize.text, &command->error);
}

void parseModelCompute(const QStringList &arguments, CommandLine *command)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Run a text through a trained model and write every layer's and "
                                                    "head's attention as a result file (version 2)."));
    parser.addPositionalArgument(QStringLiteral("compute"), QStringLiteral("The command."));
    const QCommandLineOption out({QStringLiteral("o"), QStringLiteral("output")},
                                 QStringLiteral("Write the result to OUT instead of stdout."), QStringLiteral("OUT"));
    const QCommandLineOption top = valueOption("top", "Next-token predictions to list (default 10).", "K");
    const QCommandLineOption ablate = valueOption("ablate", "Switch head H of layer L off (0-based; repeatable).",
                                                  "L:H");
    const QCommandLineOption rollout(QStringLiteral("rollout"), QStringLiteral("Add the attention rollout."));
    parser.addOptions({modelOption(), textOption(), out, top, ablate, rollout});
    if (!parseOrStop(parser, arguments, command))
        return;
    ModelComputeArgs &args = command->modelCompute;
    if (!modelAndText(parser, "compute", true, &args.model, &args.text, &command->error))
        return;
    if (parser.isSet(out))
        args.output = parser.value(out);
    if (parser.isSet(top) && !wholeNumber(parser, top, 1, kMaxTopPredictions, &args.top, &command->error))
        return;
    for (const QString &value : parser.values(ablate)) {
        const std::optional<std::pair<int, int>> head = parseLayerHead(value);
        if (!head) {
            command->error = QStringLiteral("--ablate %1: expected LAYER:HEAD, for example 0:1 (both counted from 0)")
                                 .arg(value);
            return;
        }
        args.ablate.push_back(*head);
    }
    args.rollout = parser.isSet(rollout);
}

// A 0-based number the model range-checks; "average" too where `average` is allowed (the head).
bool indexOption(const QCommandLineParser &parser, const QCommandLineOption &option, bool average, int *out,
                 QString *error)
{
    if (!parser.isSet(option))
        return true;
    const QString text = parser.value(option), name = option.names().first();
    if (average && text == QLatin1String("average")) {
        *out = -1;
        return true;
    }
    bool ok = false;
    const int value = text.toInt(&ok);
    if (!ok || value < (average ? -1 : 0)) {
        *error = average ? QStringLiteral("--%1 %2: expected a 0-based %1 number or \"average\"").arg(name, text)
                         : QStringLiteral("--%1 %2: expected a 0-based %1 number").arg(name, text);
        return false;
    }
    *out = value;
    return true;
}

void parseModelExport(const QStringList &arguments, CommandLine *command)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Draw one layer and head of a trained model as the window "
                                                    "does, or write the numbers as CSV or JSON."));
    parser.addPositionalArgument(QStringLiteral("export"), QStringLiteral("The command."));
    const QCommandLineOption out({QStringLiteral("o"), QStringLiteral("output")},
                                 QStringLiteral("The file to write; its suffix picks the format: "
                                                ".png, .svg, .pdf, .csv or .json."), QStringLiteral("OUT"));
    const QCommandLineOption layer = valueOption("layer", "0-based layer (default 0).", "L");
    const QCommandLineOption head = valueOption("head", "0-based head (default 0); \"average\" or -1 for the "
                                                        "average.", "H");
    const QCommandLineOption query = valueOption("query", "0-based query token (default 0).", "I");
    const QCommandLineOption view = valueOption("view", "heatmap (default), scores, pipeline, bars, heads or "
                                                        "dashboard.", "VIEW");
    const QCommandLineOption size = valueOption("size", "Picture size in pixels (default per view).", "WxH");
    const QCommandLineOption scale = valueOption("scale", "PNG pixel ratio: 2 gives twice the pixels (default 1).",
                                                 "F");
    const QCommandLineOption colormap = valueOption("colormap", "viridis (default), cividis, magma or grayscale.",
                                                    "NAME");
    const QCommandLineOption dark(QStringLiteral("dark"), QStringLiteral("Dark background instead of light."));
    const QCommandLineOption transparent(QStringLiteral("transparent"),
                                         QStringLiteral("PNG and SVG: no background fill."));
    parser.addOptions({modelOption(), textOption(), out, layer, head, query, view, size, scale, colormap, dark,
                       transparent});
    if (!parseOrStop(parser, arguments, command))
        return;
    ModelExportArgs &args = command->modelExport;
    QString &error = command->error;
    if (!modelAndText(parser, "export", true, &args.model, &args.text, &error))
        return;
    if (!parser.isSet(out) || parser.value(out).isEmpty()) {
        error = QStringLiteral("export needs -o OUT (see --help)");
        return;
    }
    args.output = parser.value(out);
    args.dark = parser.isSet(dark);
    args.transparent = parser.isSet(transparent);
    const QString suffix = QFileInfo(args.output).suffix().toLower();
    if (args.transparent && QStringList{"pdf", "csv", "json"}.contains(suffix)) {
        error = QStringLiteral("--transparent works for .png and .svg pictures only, not .%1").arg(suffix);
        return;
    }
    if (!indexOption(parser, layer, false, &args.layer, &error) || !indexOption(parser, head, true, &args.head, &error)
        || !indexOption(parser, query, false, &args.query, &error))
        return;
    if (parser.isSet(view))
        args.view = parser.value(view);
    if (parser.isSet(colormap))
        args.colorMap = parser.value(colormap);
    if (parser.isSet(size)) {
        args.size = parseSizeOption(parser.value(size));
        if (!args.size) {
            error = QStringLiteral("--size %1: expected WxH in pixels, for example 800x600").arg(parser.value(size));
            return;
        }
    }
    if (parser.isSet(scale)) {
        bool ok = false;
        args.scale = parser.value(scale).toDouble(&ok);
        if (!ok)
            error = QStringLiteral("--scale %1: expected a number, for example 2").arg(parser.value(scale));
    }
}

void parseModelBench(const QStringList &arguments, CommandLine *command)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Time one forward pass of a trained model."));
    parser.addPositionalArgument(QStringLiteral("bench"), QStringLiteral("The command."));
    const QCommandLineOption tokens = valueOption("tokens", "Tokens (default 1024 or the model's limit).", "N");
    const QCommandLineOption repeat = valueOption(
        "repeat", "Repetitions (default 5); 0: the first pass alone, for a model too large to run again and again.", "R");
    const QCommandLineOption window = cliparse::flagOption(
        "window", "Time typing one more word in the real main window instead (a GPT-2 model, 64 tokens by default).");
    parser.addOptions({modelOption(), tokens, repeat, window});
    if (!parseOrStop(parser, arguments, command))
        return;
    ModelBenchArgs &args = command->modelBench;
    QString unused;
    if (!modelAndText(parser, "bench", false, &args.model, &unused, &command->error))
        return;
    if (parser.isSet(tokens)) {
        int n = 0;
        if (!wholeNumber(parser, tokens, 1, attn::kMaxModelPositions, &n, &command->error))
            return;
        args.tokens = n;
    }
    args.window = parser.isSet(window);
    if (parser.isSet(repeat))
        wholeNumber(parser, repeat, args.window ? 1 : 0, 1000, &args.repeat, &command->error);
}

} // namespace

bool hasModelOption(const QStringList &arguments)
{
    for (int i = 2; i < arguments.size(); ++i)
        if (arguments[i] == QLatin1String("--model") || arguments[i].startsWith(QLatin1String("--model=")))
            return true;
    return false;
}

void parseModelCommand(const QStringList &arguments, CommandLine *command)
{
    switch (command->kind) {
    case Kind::Tokenize:
        parseTokenize(arguments, command);
        break;
    case Kind::ModelCompute:
        parseModelCompute(arguments, command);
        break;
    case Kind::ModelExport:
        parseModelExport(arguments, command);
        break;
    case Kind::ModelBench:
        parseModelBench(arguments, command);
        break;
    default:
        break;
    }
}
