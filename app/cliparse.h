#pragma once
// The whole command line parsed into plain data, with no window, painting or
// file reading, so that tests and the fuzzer can check every argument list.

#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>
#include <utility>
#include <vector>

// `attention-explorer [SESSION]`, checked before QApplication exists.
struct WindowArgs
{
    QString session; // empty: the built-in example
};

struct ComputeArgs
{
    QString session;
    std::optional<QString> output; // unset: stdout
};

// What export was asked for. View and colour map stay names: their lists live
// in ui/ (exporter.h), which this library must not depend on.
struct ExportArgs
{
    QString session;
    QString output;
    std::optional<QString> view;
    std::optional<QString> colorMap;
    std::optional<int> head;  // -1: the average; any other number, range-checked by the exporter
    std::optional<int> query; // unset: the session's query
    std::optional<QSize> size; // each side 1 to 999999; the exporter checks the real range
    std::optional<double> scale;
    bool dark = false;
    bool transparent = false; // PNG and SVG: no background fill
    bool eachHead = false;    // one file per head: OUT's name with -head0, -head1, ... before the suffix
};

enum class BenchPrecision { Auto, Single, Double };

struct BenchArgs
{
    int tokens = 1024;  // 1 to attn::kMaxTokens
    int dModel = 512;   // 1 to attn::kMaxDModel
    int heads = 8;      // 1 to attn::kMaxHeads
    int headDim = 64;   // 1 to attn::kMaxHeadDim; d_model / heads unless given
    bool causal = false;
    int repeat = 10;    // 1 to 1000
    bool paint = false; // time heatmap painting instead of the forward pass
    bool drag = false;  // --drag: time a slider change to repainted views instead
    bool typing = false; // --typing: time one more character of the sentence to repainted views instead
    BenchPrecision precision = BenchPrecision::Auto; // --precision auto|single|double
    bool everyHead = false; // --every-head: keep every head's matrix, not the window's one shown head
};

// Trained models (contract section 6). The folder and the text are checked
// when the model is loaded: the limits (layers, heads, positions) are its own.
struct TokenizeArgs
{
    QString model; // a model folder, a Hugging Face cache entry or a snapshot
    QString text;
};

struct ModelComputeArgs
{
    QString model;
    QString text;
    std::optional<QString> output; // unset: stdout
    int top = 10;                  // next-token predictions, 1 to kMaxTopPredictions
    std::vector<std::pair<int, int>> ablate; // --ablate L:H, in the order given (layer, head)
    bool rollout = false;
};

// `export --model DIR --text TEXT -o OUT`: one layer and head drawn as the
// window draws it, or the numbers. View and colour map stay names, as for ExportArgs.
struct ModelExportArgs
{
    QString model;
    QString text;
    QString output;
    int layer = 0;             // 0-based; the model says how many it has
    int head = 0;              // 0-based; -1 the layer's average
    int query = 0;             // 0-based query token, as the window starts
    std::optional<QString> view;
    std::optional<QString> colorMap;
    std::optional<QSize> size;
    std::optional<double> scale;
    bool dark = false;
    bool transparent = false;
};

struct ModelBenchArgs
{
    QString model;
    std::optional<int> tokens; // unset: 1024 or the model's positions, whichever is fewer
    int repeat = 5;            // 1 to 1000; 0: the first pass alone (not with --window)
    bool window = false;       // --window: time typing in the real main window instead
};

constexpr int kMaxTopPredictions = 1000;

// `train --task TASK -o DIR [...]`: unset numbers take the task's defaults
// (traincommand.cpp); the trainer checks how they fit together.
struct TrainArgs
{
    QString task;   // induction, copy, reverse, sort, pronoun or text
    QString text;   // --text FILE, the text task's file
    QString output; // -o DIR
    QString family = QStringLiteral("gpt2"); // --family: gpt2 or llama (checked by the parser)
    bool tieEmbeddings = false;              // --tie-embeddings (llama; GPT-2 always ties)
    bool everyToken = false;                 // --every-token: the loss counts every next token
    std::optional<int> layers, heads, kvHeads, dModel, context, batch, steps, vocab;
    std::optional<double> learningRate;
    quint64 seed = 1;
    int reportEvery = 100;
};


struct CommandLine
{
    enum class Kind { Window, Help, Version, Compute, Export, Bench, Tokenize, ModelCompute, ModelExport, ModelBench,
                      Train };
    Kind kind = Kind::Window;
    QString error;    // one line without the program name; set: exit with 2
    QString helpText; // set when a command's --help was asked: print it, exit with 0
    WindowArgs window;
    ComputeArgs compute;
    ExportArgs exportArgs;
    BenchArgs bench;
    TokenizeArgs tokenize;
    ModelComputeArgs modelCompute;
    ModelExportArgs modelExport;
    ModelBenchArgs modelBench;
    TrainArgs train;
};

// The command that arguments[1] names; Window for anything else, a session
// file or a typo alike (the window's check tells them apart). compute, export
// and bench with a --model option are the model commands.
CommandLine::Kind commandKind(const QStringList &arguments);

// Parses and checks all of `arguments` (argv[0] first) with the messages the
// program prints. The window's SESSION must exist; nothing else is read.
CommandLine parseCommandLine(const QStringList &arguments);

// `text` made safe to print as one line: control characters and line or
// paragraph separators become escapes such as \n or \u2028.
QString oneLine(const QString &text);

// modelcliparse.cpp: tokenize, compute --model, export --model and bench --model.
void parseModelCommand(const QStringList &arguments, CommandLine *command);
bool hasModelOption(const QStringList &arguments);
// --size's WxH, each side 1 to 999999; unset for anything else.
std::optional<QSize> parseSizeOption(const QString &text);
