#include "benchcommand.h"

#include "commandline.h"
#include "document.h"
#include "heatmappainter.h"
#include "prng.h"
#include "snapshot.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QPalette>
#include <QTextStream>
#include <algorithm>
#include <limits>
#include <cblas.h>
#include <vector>

namespace {

struct Timing
{
    double medianMs = 0;
    double minMs = 0;
};

template<typename F>
Timing timeRepeated(int repeat, F &&work)
{
    std::vector<double> ms;
    for (int r = 0; r < repeat; ++r) {
        QElapsedTimer t;
        t.start();
        work();
        ms.push_back(t.nsecsElapsed() / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.front()};
}

Eigen::MatrixXd randomMatrix(int rows, int cols, std::uint64_t seed)
{
    attn::SplitMix64 rng(seed);
    Eigen::MatrixXd m(rows, cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            m(r, c) = rng.nextSymmetric(1.0);
    return m;
}

// The best of a few large sgemm calls: OpenBLAS picks its kernel for this
// processor at run time and uses every core, so this is the ceiling the
// attention throughput is measured against.
double sgemmGflops()
{
    const int n = 2048;
    std::vector<float> a(std::size_t(n) * n, 0.5f), b(std::size_t(n) * n, 0.25f), c(std::size_t(n) * n);
    const Timing t = timeRepeated(5, [&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f,
                    c.data(), n);
    });
    return 2.0 * n * double(n) * n / (t.minMs * 1e6);
}

// Floating-point operations of the matrix products of one forward pass
// (the softmax's exponentials are not counted).
double forwardFlops(double n, double d, double heads, double headDim, bool projection)
{
    const double width = heads * headDim;
    double flops = 3 * 2 * n * d * width; // Q, K, V projections
    flops += 2 * 2 * n * n * width;       // scores and context
    if (projection)
        flops += 2 * n * width * d;       // output projection
    return flops;
}

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

} // namespace

int runBench(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("bench"), QStringLiteral("The command."));
    const QCommandLineOption tokens(QStringLiteral("tokens"), QStringLiteral("Tokens (default 1024)."), "N", "1024");
    const QCommandLineOption dModel(QStringLiteral("d-model"), QStringLiteral("d_model (default 512)."), "D", "512");
    const QCommandLineOption heads(QStringLiteral("heads"), QStringLiteral("Heads (default 8)."), "H", "8");
    const QCommandLineOption headDim(QStringLiteral("head-dim"), QStringLiteral("head_dim (default d_model/heads)."),
                                     "K");
    const QCommandLineOption causal(QStringLiteral("causal"), QStringLiteral("Use the causal mask."));
    const QCommandLineOption repeat(QStringLiteral("repeat"), QStringLiteral("Repetitions (default 10)."), "R", "10");
    const QCommandLineOption paint(QStringLiteral("paint"), QStringLiteral("Time heatmap painting instead."));
    parser.addOptions({tokens, dModel, heads, headDim, causal, repeat, paint});
    parser.addHelpOption();
    if (!parser.parse(arguments)) {
        QTextStream(stderr) << "attention-explorer: " << parser.errorText() << Qt::endl;
        return ExitBadInput;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return ExitOk;
    }
    auto number = [&](const QCommandLineOption &o, int low, int high, int *out) {
        bool ok = false;
        *out = parser.value(o).toInt(&ok);
        if (!ok || *out < low || *out > high) {
            QTextStream(stderr) << "attention-explorer: --" << o.names().first() << " must be a whole number from "
                                << low << " to " << high << Qt::endl;
            return false;
        }
        return true;
    };
    int n = 0, d = 0, h = 0, r = 0;
    if (!number(tokens, 1, attn::kMaxTokens, &n) || !number(dModel, 1, attn::kMaxDModel, &d)
        || !number(heads, 1, attn::kMaxHeads, &h) || !number(repeat, 1, 1000, &r))
        return ExitBadInput;
    int k = d / h;
    if (parser.isSet(headDim) && !number(headDim, 1, attn::kMaxHeadDim, &k))
        return ExitBadInput;
    if (k < 1) {
        QTextStream(stderr) << "attention-explorer: d_model / heads is below 1; give --head-dim" << Qt::endl;
        return ExitBadInput;
    }

    QJsonObject out;
    if (parser.isSet(paint)) {
        out["paint_heatmap_1280x800"] = paintBench(r);
    } else {
        attn::AttentionConfig config;
        config.heads = h;
        config.headDim = k;
        config.causal = parser.isSet(causal);
        config.outputProjection = true;
        config.seed = 1;
        const Eigen::MatrixXd x = randomMatrix(n, d, 42);
        const attn::ProjectionWeights weights = attn::completeWeights(config, d, {});
        const Timing t = timeRepeated(r, [&] { (void)attn::computeAttention(x, config, weights); });
        const double flops = forwardFlops(n, d, h, k, true);
        out["tokens"] = n;
        out["d_model"] = d;
        out["heads"] = h;
        out["head_dim"] = k;
        out["causal"] = config.causal;
        out["repeat"] = r;
        out["median_ms"] = t.medianMs;
        out["min_ms"] = t.minMs;
        out["flops_per_pass"] = flops;
        out["attention_gflops"] = flops / (t.minMs * 1e6);
        out["sgemm_gflops"] = sgemmGflops();
        out["ratio"] = out["attention_gflops"].toDouble() / out["sgemm_gflops"].toDouble();
    }
    QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Compact) << Qt::endl;
    return ExitOk;
}
