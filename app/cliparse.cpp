#include "cliparse.h"

#include "cliparseoptions.h"

#include "attention/attention.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QRegularExpression>

namespace {

using Kind = CommandLine::Kind;

using cliparse::flagOption;
using cliparse::parseOrStop;
using cliparse::valueOption;

// Checks the window's arguments before QApplication exists, because without a
// display QApplication aborts and a typo would never get its one-line answer.
// Qt's own options (-platform, -style, ...) pass through for QApplication.
void parseWindow(const QStringList &arguments, CommandLine *command)
{
    static const QStringList qtOptionsWithValue = {
        "platform", "platformpluginpath", "platformtheme", "plugin", "qwindowgeometry", "geometry",
        "qwindowtitle", "title", "qwindowicon", "icon", "style", "stylesheet", "session", "display", "name",
        "qmljsdebugger", "fontengine"};
    static const QStringList qtFlags = {"reverse", "widgetcount", "nograb", "dograb", "sync"};
    QStringList positional;
    for (int i = 1; i < arguments.size(); ++i) {
        const QString &arg = arguments[i];
        if (!arg.startsWith('-') || arg == QLatin1String("-")) {
            positional << arg;
            continue;
        }
        const QString option = arg.mid(arg.startsWith(QLatin1String("--")) ? 2 : 1).section('=', 0, 0);
        if (qtOptionsWithValue.contains(option)) {
            if (!arg.contains('='))
                ++i;
        } else if (!qtFlags.contains(option)) {
            command->error = QStringLiteral("unknown option \"%1\" (see --help)").arg(arg);
            return;
        }
    }
    if (positional.size() > 1)
        command->error = QStringLiteral("the window opens one session file at a time (see --help)");
    else if (positional.size() == 1 && !QFileInfo::exists(positional.first()))
        command->error = QStringLiteral("%1: no such command or session file (see --help)").arg(positional.first());
    else
        command->window.session = positional.value(0);
}

// compute and export: the command word, then one SESSION file.
void addSessionArguments(QCommandLineParser &parser, const char *command, const char *description)
{
    parser.setApplicationDescription(QString::fromLatin1(description));
    parser.addPositionalArgument(QString::fromLatin1(command), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("SESSION"), QStringLiteral("The session file (.attn.json)."));
}

QCommandLineOption outputOption(const char *help)
{
    return QCommandLineOption({QStringLiteral("o"), QStringLiteral("output")}, QString::fromLatin1(help),
                              QStringLiteral("OUT"));
}

// The SESSION after the command word; unset, with the error recorded, unless there is exactly one.
std::optional<QString> sessionArgument(const QCommandLineParser &parser, const char *command, CommandLine *result)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.size() == 2)
        return positional[1];
    result->error = QStringLiteral("%1 takes one SESSION file (see --help)").arg(QLatin1String(command));
    return std::nullopt;
}

void parseCompute(const QStringList &arguments, CommandLine *command)
{
    QCommandLineParser parser;
    addSessionArguments(parser, "compute", "Compute attention for a session and write the result file.");
    const QCommandLineOption out = outputOption("Write the result to OUT instead of stdout.");
    parser.addOption(out);
    if (!parseOrStop(parser, arguments, command))
        return;
    const std::optional<QString> session = sessionArgument(parser, "compute", command);
    if (!session)
        return;
    command->compute.session = *session;
    if (parser.isSet(out))
        command->compute.output = parser.value(out);
}

// A zero side is refused here: the exporter would read an empty size as
// "pick the default" and silently ignore what was asked for.
std::optional<QSize> parseSize(const QString &text)
{
    static const QRegularExpression pattern(QRegularExpression::anchoredPattern(QStringLiteral("(\\d{1,6})[xX](\\d{1,6})")));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    const QSize size(match.captured(1).toInt(), match.captured(2).toInt());
    return size.isEmpty() ? std::nullopt : std::optional<QSize>(size);
}

// The whole option value must be an integer: "--head 1x" is a typo, not head 1.
std::optional<int> parseInt(const QString &text)
{
    bool ok = false;
    const int value = text.toInt(&ok);
    return ok ? std::optional<int>(value) : std::nullopt;
}

// Options that contradict each other or the format, told apart here where the
// option names are known; the exporter checks the same for the window.
QString checkExportCombination(const ExportArgs &args, bool headGiven)
{
    const QString suffix = QFileInfo(args.output).suffix().toLower();
    const bool known = QStringList{"png", "svg", "pdf", "csv", "json"}.contains(suffix);
    if (args.transparent && known && suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return QStringLiteral("--transparent works for .png and .svg pictures only, not .%1").arg(suffix);
    if (!args.eachHead)
        return {};
    if (headGiven)
        return QStringLiteral("--each-head writes every head; leave out --head");
    if (suffix == QLatin1String("json"))
        return QStringLiteral("--each-head: the .json result already holds every head; leave out --each-head");
    const QString view = args.view.value_or(QString()).toLower();
    if (view == QLatin1String("heads"))
        return QStringLiteral("--each-head: the heads view already shows every head; use --view heatmap, scores, "
                              "pipeline or dashboard");
    if (view == QLatin1String("bars"))
        return QStringLiteral("--each-head: the bar chart shows all heads together; use --view heatmap, scores, "
                              "pipeline or dashboard");
    return {};
}

void parseExport(const QStringList &arguments, CommandLine *command)
{
    QCommandLineParser parser;
    addSessionArguments(parser, "export", "Export a view as a picture, or the numbers as CSV or JSON.");
    const QCommandLineOption out = outputOption("The file to write; its suffix picks the format: "
                                                ".png, .svg, .pdf, .csv or .json.");
    const QCommandLineOption view = valueOption("view", "heatmap (default), scores, pipeline, bars, heads or dashboard.",
                                                "VIEW");
    const QCommandLineOption head = valueOption("head", "0-based head (default 0); \"average\" for the average.", "K");
    const QCommandLineOption query = valueOption("query", "0-based query token (default: the session's).", "I");
    const QCommandLineOption size = valueOption("size", "Picture size in pixels (default per view).", "WxH");
    const QCommandLineOption scale = valueOption("scale", "PNG pixel ratio: 2 gives twice the pixels (default 1).",
                                                 "F");
    const QCommandLineOption colormap = valueOption("colormap", "viridis (default), cividis, magma or grayscale.",
                                                    "NAME");
    const QCommandLineOption dark = flagOption("dark", "Dark background instead of light.");
    const QCommandLineOption transparent = flagOption("transparent", "PNG and SVG: no background fill.");
    const QCommandLineOption eachHead = flagOption(
        "each-head", "One file per head: OUT's name with -head0, -head1, ... before the suffix.");
    parser.addOptions({out, view, head, query, size, scale, colormap, dark, transparent, eachHead});
    if (!parseOrStop(parser, arguments, command))
        return;
    const std::optional<QString> session = sessionArgument(parser, "export", command);
    if (!session)
        return;
    QString &error = command->error;
    if (!parser.isSet(out)) {
        error = QStringLiteral("export needs -o OUT (see --help)");
        return;
    }
    ExportArgs &args = command->exportArgs;
    args.session = *session;
    args.output = parser.value(out);
    args.dark = parser.isSet(dark);
    args.transparent = parser.isSet(transparent);
    args.eachHead = parser.isSet(eachHead);
    if (parser.isSet(view))
        args.view = parser.value(view);
    error = checkExportCombination(args, parser.isSet(head));
    if (!error.isEmpty())
        return;
    if (parser.isSet(colormap))
        args.colorMap = parser.value(colormap);
    if (parser.isSet(head)) {
        const QString text = parser.value(head);
        args.head = text == QLatin1String("average") ? std::optional<int>(-1) : parseInt(text);
        if (!args.head) {
            error = QStringLiteral("--head %1: expected a 0-based head number or \"average\"").arg(text);
            return;
        }
    }
    if (parser.isSet(size)) {
        args.size = parseSize(parser.value(size));
        if (!args.size) {
            error = QStringLiteral("--size %1: expected WxH in pixels, for example 800x600").arg(parser.value(size));
            return;
        }
    }
    if (parser.isSet(scale)) {
        bool ok = false;
        args.scale = parser.value(scale).toDouble(&ok);
        if (!ok) {
            error = QStringLiteral("--scale %1: expected a number, for example 2").arg(parser.value(scale));
            return;
        }
    }
    if (parser.isSet(query)) {
        args.query = parseInt(parser.value(query));
        if (!args.query)
            error = QStringLiteral("--query %1: expected a 0-based token number").arg(parser.value(query));
    }
}

std::optional<BenchPrecision> benchPrecisionFromName(const QString &name)
{
    if (name == QLatin1String("auto"))
        return BenchPrecision::Auto;
    if (name == QLatin1String("single"))
        return BenchPrecision::Single;
    if (name == QLatin1String("double"))
        return BenchPrecision::Double;
    return std::nullopt;
}

void parseBench(const QStringList &arguments, CommandLine *command)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("bench"), QStringLiteral("The command."));
    const QCommandLineOption tokens = valueOption("tokens", "Tokens (default 1024).", "N", QStringLiteral("1024"));
    const QCommandLineOption dModel = valueOption("d-model", "d_model (default 512).", "D", QStringLiteral("512"));
    const QCommandLineOption heads = valueOption("heads", "Heads (default 8).", "H", QStringLiteral("8"));
    const QCommandLineOption headDim = valueOption("head-dim", "head_dim (default d_model/heads).", "K");
    const QCommandLineOption causal = flagOption("causal", "Use the causal mask.");
    const QCommandLineOption repeat = valueOption("repeat", "Repetitions (default 10).", "R", QStringLiteral("10"));
    const QCommandLineOption paint = flagOption("paint", "Time heatmap painting instead.");
    const QCommandLineOption drag = flagOption(
        "drag", "Time a slider change to repainted views instead (default 256 tokens, d_model 256).");
    const QCommandLineOption typing = flagOption(
        "typing", "Time one more character typed into the sentence to repainted views instead (default 2000 "
                  "tokens, the window's starting session: simplified, d_model 3, 1 head).");
    const QCommandLineOption precision = valueOption("precision", "auto (default), single or double.", "NAME",
                                                     QStringLiteral("auto"));
    const QCommandLineOption everyHead = flagOption(
        "every-head", "Keep every head's matrix in full (the window keeps the head it shows, head 0, and "
                      "thumbnails of the others).");
    parser.addOptions({tokens, dModel, heads, headDim, causal, repeat, paint, drag, typing, precision, everyHead});
    if (!parseOrStop(parser, arguments, command))
        return;
    const auto number = [&](const QCommandLineOption &o, int low, int high, int *out) {
        bool ok = false;
        *out = parser.value(o).toInt(&ok);
        if (!ok || *out < low || *out > high) {
            command->error = QStringLiteral("--%1 must be a whole number from %2 to %3")
                                 .arg(o.names().first()).arg(low).arg(high);
            return false;
        }
        return true;
    };
    BenchArgs &args = command->bench;
    if (!number(tokens, 1, attn::kMaxTokens, &args.tokens) || !number(dModel, 1, attn::kMaxDModel, &args.dModel)
        || !number(heads, 1, attn::kMaxHeads, &args.heads) || !number(repeat, 1, 1000, &args.repeat))
        return;
    if (parser.isSet(drag)) {
        // A slider drag is timed at the issue's size unless asked otherwise.
        args.tokens = parser.isSet(tokens) ? args.tokens : 256;
        args.dModel = parser.isSet(dModel) ? args.dModel : 256;
    } else if (parser.isSet(typing)) {
        // Typing is timed at the issue's length in the session the window starts with.
        args.tokens = parser.isSet(tokens) ? args.tokens : 2000;
        args.dModel = parser.isSet(dModel) ? args.dModel : 3;
        args.heads = parser.isSet(heads) ? args.heads : 1;
    }
    args.headDim = args.dModel / args.heads;
    if (parser.isSet(headDim) && !number(headDim, 1, attn::kMaxHeadDim, &args.headDim))
        return;
    if (args.headDim < 1) {
        command->error = QStringLiteral("d_model / heads is below 1; give --head-dim");
        return;
    }
    const std::optional<BenchPrecision> p = benchPrecisionFromName(parser.value(precision));
    if (!p) {
        command->error = QStringLiteral("--precision %1: use auto, single or double").arg(parser.value(precision));
        return;
    }
    args.precision = *p;
    args.causal = parser.isSet(causal);
    args.paint = parser.isSet(paint);
    args.drag = parser.isSet(drag);
    args.typing = parser.isSet(typing);
    args.everyHead = parser.isSet(everyHead);
}

void parseTrain(const QStringList &arguments, CommandLine *command)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("train"), QStringLiteral("The command."));
    const QCommandLineOption task = valueOption("task", "induction, copy, reverse, sort, pronoun or text.", "TASK");
    const QCommandLineOption text = valueOption("text", "The text file of the text task.", "FILE");
    const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")},
                                    QStringLiteral("The model folder to write."), QStringLiteral("DIR"));
    const QCommandLineOption family = valueOption("family", "gpt2 (default) or llama: the block trained.", "NAME",
                                                  QStringLiteral("gpt2"));
    const QCommandLineOption layers = valueOption("layers", "Layers (task default).", "N");
    const QCommandLineOption heads = valueOption("heads", "Heads per layer (task default).", "N");
    const QCommandLineOption kvHeads = valueOption("kv-heads", "Key/value heads, shared by the query heads "
                                                               "(llama; default: one per head).", "N");
    const QCommandLineOption tie(QStringLiteral("tie-embeddings"),
                                 QStringLiteral("Logits from the token embedding, no separate lm_head (llama; "
                                                "GPT-2 always ties)."));
    const QCommandLineOption everyToken(QStringLiteral("every-token"),
                                        QStringLiteral("Count every next token in the loss, as a language model "
                                                       "is trained, not only the task's answers."));
    const QCommandLineOption dModel = valueOption("d-model", "d_model (task default).", "D");
    const QCommandLineOption context = valueOption("context", "Tokens per training sequence (task default).", "N");
    const QCommandLineOption batch = valueOption("batch", "Sequences per step (task default).", "N");
    const QCommandLineOption steps = valueOption("steps", "Training steps (task default).", "N");
    const QCommandLineOption vocab = valueOption("vocab", "Symbols of a synthetic task (task default).", "N");
    const QCommandLineOption lr = valueOption("lr", "Peak learning rate (task default).", "RATE");
    const QCommandLineOption seed = valueOption("seed", "Random seed (default 1).", "N", QStringLiteral("1"));
    const QCommandLineOption report = valueOption("report-every", "Steps per JSON line (default 100).", "N",
                                                  QStringLiteral("100"));
    parser.addOptions({task, text, output, family, layers, heads, kvHeads, tie, everyToken, dModel, context, batch,
                       steps, vocab, lr, seed, report});
    if (!parseOrStop(parser, arguments, command))
        return;
    TrainArgs &args = command->train;
    const auto number = [&](const QCommandLineOption &o, int low, int high, std::optional<int> *out) {
        if (!parser.isSet(o))
            return true;
        bool ok = false;
        const int value = parser.value(o).toInt(&ok);
        if (!ok || value < low || value > high) {
            command->error = QStringLiteral("--%1 must be a whole number from %2 to %3")
                                 .arg(o.names().first()).arg(low).arg(high);
            return false;
        }
        *out = value;
        return true;
    };
    std::optional<int> every;
    if (!number(layers, 1, 12, &args.layers) || !number(heads, 1, 64, &args.heads)
        || !number(kvHeads, 1, 64, &args.kvHeads) || !number(dModel, 1, 1024, &args.dModel) || !number(context, 2, 1024, &args.context)
        || !number(batch, 1, 1024, &args.batch) || !number(steps, 1, 100000000, &args.steps)
        || !number(vocab, 2, 1000, &args.vocab) || !number(report, 1, 100000000, &every))
        return;
    args.reportEvery = every.value_or(args.reportEvery);
    args.task = parser.value(task);
    static const QStringList tasks = {"induction", "copy", "reverse", "sort", "pronoun", "text"};
    if (!tasks.contains(args.task)) {
        command->error = args.task.isEmpty()
                             ? QStringLiteral("train needs --task: induction, copy, reverse, sort, pronoun or text")
                             : QStringLiteral("--task %1: unknown task; use induction, copy, reverse, sort, pronoun "
                                              "or text")
                                   .arg(args.task);
        return;
    }
    args.family = parser.value(family);
    if (args.family != QLatin1String("gpt2") && args.family != QLatin1String("llama")) {
        command->error = QStringLiteral("--family %1: unknown family; use gpt2 or llama").arg(args.family);
        return;
    }
    args.tieEmbeddings = parser.isSet(tie);
    args.everyToken = parser.isSet(everyToken);
    args.text = parser.value(text);
    if ((args.task == QLatin1String("text")) != !args.text.isEmpty()) {
        command->error = args.text.isEmpty() ? QStringLiteral("--task text needs --text FILE")
                                             : QStringLiteral("--text is only for --task text");
        return;
    }
    if (parser.isSet(lr)) {
        bool ok = false;
        const double value = parser.value(lr).toDouble(&ok);
        if (!ok || !(value > 0 && value <= 1)) {
            command->error = QStringLiteral("--lr must be a number above 0 and at most 1");
            return;
        }
        args.learningRate = value;
    }
    bool ok = false;
    args.seed = parser.value(seed).toULongLong(&ok);
    if (!ok) {
        command->error = QStringLiteral("--seed must be a whole number from 0 to 18446744073709551615");
        return;
    }
    args.output = parser.value(output);
    if (args.output.isEmpty())
        command->error = QStringLiteral("train needs -o DIR, the model folder to write");
}

} // namespace

std::optional<QSize> parseSizeOption(const QString &text)
{
    return parseSize(text);
}

CommandLine::Kind commandKind(const QStringList &arguments)
{
    const QString first = arguments.value(1);
    if (first == QLatin1String("tokenize"))
        return Kind::Tokenize;
    if (first == QLatin1String("compute"))
        return hasModelOption(arguments) ? Kind::ModelCompute : Kind::Compute;
    if (first == QLatin1String("export"))
        return hasModelOption(arguments) ? Kind::ModelExport : Kind::Export;
    if (first == QLatin1String("bench"))
        return hasModelOption(arguments) ? Kind::ModelBench : Kind::Bench;
    if (first == QLatin1String("train"))
        return Kind::Train;
    if (first == QLatin1String("--help") || first == QLatin1String("-h"))
        return Kind::Help;
    if (first == QLatin1String("--version") || first == QLatin1String("-v"))
        return Kind::Version;
    return Kind::Window;
}

CommandLine parseCommandLine(const QStringList &arguments)
{
    CommandLine command;
    command.kind = commandKind(arguments);
    switch (command.kind) {
    case Kind::Window:
        parseWindow(arguments, &command);
        break;
    case Kind::Compute:
        parseCompute(arguments, &command);
        break;
    case Kind::Export:
        parseExport(arguments, &command);
        break;
    case Kind::Bench:
        parseBench(arguments, &command);
        break;
    case Kind::Tokenize:
    case Kind::ModelCompute:
    case Kind::ModelExport:
    case Kind::ModelBench:
        parseModelCommand(arguments, &command);
        break;
    case Kind::Train:
        parseTrain(arguments, &command);
        break;
    case Kind::Help:
    case Kind::Version:
        break; // the rest of the line is ignored, as it always was
    }
    // Messages quote what was typed; a newline in an argument must not split them.
    command.error = oneLine(command.error);
    return command;
}

QString oneLine(const QString &text)
{
    QString line;
    line.reserve(text.size());
    for (const QChar c : text) {
        const QChar::Category category = c.category();
        if (category != QChar::Other_Control && category != QChar::Separator_Line
            && category != QChar::Separator_Paragraph) {
            line += c;
        } else if (c == u'\n') {
            line += QLatin1String("\\n");
        } else if (c == u'\r') {
            line += QLatin1String("\\r");
        } else if (c == u'\t') {
            line += QLatin1String("\\t");
        } else {
            line += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        }
    }
    return line;
}
