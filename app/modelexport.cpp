// export --model (contract section 6): one layer of a model's trace becomes
// the snapshot the window shows for it (ui/modeldocument.cpp builds the same),
// drawn by the session export's painters; .json is the compute --model result.

#include "modelcommands.h"

#include "commandoutput.h"

#include "commandline.h"
#include "exporter.h"
#include "headref.h"
#include "model/layerview.h"
#include "lessons/notation.h"
#include "session/sessionio.h"

#include <QFileInfo>
#include <QTextStream>

namespace {

SnapshotPtr layerSnapshot(const ModelRun &run, int layer)
{
    return modelLayerSnapshot(QStringList(run.texts.begin(), run.texts.end()), std::make_shared<const attn::AttentionResult>(
                                             attn::layerAttention(*run.model, run.trace, layer)), layer);
}

// The dashboard's two title lines, as dashboardTitle() writes them for a session.
QString modelTitle(const ModelExportArgs &args, const ModelRun &run)
{
    const attn::ModelConfig &config = run.model->config;
    const HeadRef ref = HeadRef::fromFileIndex(args.layer, args.head);
    const QString head = ref.isAverage() ? QStringLiteral("average of %1 heads").arg(config.heads)
                                         : QStringLiteral("head %1 of %2").arg(*ref.head).arg(config.heads);
    return QStringLiteral("“%1”\n%2 · layer %3 of %4 · %5 · query “%6”")
        .arg(args.text, config.familyName())
        .arg(args.layer)
        .arg(config.layers)
        .arg(head, run.texts.at(std::size_t(args.query)));
}

} // namespace

int runModelExport(const ModelExportArgs &args)
{
    ExportOptions options;
    if (args.view) {
        const std::optional<ExportView> v = exportViewFromName(*args.view);
        if (!v)
            return printError(QStringLiteral("--view %1: unknown view; use heatmap, scores, pipeline, bars, heads "
                                             "or dashboard").arg(*args.view), ExitBadInput);
        options.view = *v;
    }
    if (args.colorMap) {
        const std::optional<ColorMap> map = colorMapFromName(*args.colorMap);
        if (!map)
            return printError(QStringLiteral("--colormap %1: unknown colour map; use viridis, cividis, magma or "
                                             "grayscale").arg(*args.colorMap), ExitBadInput);
        options.colorMap = *map;
    }
    const std::optional<ExportFormat> format = exportFormatForPath(args.output);
    if (!format)
        return printError(QFileInfo(args.output).fileName()
                              + QStringLiteral(": unknown file type; use .png, .svg, .pdf, .csv or .json"),
                          ExitBadInput);
    options.head = HeadRef::fromFileIndex(args.layer, args.head).head; // parsing allows -1 and up
    options.query = args.query;
    options.size = args.size.value_or(options.size);
    options.scale = args.scale.value_or(options.scale);
    options.transparent = args.transparent;
    if (args.dark)
        options.palette = darkExportPalette();

    // Layers and heads are the model's to count: checked before the text is run.
    const auto check = [&args](const attn::ModelConfig &config, attn::ForwardOptions *) {
        if (args.layer >= config.layers)
            return QStringLiteral("--layer %1: the model has %2 layers (0 to %3)").arg(args.layer).arg(config.layers)
                .arg(config.layers - 1);
        if (args.head >= config.heads)
            return QStringLiteral("--head %1: the model has %2 heads per layer (0 to %3)").arg(args.head)
                .arg(config.heads).arg(config.heads - 1);
        return QString();
    };
    int code = ExitOk;
    const std::optional<ModelRun> run = loadAndRun(args.model, args.text, check, &code);
    if (!run)
        return code;
    const int tokens = int(run->ids.size());
    if (args.query >= tokens)
        return printError(QStringLiteral("--query %1: the text has %2 tokens (0 to %3)").arg(args.query).arg(tokens)
                              .arg(tokens - 1), ExitBadInput);
    QString error;
    if (*format == ExportFormat::Json) {
        // Byte for byte what compute --model writes with its defaults.
        const QByteArray json = modelResultBytes(*run, 10, false);
        return attn::writeFileAtomically(args.output, json, &error) ? ExitOk : printError(error, ExitFailure);
    }
    const SnapshotPtr snapshot = layerSnapshot(*run, args.layer);
    options.title = modelTitle(args, *run);
    options.modelTrace = run->trace;
    options.modelCausal = snapshot->result->causal;
    options.modelLayer = args.layer;
    options.modelMarks = modelGridMarks(run->model->config); // key/value groups, windowed layers
    // The user's mistakes (size, scale) exit with 2; only writing exits with 1.
    error = checkExport(snapshot, options, args.output);
    if (!error.isEmpty())
        return printError(error, ExitBadInput);
    return exportSnapshot(snapshot, options, args.output, &error) ? ExitOk : printError(error, ExitFailure);
}
