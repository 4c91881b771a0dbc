#include "modelcommands.h"

#include "commandoutput.h"

#include "benchcommand.h"
#include "benchtiming.h"
#include "benchviews.h"
#include "runtime/blasruntime.h"
#include "commandline.h"
#include "io/modelfolder.h"
#include "formats/jsonformat.h"
#include "model/forward.h"
#include "model/families/family.h"
#include "model/headscores.h"
#include "model/incremental.h"
#include "model/memoryestimate.h"
#include "model/modelloader.h"
#include "model/modelresult.h"
#include "model/openmodel.h"
#include "session/sessionio.h"
#include "tokenizers/tokenizerloader.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <algorithm>
#include <functional>
#include <cstdio>

namespace {

// Where the position limit comes from: config.json's field, or the GGUF file's key.
QString positionsField(const attn::ModelConfig &config, const attn::ModelFiles &files)
{
    const attn::FamilyDescription *family = attn::findFamily(config.modelType);
    if (files.isGguf())
        return QStringLiteral("%1.context_length in %2")
            .arg(family && family->ggufArchitecture ? QLatin1String(family->ggufArchitecture) : config.modelType,
                 QFileInfo(files.gguf).fileName());
    return (family ? QLatin1String(family->positionsKey) : QStringLiteral("max_position_embeddings"))
           + QStringLiteral(" in config.json");
}

// A model's tokens for a text, refused as the contract says: empty, or more
// than the model's positions (refused, not cut: a cut text would silently
// answer a different question).
struct Tokens
{
    std::vector<int> ids;
    std::vector<QString> texts;
};

std::optional<Tokens> tokenize(const attn::ModelTokenizer &tokenizer, const attn::ModelConfig &config,
                               const attn::ModelFiles &files, const QString &text, QString *error)
{
    Tokens out;
    const std::vector<attn::ModelToken> tokens = tokenizer.encode(text);
    for (const attn::ModelToken &t : tokens) {
        out.ids.push_back(t.id);
        out.texts.push_back(t.text);
    }
    const QString unknown = attn::unknownTokenProblem(tokens, config.vocab);
    if (!unknown.isEmpty()) {
        *error = QStringLiteral("--text: %1").arg(unknown);
        return std::nullopt;
    }
    // Tokens of the text itself: not BERT's [CLS]/[SEP] or a BOS the
    // tokenizer adds, which stand for none of its bytes.
    const auto content = std::count_if(tokens.begin(), tokens.end(), [](const attn::ModelToken &t) { return !t.bytes.isEmpty(); });
    if (content <= 0) {
        *error = QStringLiteral("--text gives no tokens, only white space");
        return std::nullopt;
    }
    if (int(out.ids.size()) > config.positions) {
        *error = QStringLiteral("--text is %1 tokens long; the model takes at most %2 (%3)")
                     .arg(out.ids.size()).arg(config.positions).arg(positionsField(config, files));
        return std::nullopt;
    }
    return out;
}

// A run that cannot fit in memory is refused before the weights are loaded,
// with the figure and what the machine has. A config or a weights header
// that cannot be read is left to the loader, whose messages name the
// problem; so is a tokenizer that does not load. `tokens` gives the run's
// length for a config (0: leave it to the later checks); `writesResult`:
// the run's attention becomes a JSON result (compute, export).
QString memoryProblem(const attn::ModelFiles &files, const std::function<int(const attn::ModelConfig &)> &tokens,
                      bool writesResult)
{
    QString ignored;
    const std::optional<attn::ModelConfig> config = attn::readModelConfig(files, &ignored);
    const std::optional<attn::WeightsOnDisk> weights =
        config ? attn::weightsOnDisk(files, *config, &ignored) : std::nullopt;
    if (!weights)
        return {};
    const int n = tokens(*config);
    if (n <= 0)
        return {};
    const bool keepScores = writesResult && config->layers <= attn::kMaxLayersWithScores;
    const double perHead = double(n) * n;
    const double numbers =
        writesResult ? config->layers * config->heads * perHead * (keepScores ? 2 : 1) + perHead : 0.0;
    const attn::MemoryEstimate e = attn::estimateRunMemory(*config, *weights, n, keepScores, numbers);
    const attn::MemoryLimit limit = attn::availableMemory();
    if (e.total() <= limit.bytes)
        return {};
    return QStringLiteral("%1: %2 tokens need about %3 (weights %4 mapped and %5 as floats, activations %6, "
                          "attention %7, result %8), more than the %9 of %10")
        .arg(files.isGguf() ? files.gguf : files.folder).arg(n)
        .arg(attn::formatBytes(e.total()), attn::formatBytes(e.mappedWeights), attn::formatBytes(e.weightCopies),
             attn::formatBytes(e.activations), attn::formatBytes(e.attention), attn::formatBytes(e.result),
             attn::formatBytes(limit.bytes), limit.what);
}

// The same for a text: first with the most tokens it can give (a byte-level
// BPE token is at least one byte; BERT adds two), which needs no tokenizer;
// only when that does not fit, with the text's real tokens.
QString memoryProblem(const attn::ModelFiles &files, const QString &text)
{
    const qint64 bytes = qint64(text.toUtf8().size()) + 2;
    const auto most = [bytes](const attn::ModelConfig &c) { return int(std::min<qint64>(c.positions, bytes)); };
    if (memoryProblem(files, most, true).isEmpty())
        return {};
    return memoryProblem(files, [&](const attn::ModelConfig &c) {
        QString ignored;
        const attn::TokenizerPtr tokenizer = attn::loadModelTokenizer(files, c, &ignored);
        return tokenizer ? std::min(c.positions, int(tokenizer->encode(text).size())) : 0;
    }, true);
}

} // namespace

int runTokenize(const TokenizeArgs &args)
{
    QString error;
    const std::optional<attn::ModelFiles> files = attn::resolveModel(args.model, &error);
    if (!files)
        return printError(error, ExitBadInput);
    const std::optional<attn::ModelConfig> config = attn::readModelConfig(*files, &error);
    if (!config)
        return printError(error, ExitBadInput);
    const attn::TokenizerPtr tokenizer = attn::loadModelTokenizer(*files, *config, &error);
    if (!tokenizer)
        return printError(error, ExitBadInput);
    QJsonArray ids, texts;
    for (const attn::ModelToken &t : tokenizer->encode(args.text)) {
        ids.append(t.id);
        texts.append(t.text);
    }
    const QJsonObject out{{QStringLiteral("token_ids"), ids}, {QStringLiteral("tokens"), texts}};
    return writeStdout(QJsonDocument(out).toJson(QJsonDocument::Compact) + '\n')
        ? ExitOk
        : printError(QStringLiteral("cannot write to stdout"), ExitFailure);
}

std::optional<ModelRun> loadAndRun(const QString &dir, const QString &text, const ModelOptionsCheck &check,
                                   int *exitCode)
{
    QString error;
    const auto fail = [&](const QString &message, int code) {
        *exitCode = printError(message, code);
        return std::nullopt;
    };
    const std::optional<attn::ModelFiles> files = attn::resolveModel(dir, &error);
    if (!files)
        return fail(error, ExitBadInput);
    error = memoryProblem(*files, text);
    if (!error.isEmpty())
        return fail(error, ExitBadInput);
    ModelRun run;
    run.model = attn::loadModel(*files, &error);
    if (!run.model)
        return fail(error, ExitBadInput);
    const attn::ModelConfig &config = run.model->config;
    attn::ForwardOptions options;
    error = check ? check(config, &options) : QString();
    if (!error.isEmpty())
        return fail(error, ExitBadInput);
    run.tokenizer = attn::loadModelTokenizer(*files, config, &error);
    if (!run.tokenizer)
        return fail(error, ExitBadInput);
    const std::optional<Tokens> tokens = tokenize(*run.tokenizer, config, *files, text, &error);
    if (!tokens)
        return fail(error, ExitBadInput);
    run.ids = tokens->ids;
    run.texts = tokens->texts;
    options.keepScores = config.layers <= attn::kMaxLayersWithScores;
    options.maskTokenId = run.tokenizer->specialIds().mask;
    run.ablatedHeads = options.ablatedHeads;
    try {
        run.trace = std::make_shared<const attn::ModelTrace>(attn::forward(*run.model, run.ids, options));
    } catch (const attn::ModelInputError &e) {
        // A tokenizer whose vocabulary is larger than the model's gives ids it cannot embed.
        return fail(QStringLiteral("--text: ") + QString::fromStdString(e.what()), ExitBadInput);
    }
    return run;
}

QByteArray modelResultBytes(const ModelRun &run, int top, bool rollout)
{
    attn::ModelResultOptions resultOptions;
    resultOptions.top = top;
    resultOptions.rollout = rollout;
    resultOptions.ablatedHeads = run.ablatedHeads;
    resultOptions.format = run.model->format();
    return attn::formatJson(
        attn::modelResultJson(run.model->config, run.ids, run.texts, *run.trace, *run.tokenizer, resultOptions));
}

int runModelCompute(const ModelComputeArgs &args)
{
    const auto check = [&args](const attn::ModelConfig &config, attn::ForwardOptions *options) {
        for (const auto &[layer, head] : args.ablate) {
            const QString which = QStringLiteral("--ablate %1:%2: ").arg(layer).arg(head);
            if (layer >= config.layers)
                return which + QStringLiteral("the model has %1 layers (0 to %2)").arg(config.layers)
                                   .arg(config.layers - 1);
            if (head >= config.heads)
                return which + QStringLiteral("the model has %1 heads per layer (0 to %2)").arg(config.heads)
                                   .arg(config.heads - 1);
            options->ablatedHeads.insert({layer, head});
        }
        return QString();
    };
    int code = ExitOk;
    const std::optional<ModelRun> run = loadAndRun(args.model, args.text, check, &code);
    if (!run)
        return code;
    const QByteArray json = modelResultBytes(*run, args.top, args.rollout);
    QString error;
    if (!args.output)
        return writeStdout(json) ? ExitOk : printError(QStringLiteral("cannot write to stdout"), ExitFailure);
    return attn::writeFileAtomically(*args.output, json, &error) ? ExitOk : printError(error, ExitFailure);
}

namespace {

// Multiply-adds of one forward pass, counted as 2 FLOPs each: the dense
// layers, the full n × n scores and context of every head (a causal model
// computes only half of them, but every implementation compared is counted
// the same way), and the unembedding of the last position.
double forwardFlops(const attn::ModelConfig &c, int n)
{
    const double d = c.dModel, q = double(c.heads) * c.headDim(), kv = double(c.kvHeads()) * c.headDim();
    const double dense = d * q + 2 * d * kv + q * d + (c.mlp == attn::MlpKind::Gated ? 3.0 : 2.0) * d * c.dFF;
    const double perLayer = 2.0 * n * dense + 2.0 * 2.0 * double(n) * n * q;
    return c.layers * perLayer + 2.0 * d * c.vocab;
}

} // namespace

int runModelBench(const ModelBenchArgs &args)
{
    QString error;
    if (args.window) {
        const QJsonObject out = modelWindowBench(args, &error);
        if (out.isEmpty())
            return printError(error, ExitBadInput);
        QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Compact) << Qt::endl;
        return ExitOk;
    }
    QElapsedTimer opening;
    opening.start();
    const std::optional<attn::ModelFiles> files = attn::resolveModel(args.model, &error);
    if (!files)
        return printError(error, ExitBadInput);
    // The tokens bench would run (a --tokens above the limit is refused below, by the loaded config).
    error = memoryProblem(*files, [&args](const attn::ModelConfig &c) {
        const int n = args.tokens.value_or(std::min(1024, c.positions));
        return n <= c.positions ? n : 0;
    }, false);
    if (!error.isEmpty())
        return printError(error, ExitBadInput);
    const attn::SharedModelParameters model = attn::loadModel(*files, &error);
    if (!model)
        return printError(error, ExitBadInput);
    const double openMs = opening.nsecsElapsed() / 1e6;
    const double openPeakMiB = peakResidentMiB();
    const attn::ModelConfig &config = model->config;
    if (args.tokens && *args.tokens > config.positions)
        return printError(QStringLiteral("--tokens %1: the model takes at most %2 (%3)")
                              .arg(*args.tokens).arg(config.positions).arg(positionsField(config, *files)), ExitBadInput);
    const int n = args.tokens.value_or(std::min(1024, config.positions));
    // Any valid ids will do; this sequence is easy to repeat elsewhere
    // (scripts/bench_torch.py uses the same).
    std::vector<int> ids(static_cast<std::size_t>(n), 0);
    for (int i = 0; i < n; ++i)
        ids[std::size_t(i)] = int((qint64(i) * 7919 + 1) % config.vocab);
    attn::ForwardOptions options;
    options.keepScores = false; // what the views need: every head's weights, and the prediction
    // When the first layer is done, what the window waits for before it shows anything.
    QElapsedTimer pass;
    double firstLayerMs = 0;
    options.layerDone = [&](int layer, attn::ModelTrace &) {
        if (layer == 0)
            firstLayerMs = pass.nsecsElapsed() / 1e6;
    };
    // Once apart: the first pass also pays for the page faults that bring the weights in.
    double probabilitySum = 0;
    pass.start();
    {
        const attn::ModelTrace trace = attn::forward(*model, ids, options);
        probabilitySum = trace.nextToken ? double(trace.nextToken->probabilities.sum()) : 1.0;
    }
    const double firstForwardMs = pass.nsecsElapsed() / 1e6;
    const double firstPassFirstLayerMs = firstLayerMs;
    const double firstPeakMiB = peakResidentMiB();
    std::vector<double> firstLayers;
    Timing t{firstForwardMs, firstForwardMs}; // --repeat 0: the first pass is all there is
    if (args.repeat > 0)
        t = timeRepeated(args.repeat, [&] {
            pass.start();
            const attn::ModelTrace trace = attn::forward(*model, ids, options);
            firstLayers.push_back(firstLayerMs);
            probabilitySum = trace.nextToken ? double(trace.nextToken->probabilities.sum()) : 1.0;
        });
    options.layerDone = nullptr;
    const double flops = forwardFlops(config, n);
    QJsonObject out;
    out["model"] = config.familyName();
    out["tokens"] = n;
    out["layers"] = config.layers;
    out["heads"] = config.heads;
    out["d_model"] = config.dModel;
    out["vocab"] = config.vocab;
    out["repeat"] = args.repeat;
    out["median_ms"] = t.medianMs;
    out["min_ms"] = t.minMs;
    out["flops_per_pass"] = flops;
    out["gflops"] = flops / (t.minMs * 1e6);
    out["next_token_probability_sum"] = probabilitySum;
    out["sgemm_gflops"] = sgemmGflops();
    out["ratio"] = out["gflops"].toDouble() / out["sgemm_gflops"].toDouble();
    // Opening: reading the folder (the weights mapped, not read), then the
    // first pass; the peaks include the mapped pages touched so far.
    out["open_ms"] = openMs;
    out["open_peak_rss_mib"] = openPeakMiB;
    out["first_forward_ms"] = firstForwardMs;
    out["first_result_ms"] = openMs + firstForwardMs;
    out["first_result_peak_rss_mib"] = firstPeakMiB;
    // The first layer of a pass done, from the pass's start: of the first pass, and the median of the others.
    out["first_pass_first_layer_ms"] = firstPassFirstLayerMs;
    out["first_layer_median_ms"] = firstLayers.empty() ? firstPassFirstLayerMs : summarize(firstLayers).medianMs;
    out["peak_rss_mib"] = peakResidentMiB();
    out["blas_core"] = QString::fromStdString(attn::blasCoreName());
    if (args.repeat == 0) {
        // Nothing more: the extras below would each run the model again.
        QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Compact) << Qt::endl;
        return ExitOk;
    }
    if (config.causal) {
        // Typing one more token at the end of a 64-token text (or the model's
        // limit): the trace of the first 63 extended, against the full pass.
        const int typed = std::min(64, config.positions);
        std::vector<int> whole(static_cast<std::size_t>(typed));
        for (int i = 0; i < typed; ++i)
            whole[std::size_t(i)] = int((qint64(i) * 7919 + 1) % config.vocab);
        const attn::ModelTrace before = attn::forward(*model, std::vector<int>(whole.begin(), whole.end() - 1), options);
        out["extend_tokens"] = typed;
        out["extend_ms"] = timeRepeated(args.repeat, [&] { attn::extendTrace(*model, before, whole, options); }).medianMs;
        out["full_64_ms"] = timeRepeated(args.repeat, [&] { attn::forward(*model, whole, options); }).medianMs;
        // Switching one head of the middle layer off in that text: only the layers from it on are computed.
        attn::ForwardOptions switched = options;
        switched.ablatedHeads = {{config.layers / 2, 0}};
        const attn::ModelTrace all = attn::forward(*model, whole, options);
        out["switch_off_layer"] = config.layers / 2;
        out["switch_off_ms"] = timeRepeated(args.repeat, [&] { attn::extendTrace(*model, all, whole, switched); }).medianMs;
        if (n >= 2) {
            // The last of the N tokens typed: the trace of the first N - 1
            // extended, the pass of a word typed at the end of a long text
            // without the views the window makes after it.
            const attn::ModelTrace shorter = attn::forward(*model, std::vector<int>(ids.begin(), ids.end() - 1), options);
            const Timing typedPass = timeRepeated(args.repeat, [&] { attn::extendTrace(*model, shorter, ids, options); });
            out["typed_tokens"] = n;
            out["typed_min_ms"] = typedPass.minMs;
            out["typed_median_ms"] = typedPass.medianMs;
        }
    }
    {
        // Every head's pattern scores on 256 tokens (or the model's limit), what the grid's Score shows.
        const int scored = std::min(256, config.positions);
        std::vector<int> text(static_cast<std::size_t>(scored));
        for (int i = 0; i < scored; ++i)
            text[std::size_t(i)] = int((qint64(i % 97) * 7919 + 1) % config.vocab); // repeats, so every score has queries
        const attn::ModelTrace trace = attn::forward(*model, text, options);
        out["scores_tokens"] = scored;
        out["scores_ms"] = timeRepeated(args.repeat, [&] { attn::traceHeadScores(trace, text); }).medianMs;
    }
    QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Compact) << Qt::endl;
    return ExitOk;
}
