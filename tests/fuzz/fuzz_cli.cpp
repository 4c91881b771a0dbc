// libFuzzer target: command-line parsing. The input is the argument list,
// NUL-separated UTF-8, after the program's name. Any list must give either a
// one-line error, a help text, or a command whose numbers are in the ranges
// the parser promises. Never a crash or a hang.

#include "attention/attention.h"
#include "cliparse.h"

#include <QStringList>
#include <cstdint>
#include <cstdlib>

namespace {

bool within(int value, int low, int high) { return value >= low && value <= high; }

// What oneLine() escapes must never be left in a message.
bool isOneLine(const QString &text) { return oneLine(text) == text; }

bool benchIsValid(const BenchArgs &b)
{
    return within(b.tokens, 1, attn::kMaxTokens) && within(b.dModel, 1, attn::kMaxDModel)
        && within(b.heads, 1, attn::kMaxHeads) && within(b.headDim, 1, attn::kMaxHeadDim)
        && within(b.repeat, 1, 1000)
        && (b.precision == BenchPrecision::Auto || b.precision == BenchPrecision::Single
            || b.precision == BenchPrecision::Double);
}

// Head, query and scale may be any number: the exporter checks them against the session.
bool exportIsValid(const ExportArgs &e, const QStringList &arguments)
{
    return arguments.contains(e.session)
        && (!e.size || (within(e.size->width(), 1, 999999) && within(e.size->height(), 1, 999999)));
}

bool commandIsValid(const CommandLine &c, const QStringList &arguments)
{
    using Kind = CommandLine::Kind;
    if (!c.helpText.isEmpty())
        return c.kind != Kind::Window && c.kind != Kind::Help && c.kind != Kind::Version
            && c.helpText.startsWith(QLatin1String("Usage: "));
    switch (c.kind) {
    case Kind::Window:
        return c.window.session.isEmpty() || arguments.contains(c.window.session);
    case Kind::Compute:
        return arguments.contains(c.compute.session);
    case Kind::Export:
        return exportIsValid(c.exportArgs, arguments);
    case Kind::Bench:
        return benchIsValid(c.bench);
    case Kind::Tokenize:
        return !c.tokenize.model.isEmpty() && arguments.join(QChar(0)).contains(c.tokenize.model);
    case Kind::ModelCompute:
        return !c.modelCompute.model.isEmpty() && within(c.modelCompute.top, 1, kMaxTopPredictions);
    case Kind::ModelExport:
        return !c.modelExport.model.isEmpty() && !c.modelExport.output.isEmpty() && c.modelExport.head >= -1;
    case Kind::ModelBench:
        return !c.modelBench.model.isEmpty() && within(c.modelBench.repeat, 1, 1000)
            && (!c.modelBench.tokens || *c.modelBench.tokens >= 1);
    case Kind::Train:
        return !c.train.task.isEmpty() && !c.train.output.isEmpty();
    case Kind::Help:
    case Kind::Version:
        return true;
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    QStringList arguments{QStringLiteral("attention-explorer")};
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    if (!bytes.isEmpty()) {
        for (const QByteArray &argument : bytes.split('\0'))
            arguments << QString::fromUtf8(argument);
    }
    const CommandLine command = parseCommandLine(arguments);
    if (command.kind != commandKind(arguments))
        std::abort();
    if (!command.error.isEmpty()) {
        if (!isOneLine(command.error) || !command.helpText.isEmpty())
            std::abort();
        return 0;
    }
    if (!commandIsValid(command, arguments))
        std::abort();
    return 0;
}
