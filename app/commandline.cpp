#include "commandline.h"

#include "commandoutput.h"

#include "benchcommand.h"
#include "cliparse.h"
#include "modelcommands.h"
#include "traincommand.h"

#include "exporter.h"
#include "exportseries.h"
#include "formats/resultio.h"
#include "session/sessionio.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QTextStream>
#include <cstdio>

namespace {

int runCompute(const ComputeArgs &args)
{
    QString error;
    const std::optional<attn::Session> session = attn::readSession(args.session, &error);
    if (!session)
        return printError(error, ExitBadInput);
    attn::AttentionResult result;
    try {
        result = attn::computeSession(*session, attn::Precision::Double); // result files keep every digit
    } catch (const attn::InputError &e) {
        return printError(QFileInfo(args.session).fileName() + QStringLiteral(": ") + QString::fromStdString(e.what()),
                          ExitBadInput);
    }
    const QByteArray json = attn::resultToJson(*session, result);
    if (!args.output)
        return writeStdout(json) ? ExitOk : printError(QStringLiteral("cannot write to stdout"), ExitFailure);
    if (!attn::writeFileAtomically(*args.output, json, &error))
        return printError(error, ExitFailure);
    return ExitOk;
}

// --head -1 (or "average") is the average; any other number is a head, which
// the exporter range-checks (so -2 is reported, not averaged).
std::optional<int> exportHeadOf(int commandLineHead)
{
    return commandLineHead == -1 ? std::nullopt : std::optional<int>(commandLineHead);
}

// The numbers were checked by parseCommandLine; the names of views and colour
// maps are known here, to the exporter.
int runExport(const ExportArgs &args)
{
    ExportOptions options;
    if (args.view) {
        const std::optional<ExportView> v = exportViewFromName(*args.view);
        if (!v)
            return printError(QStringLiteral("--view %1: unknown view; use heatmap, scores, pipeline, bars, heads "
                                             "or dashboard").arg(*args.view), ExitBadInput);
        options.view = *v;
    }
    if (args.head)
        options.head = exportHeadOf(*args.head);
    options.size = args.size.value_or(options.size);
    options.scale = args.scale.value_or(options.scale);
    if (args.colorMap) {
        const std::optional<ColorMap> map = colorMapFromName(*args.colorMap);
        if (!map)
            return printError(QStringLiteral("--colormap %1: unknown colour map; use viridis, cividis, magma or "
                                             "grayscale").arg(*args.colorMap), ExitBadInput);
        options.colorMap = *map;
    }
    if (args.dark)
        options.palette = darkExportPalette();
    options.transparent = args.transparent;

    QString error;
    const std::optional<attn::Session> session = attn::readSession(args.session, &error);
    if (!session)
        return printError(error, ExitBadInput);
    options.query = args.query.value_or(session->query);
    // Number files are written in double: compute them so at once, not twice.
    const std::optional<ExportFormat> format = exportFormatForPath(args.output);
    const bool numbers = format && !isPictureFormat(*format);
    // Only the head exported is kept in full (every head with --each-head),
    // and the scores' thumbnails only when the picture shows scores.
    const bool scores = options.showScores || options.view == ExportView::Scores;
    const SnapshotPtr snapshot =
        snapshotForSession(*session, numbers ? attn::Precision::Double : attn::Precision::Auto,
                           args.eachHead ? attn::HeadsKept::all() : attn::HeadsKept::only(options.head, scores));
    if (!snapshot->result)
        return printError(args.session + QStringLiteral(": ") + snapshot->error, ExitBadInput);
    // The user's mistakes (suffix, head, query, size) exit with 2; only writing exits with 1.
    error = args.eachHead ? checkEachHead(snapshot, options, args.output) : checkExport(snapshot, options, args.output);
    if (!error.isEmpty())
        return printError(error, ExitBadInput);
    if (args.eachHead) {
        QStringList written;
        return exportEachHead(*session, snapshot, options, args.output, &written, &error) ? ExitOk
                                                                                           : printError(error, ExitFailure);
    }
    return exportFile(*session, snapshot, options, args.output, &error) ? ExitOk : printError(error, ExitFailure);
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
        "                          [--transparent] [--each-head]\n"
        "  attention-explorer bench [--tokens N] [--d-model D] [--heads H] [--head-dim K]\n"
        "                          [--causal] [--repeat R] [--paint | --drag | --typing]\n"
        "                          [--precision NAME] [--every-head]\n"
        "  attention-explorer compute --model DIR --text TEXT [-o OUT] [--top K] [--ablate L:H]...\n"
        "                          [--rollout]\n"
        "  attention-explorer tokenize --model DIR --text TEXT\n"
        "  attention-explorer export --model DIR --text TEXT -o OUT [--layer L] [--head H]\n"
        "                          [--query I] [--view VIEW] [--size WxH] [--scale F]\n"
        "                          [--colormap NAME] [--dark] [--transparent]\n"
        "  attention-explorer bench --model DIR [--tokens N] [--repeat R] [--window]\n"
        "  attention-explorer train --task TASK -o DIR [--family gpt2|llama] [--layers N]\n"
        "                          [--heads N] [--kv-heads N] [--tie-embeddings] [--d-model D]\n"
        "                          [--context N] [--batch N] [--steps N] [--vocab N] [--lr RATE]\n"
        "                          [--seed N] [--report-every N] [--every-token] [--text FILE]\n"
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
        "              --transparent    PNG and SVG: no background fill (for slides)\n"
        "              --each-head      one file per head, OUT's name with -head0, -head1, ...\n"
        "                               before the suffix (-head00 ... with 11 or more heads);\n"
        "                               all files are written or none\n"
        "  bench     Time the full forward pass on deterministic random data (defaults: 1024\n"
        "            tokens, d_model 512, 8 heads) and the machine's fastest single-precision\n"
        "            matrix product (OpenBLAS sgemm); print one JSON line. --paint times the\n"
        "            heatmap painted at 1280x800 with 512, 2048 and 4096 tokens instead; --drag\n"
        "            one slider step in the main window until every view has repainted (256\n"
        "            tokens, d_model 256 unless given); --typing one more character typed\n"
        "            into the sentence until every view has repainted (2000 tokens, the\n"
        "            window's starting session unless given). --precision auto|single|double\n"
        "            picks the forward pass's arithmetic (auto: single above 5e7 operations);\n"
        "            --every-head keeps every head's weights, not only the shown one's.\n"
        "\n"
        "Trained models (GPT-2, BERT, Llama, Mistral, Qwen, Gemma, Phi-3; DIR is a Hugging\n"
        "Face model folder, a cache entry models--ORG--NAME or a snapshot in one, a GGUF\n"
        "file FILE.gguf, or ollama:NAME[:TAG] for a model of Ollama's store):\n"
        "  tokenize  Print {\"token_ids\": [...], \"tokens\": [...]} for TEXT.\n"
        "  compute --model  Run TEXT through every layer and write a result of version 2:\n"
        "            every head's weights (and raw scores up to 8 layers), the top K next\n"
        "            tokens (GPT-2; default 10), [MASK] predictions (BERT with its MLM head).\n"
        "            --ablate L:H switches head H of layer L off (repeatable; from 0);\n"
        "            --rollout adds the attention rollout. A TEXT longer than the model's\n"
        "            positions is refused.\n"
        "  export --model  Draw layer L (default 0), head H (default 0; \"average\" or -1\n"
        "            for the average) of TEXT with the options of export, or write .csv (that\n"
        "            head's weights) or .json (the result compute --model writes). --view heads\n"
        "            draws every layer's heads, layer L's head H outlined.\n"
        "  bench --model  Time one forward pass over N tokens (default 1024 or the model's\n"
        "            limit) keeping every head's weights; R runs (default 5) after one\n"
        "            untimed; print one JSON line. --window: in the main window\n"
        "            (offscreen), the time to the first picture, then typing one more\n"
        "            word at the end of an N-token text (default 64) until every view\n"
        "            has repainted, and the GUI thread's longest busy stretch.\n"
        "\n"
        "Training:\n"
        "  train     Train a small GPT-2 from scratch on TASK (induction, copy, reverse,\n"
        "            sort, pronoun, or text with --text FILE), print one JSON line per\n"
        "            report and save DIR as a model folder the commands above open.\n"
        "            --family llama trains the Llama block instead (RMSNorm, rotary\n"
        "            positions, SwiGLU, --kv-heads shared key/value heads, no biases,\n"
        "            a separate lm_head unless --tie-embeddings) and saves a llama folder.\n"
        "            Unset sizes take the task's defaults; the same seed gives the same\n"
        "            weights. Ctrl+C stops and saves what was learned.\n"
        "\n"
        "Exit status: 0 success; 2 bad input or bad usage (one line on stderr);\n"
        "1 any other failure, such as a file that cannot be written.\n");
}

bool needsGuiApplication(const QStringList &arguments)
{
    const CommandLine::Kind kind = commandKind(arguments);
    return kind == CommandLine::Kind::Export || kind == CommandLine::Kind::ModelExport
        || kind == CommandLine::Kind::Bench
        || (kind == CommandLine::Kind::ModelBench && arguments.contains(QLatin1String("--window")));
}

bool isHeadlessCommand(const QStringList &arguments)
{
    return commandKind(arguments) != CommandLine::Kind::Window;
}

int runHeadlessCommand(const QStringList &arguments)
{
    const CommandLine command = parseCommandLine(arguments);
    if (!command.error.isEmpty())
        return printError(command.error, ExitBadInput);
    if (!command.helpText.isEmpty()) {
        QTextStream(stdout) << command.helpText;
        return ExitOk;
    }
    switch (command.kind) {
    case CommandLine::Kind::Help:
        QTextStream(stdout) << usageText();
        return ExitOk;
    case CommandLine::Kind::Version:
        QTextStream(stdout) << QCoreApplication::applicationName() << ' ' << QCoreApplication::applicationVersion()
                            << Qt::endl;
        return ExitOk;
    case CommandLine::Kind::Compute:
        return runCompute(command.compute);
    case CommandLine::Kind::Export:
        return runExport(command.exportArgs);
    case CommandLine::Kind::Bench:
        return runBench(command.bench);
    case CommandLine::Kind::Tokenize:
        return runTokenize(command.tokenize);
    case CommandLine::Kind::ModelCompute:
        return runModelCompute(command.modelCompute);
    case CommandLine::Kind::ModelExport:
        return runModelExport(command.modelExport);
    case CommandLine::Kind::ModelBench:
        return runModelBench(command.modelBench);
    case CommandLine::Kind::Train:
        return runTrain(command.train);
    case CommandLine::Kind::Window:
        break;
    }
    return printError(QStringLiteral("unknown command \"%1\" (see --help)").arg(arguments.value(1)), ExitBadInput);
}
