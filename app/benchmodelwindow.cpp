#include "benchviews.h"

#include "benchcommand.h"
#include "benchtiming.h"
#include "runtime/blasruntime.h"
#include "model/memoryestimate.h"
#include "model/openmodel.h"
#include "document.h"
#include "mainwindow.h"
#include "modeldocument.h"
#include "timedapplication.h"

#include <QCoreApplication>
#include <QFile>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>
#include <QStringList>
#include <QWindow>
#include <algorithm>
#include <unistd.h>

namespace {

// Runs the event loop until the model has a result newer than `before` and
// nothing is opening or computing, then lets the views paint it. False
// (with the message) when the model could not be opened or computed.
bool settle(ModelDocument &model, int before, const int &results, const QString &failure)
{
    while (failure.isEmpty() && (model.isOpening() || model.isComputing() || results == before))
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    QCoreApplication::processEvents();
    return failure.isEmpty() && model.snapshot()->error.isEmpty();
}

// The process's resident set now, in MiB (Linux's statm counts pages).
double residentMiB()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields[1].toDouble() * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0) : -1;
}

// What the text is made of, each piece one token: words of plain English
// when the model reads them (GPT-2's tokenizer keeps these whole), else the
// first tokens of the model's own vocabulary (a model trained here reads a
// few symbols only).
QStringList textPieces(const attn::ModelTokenizer &tokenizer, int vocab)
{
    const QStringList words = QStringLiteral("The robot moved the box because it was heavy").split(QLatin1Char(' '));
    bool readable = true;
    for (const attn::ModelToken &t : tokenizer.encode(words.join(QLatin1Char(' '))))
        readable = readable && t.id < vocab;
    QStringList pieces;
    if (readable) {
        for (const QString &w : words)
            pieces << QLatin1Char(' ') + w;
    } else {
        for (int id = 0; id < std::min(vocab, 26); ++id)
            pieces << tokenizer.idToText(id);
    }
    return pieces;
}

// The pieces in turn until the text has `tokens` tokens, and the piece that would come next.
std::pair<QString, QString> textOfTokens(const attn::ModelTokenizer &tokenizer, int vocab, int tokens)
{
    const QStringList pieces = textPieces(tokenizer, vocab);
    QString text = pieces.front().trimmed();
    int i = 1;
    for (; i < 4 * tokens && int(tokenizer.encode(text).size()) < tokens; ++i)
        text += pieces[i % pieces.size()];
    return {text, pieces[i % pieces.size()]};
}

} // namespace

QJsonObject modelWindowBench(const ModelBenchArgs &args, QString *error)
{
    Document doc;
    MainWindow window(&doc);
    window.resize(1600, 1000);
    window.show();
    ModelDocument &model = *doc.model();
    int results = 0;
    QString failure;
    QObject::connect(&model, &ModelDocument::resultChanged, [&] { ++results; });
    QObject::connect(&model, &ModelDocument::openFailed, [&](const QString &m) { failure = m; });

    // Opening: from File › Open Model to the first result painted, the text
    // typed as soon as the model is there (its tokenizer decides the text).
    QString base, typed;
    QFutureWatcher<std::pair<QString, QString>> textWatcher;
    QObject::connect(&model, &ModelDocument::opened, [&] {
        const int positions = model.config()->positions;
        if (args.tokens && (*args.tokens < 2 || *args.tokens > positions)) {
            // As bench --model refuses it: a text of another length would time another question.
            failure = QStringLiteral("--tokens %1: --window types into a text of 2 to %2 tokens (the model's positions)")
                          .arg(*args.tokens).arg(positions);
            return;
        }
        const int tokens = std::min(args.tokens.value_or(64), positions);
        // Made on a worker: tokenizing the text over and over to reach its
        // length is the benchmark's work, not the window's, and would count as
        // the GUI thread's longest event.
        textWatcher.setFuture(QtConcurrent::run(
            [tokenizer = model.tokenizer(), vocab = model.config()->vocab, tokens] {
                return textOfTokens(*tokenizer, vocab, tokens - 1);
            }));
    });
    QObject::connect(&textWatcher, &QFutureWatcherBase::finished, [&] {
        const auto [text, next] = textWatcher.result();
        base = text;
        typed = base + next;
        model.setText(base);
    });
    // The window's own first paint (fonts, every view's first layout) is the
    // program starting, not the model opening: it is over before the clock
    // starts, and reported apart.
    TimedApplication::resetLongest();
    while (!window.windowHandle() || !window.windowHandle()->isExposed())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    QCoreApplication::processEvents();
    const LongestGuiEvent firstPaint = TimedApplication::longest();
    QElapsedTimer timer;
    timer.start();
    // The first layer of the text on screen (a long run shows its layers as they come).
    double firstLayerMs = -1;
    QObject::connect(&model, &ModelDocument::resultChanged, [&] {
        if (firstLayerMs < 0 && !base.isEmpty() && model.computedLayers() > 0 && !model.tokens().empty())
            firstLayerMs = timer.nsecsElapsed() / 1e6;
    });
    TimedApplication::resetLongest();
    const double residentBeforeOpen = residentMiB();
    model.open(args.model);
    while (failure.isEmpty() && (base.isEmpty() || model.isOpening() || model.isComputing() || model.tokens().empty()))
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    QCoreApplication::processEvents();
    if (!failure.isEmpty() || !model.snapshot()->error.isEmpty()) {
        *error = failure.isEmpty() ? model.snapshot()->error : failure;
        return {};
    }
    const double openMs = timer.nsecsElapsed() / 1e6;
    const LongestGuiEvent opening = TimedApplication::longest();
    if (!model.config()->causal) {
        *error = QStringLiteral("bench --window types into a causal model; this one is %1").arg(model.config()->familyName());
        return {};
    }

    std::vector<double> total, compute, longestWall, longestCpu;
    int reused = 0;
    QString longestEvent; // the receiver and type of the longest event of all
    for (int r = 0; r < args.repeat; ++r) {
        // Back to the shorter text (not timed), then one more word, as typed
        // (after the sentence field's own pause, which is not counted).
        int before = results;
        doc.setSentence(base);
        if (!settle(model, before, results, failure))
            break;
        before = results;
        TimedApplication::resetLongest();
        timer.start();
        doc.setSentence(typed);
        if (!settle(model, before, results, failure))
            break;
        total.push_back(timer.nsecsElapsed() / 1e6);
        const LongestGuiEvent l = TimedApplication::longest();
        longestWall.push_back(l.wallMs);
        if (longestCpu.empty() || l.cpuMs > *std::max_element(longestCpu.begin(), longestCpu.end()))
            longestEvent = l.what;
        longestCpu.push_back(l.cpuMs);
        compute.push_back(model.snapshot()->milliseconds);
        reused = model.reusedPositions();
    }
    // Switching a head of the middle layer off and on again (as the grid's menu does), until every view has repainted.
    std::vector<double> switching;
    const int layer = model.config()->layers / 2;
    for (int r = 0; r < args.repeat && !total.empty(); ++r) {
        for (const std::set<attn::LayerHead> &heads : {std::set<attn::LayerHead>{{layer, 0}}, std::set<attn::LayerHead>{}}) {
            const int before = results;
            timer.start();
            doc.setAblatedHeads(heads, QStringLiteral("bench"));
            if (!settle(model, before, results, failure))
                break;
            switching.push_back(timer.nsecsElapsed() / 1e6);
        }
    }
    if (total.empty()) {
        *error = failure.isEmpty() ? model.snapshot()->error : failure;
        return {};
    }
    QJsonObject out;
    out["model"] = model.config()->familyName();
    out["layers"] = model.config()->layers;
    out["heads"] = model.config()->heads;
    out["d_model"] = model.config()->dModel;
    out["open_to_whole_grid_ms"] = openMs;
    out["open_to_first_layer_ms"] = firstLayerMs;
    out["open_longest_gui_event_ms"] = opening.wallMs;
    out["open_longest_gui_event_cpu_ms"] = opening.cpuMs;
    out["tokens"] = int(model.tokens().size());
    out["reused_positions"] = reused;
    out["repeat"] = int(total.size());
    out["typed_to_repainted_median_ms"] = summarize(total).medianMs;
    out["typed_to_repainted_min_ms"] = summarize(total).minMs;
    out["compute_median_ms"] = summarize(compute).medianMs;
    out["longest_gui_event_median_ms"] = summarize(longestWall).medianMs;
    out["longest_gui_event_max_ms"] = *std::max_element(longestWall.begin(), longestWall.end());
    out["longest_gui_event_cpu_median_ms"] = summarize(longestCpu).medianMs;
    out["longest_gui_event_cpu_max_ms"] = *std::max_element(longestCpu.begin(), longestCpu.end());
    out["longest_gui_event"] = longestEvent;
    out["open_longest_gui_event"] = opening.what;
    out["window_first_paint_cpu_ms"] = firstPaint.cpuMs;
    if (!switching.empty()) {
        out["switch_off_layer"] = layer;
        out["switch_to_repainted_median_ms"] = summarize(switching).medianMs;
        out["switch_to_repainted_min_ms"] = summarize(switching).minMs;
    }
    // What the peak is made of: the program before the model, the weights
    // file (mapped whole), and one trace of the text (the views keep the
    // shown one while the next is computed, so two at the peak).
    out["peak_rss_mib"] = peakResidentMiB();
    out["resident_before_open_mib"] = residentBeforeOpen;
    QString ignored;
    if (const std::optional<attn::ModelFiles> files = attn::resolveModel(args.model, &ignored))
        if (const std::optional<attn::WeightsOnDisk> weights = attn::weightsOnDisk(*files, *model.config(), &ignored))
            out["weights_file_mib"] = double(weights->fileBytes) / (1024.0 * 1024.0);
    const attn::ModelTrace *trace = model.trace().get();
    out["trace_mib"] = attn::traceBytes(*model.config(), int(model.tokens().size()),
                                        trace && trace->options.keepScores) / (1024.0 * 1024.0);
    out["blas_core"] = QString::fromStdString(attn::blasCoreName());
    return out;
}
