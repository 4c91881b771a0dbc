// The model commands' arguments (contract section 6): tokenize, compute
// --model and bench --model. What only the model knows (its layers, heads and
// positions) is checked when it is loaded, by modelcommands.cpp.

#include "cliparse.h"

#include "model/modelconfig.h"

#include <QCommandLineParser>
#include <QRegularExpression>

namespace {

using Kind = CommandLine::Kind;

QCommandLineOption valueOption(const char *name, const char *help, const char *value)
{
    return QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(help), QString::fromLatin1(value));
}

// As parseOrStop in cliparse.cpp: false when a usage error or --help ends the command here.
bool parseOrStop(QCommandLineParser &parser, const QStringList &arguments, CommandLine *command)
{
    parser.addHelpOption();
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
    static const QRegularExpression pattern(QStringLiteral("^(\\d{1,6}):(\\d{1,6})$"));
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
                 "(models--ORG--NAME) or a snapshot in one.", "DIR");
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

void parseModelBench(const QStringList &arguments, CommandLine *command)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Time one forward pass of a trained model."));
    parser.addPositionalArgument(QStringLiteral("bench"), QStringLiteral("The command."));
    const QCommandLineOption tokens = valueOption("tokens", "Tokens (default 1024 or the model's limit).", "N");
    const QCommandLineOption repeat = valueOption("repeat", "Repetitions (default 5).", "R");
    parser.addOptions({modelOption(), tokens, repeat});
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
    if (parser.isSet(repeat))
        wholeNumber(parser, repeat, 1, 1000, &args.repeat, &command->error);
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
    case Kind::ModelBench:
        parseModelBench(arguments, command);
        break;
    default:
        break;
    }
}
