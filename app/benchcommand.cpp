#include "benchcommand.h"

#include "attention/attention.h"
#include "benchtiming.h"
#include "runtime/blasruntime.h"
#include "benchviews.h"
#include "commandline.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <cblas.h>
#include <sys/resource.h>

namespace {

attn::Precision precisionFor(BenchPrecision p)
{
    switch (p) {
    case BenchPrecision::Single:
        return attn::Precision::Single;
    case BenchPrecision::Double:
        return attn::Precision::Double;
    case BenchPrecision::Auto:
        break;
    }
    return attn::Precision::Auto;
}

QJsonObject forwardBench(const BenchArgs &args)
{
    attn::AttentionConfig config;
    config.heads = args.heads;
    config.headDim = args.headDim;
    config.causal = args.causal;
    config.outputProjection = true;
    config.seed = 1;
    const Eigen::MatrixXd x = randomMatrix(args.tokens, args.dModel, 42);
    attn::completeWeights(config, args.dModel, {}); // drawn once and kept, as during a slider drag
    // As the window computes: head 0 shown in full, the other heads as thumbnails.
    const attn::HeadsKept kept = args.everyHead ? attn::HeadsKept::all() : attn::HeadsKept::only(0);
    bool single = false;
    const Timing t = timeRepeated(args.repeat, [&] {
        single = attn::computeAttention(x, config, {}, nullptr, precisionFor(args.precision), nullptr, kept)
                     .singlePrecision;
    });
    const double flops = attn::forwardFlops(args.tokens, args.tokens, args.dModel, config);
    QJsonObject out = sizesJson(args);
    out["precision"] = single ? "single" : "double";
    out["heads_in_full"] = args.everyHead ? args.heads : 1;
    out["median_ms"] = t.medianMs;
    out["min_ms"] = t.minMs;
    out["flops_per_pass"] = flops;
    out["attention_gflops"] = flops / (t.minMs * 1e6);
    out["sgemm_gflops"] = sgemmGflops();
    out["ratio"] = out["attention_gflops"].toDouble() / out["sgemm_gflops"].toDouble();
    return out;
}
} // namespace

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

// The process's largest resident set so far, in MiB (Linux reports KiB).
double peakResidentMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

int runBench(const BenchArgs &args)
{
    QJsonObject out;
    if (args.paint)
        out["paint_heatmap_1280x800"] = paintBench(args.repeat);
    else if (args.drag)
        out = dragBench(args);
    else if (args.typing)
        out = typingBench(args);
    else
        out = forwardBench(args);
    out["peak_rss_mib"] = peakResidentMiB();
    out["blas_core"] = QString::fromStdString(attn::blasCoreName());
    QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Compact) << Qt::endl;
    return ExitOk;
}
