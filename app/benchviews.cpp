#include "benchviews.h"

#include "benchtiming.h"
#include "document.h"
#include "session/embedding.h"
#include "lessons/examples.h"
#include "heatmappainter.h"
#include "mainwindow.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QImage>
#include <QPainter>
#include <QPalette>
#include <functional>
#include <limits>

namespace {

// Counts paint events anywhere in the window: proof that the views did repaint.
class PaintCounter : public QObject
{
public:
    int paints = 0;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint)
            ++paints;
        return QObject::eventFilter(watched, event);
    }
};

// Runs the event loop until the document has a result newer than
// `resultsBefore` and every repaint that result asked for has been done.
void settle(Document &doc, int resultsBefore, const int &results)
{
    while (doc.isComputing() || results == resultsBefore)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    QCoreApplication::processEvents(); // the views' update() requests: the painting itself
}

attn::Session dragSession(attn::Session s, const BenchArgs &args)
{
    s.tokens.clear();
    for (int i = 0; i < args.tokens; ++i)
        s.tokens << QStringLiteral("w%1").arg(i);
    s.sentence = s.tokens.join(QLatin1Char(' '));
    s.embeddings = randomMatrix(args.tokens, args.dModel, 11);
    s.query = std::min(5, args.tokens - 1);
    s.attention.mode = attn::Mode::ScaledDotProduct;
    s.attention.heads = args.heads;
    s.attention.headDim = args.headDim;
    s.attention.causal = args.causal;
    s.attention.outputProjection = true;
    s.weights = {};
    return s;
}

// The window's starting session (the running example: simplified attention,
// d_model 3, one head) with a sentence of `tokens` words of plain English,
// each word with the vector a typed word gets. Other sizes than the running
// example's make it scaled dot-product attention with those sizes, as the
// options panel would.
attn::Session typingSession(const BenchArgs &args, QString *sentence)
{
    attn::Session s = attn::runningExample();
    if (args.dModel != s.dModel() || args.heads != s.attention.heads || args.headDim != s.attention.headDim) {
        s.attention.mode = attn::Mode::ScaledDotProduct;
        s.attention.scale = true;
        s.attention.heads = args.heads;
        s.attention.headDim = args.headDim;
        s.attention.outputProjection = args.heads > 1;
    }
    s.attention.causal = args.causal;
    const QStringList words = QStringLiteral("The robot moved the box because it was heavy").split(QLatin1Char(' '));
    QStringList tokens;
    for (int i = 0; i < args.tokens; ++i)
        tokens << words[i % words.size()];
    *sentence = tokens.join(QLatin1Char(' '));
    s.sentence = *sentence;
    s.embeddings = attn::carryOverEmbeddings({}, Eigen::MatrixXd(0, args.dModel), tokens);
    s.tokens = tokens;
    s.query = 0;
    s.weights = {};
    return s;
}

} // namespace

QJsonObject paintBench(int repeat)
{
    QJsonObject out;
    for (int tokens : {512, 2048, 4096}) {
        // Simplified mode over 2 dimensions: cheap to compute, the same n x n to paint.
        Document doc;
        doc.setSyncFlopLimit(std::numeric_limits<double>::infinity()); // the result now, not from a worker
        attn::Session s = doc.session();
        s.tokens.clear();
        for (int i = 0; i < tokens; ++i)
            s.tokens << QStringLiteral("t%1").arg(i);
        s.embeddings = randomMatrix(tokens, 2, 7);
        s.query = 0;
        s.attention.mode = attn::Mode::Simplified;
        s.attention.headDim = 2;
        doc.resetSession(s);
        HeatmapPainter painter;
        painter.setSnapshot(doc.snapshot());
        QImage image(1280, 800, QImage::Format_ARGB32_Premultiplied);
        const QPalette palette;
        const Timing first = timeRepeated(1, [&] {
            QPainter p(&image);
            painter.paint(p, QRectF(image.rect()), palette);
        });
        const Timing repaint = timeRepeated(repeat, [&] {
            QPainter p(&image);
            painter.paint(p, QRectF(image.rect()), palette);
        });
        const Timing hover = timeRepeated(repeat, [&] {
            painter.setHoverCell(tokens / 3, tokens / 2);
            QPainter p(&image);
            painter.paint(p, QRectF(image.rect()), palette);
        });
        QJsonObject row;
        row["first_paint_ms"] = first.medianMs;
        row["repaint_median_ms"] = repaint.medianMs;
        row["hover_repaint_median_ms"] = hover.medianMs;
        out[QString::number(tokens)] = row;
    }
    return out;
}

namespace {

// Times args.repeat edits in the real main window (offscreen), each from
// `edit(doc, r)` to every view repainted, on the session `prepare` makes of
// the window's starting one; `what` names the figure ("change", "typed").
QJsonObject timeWindowEdits(const BenchArgs &args, const std::function<attn::Session(const attn::Session &)> &prepare,
                            const std::function<void(Document &, int)> &edit, const QString &what)
{
    Document doc;
    int results = 0;
    QElapsedTimer timer;
    double readyMs = 0; // when the newest result reached the GUI thread
    QObject::connect(&doc, &Document::resultChanged, [&] {
        ++results;
        readyMs = timer.isValid() ? timer.nsecsElapsed() / 1e6 : 0.0;
    });
    MainWindow window(&doc);
    window.resize(1600, 1000);
    window.show();
    doc.resetSession(prepare(doc.session()));
    settle(doc, -1, results);

    PaintCounter counter;
    for (QWidget *w : window.findChildren<QWidget *>())
        w->installEventFilter(&counter);

    std::vector<double> total, compute, ready, views;
    int fewestPaints = std::numeric_limits<int>::max();
    for (int r = 0; r < args.repeat; ++r) {
        const int before = results;
        counter.paints = 0;
        timer.start();
        edit(doc, r);
        settle(doc, before, results);
        total.push_back(timer.nsecsElapsed() / 1e6);
        compute.push_back(doc.lastComputeMilliseconds());
        ready.push_back(readyMs);
        views.push_back(total.back() - readyMs); // the GUI thread's own part: the views take the result and repaint
        fewestPaints = std::min(fewestPaints, counter.paints);
    }
    const Timing t = summarize(total);
    const attn::Session &s = doc.session();
    QJsonObject out = sizesJson(args);
    out["tokens"] = s.tokenCount();
    out["mode"] = s.attention.mode == attn::Mode::Simplified ? "simplified" : "scaled-dot-product";
    out["single_precision"] = doc.snapshot()->result && doc.snapshot()->result->singlePrecision;
    out[what + QStringLiteral("_to_repainted_median_ms")] = t.medianMs;
    out[what + QStringLiteral("_to_repainted_min_ms")] = t.minMs;
    out["compute_median_ms"] = summarize(compute).medianMs;
    out["result_on_gui_thread_median_ms"] = summarize(ready).medianMs;
    out["result_to_repainted_median_ms"] = summarize(views).medianMs;
    out["result_to_repainted_min_ms"] = summarize(views).minMs;
    out["widgets_painted_per_change"] = fewestPaints;
    return out;
}

} // namespace

QJsonObject dragBench(const BenchArgs &args)
{
    int token = 0, dim = 0;
    double start = 0;
    return timeWindowEdits(
        args, [&](const attn::Session &s) { return dragSession(s, args); },
        [&](Document &doc, int r) {
            if (r == 0) {
                token = doc.session().query;
                dim = std::min(3, args.dModel - 1);
                start = doc.session().embeddings(token, dim);
            }
            // One step of a drag: the edit the embedding sliders make, merged into one undo step.
            doc.setEmbeddingValue(token, dim, start + ((r % 2) ? 0.01 : -0.01), /*dragId*/ 1);
        },
        QStringLiteral("change"));
}

QJsonObject typingBench(const BenchArgs &args)
{
    QString sentence;
    return timeWindowEdits(
        args, [&](const attn::Session &) { return typingSession(args, &sentence); },
        [&](Document &doc, int r) {
            // One more character at the end of the last word: the last token changes, the count stays.
            sentence += QChar(u'a' + r % 26);
            doc.setSentence(sentence);
        },
        QStringLiteral("typed"));
}
