// parseCommandLine on its own: which command, which values, and the exact
// one-line messages the program prints (tst_cli and tst_exportcli run them).

#include "cliparse.h"

#include <QTest>

namespace {

QString data(const char *file) { return QStringLiteral(ATTN_TEST_DATA "/") + QLatin1String(file); }

CommandLine parse(const QStringList &arguments)
{
    return parseCommandLine(QStringList{QStringLiteral("attention-explorer")} + arguments);
}

template<typename T>
QString optional(const std::optional<T> &value)
{
    if (!value)
        return QStringLiteral("-");
    if constexpr (std::is_same_v<T, QSize>)
        return QStringLiteral("%1x%2").arg(value->width()).arg(value->height());
    else if constexpr (std::is_same_v<T, QString>)
        return *value;
    else
        return QString::number(*value);
}

// One line per command so that a failing row shows every field at once.
QString describe(const CommandLine &c)
{
    switch (c.kind) {
    case CommandLine::Kind::Window:
        return QStringLiteral("window %1").arg(c.window.session);
    case CommandLine::Kind::Help:
        return QStringLiteral("help");
    case CommandLine::Kind::Version:
        return QStringLiteral("version");
    case CommandLine::Kind::Compute:
        return QStringLiteral("compute %1 -o %2").arg(c.compute.session, optional(c.compute.output));
    case CommandLine::Kind::Export: {
        const ExportArgs &e = c.exportArgs;
        return QStringLiteral("export %1 -o %2 view %3 colormap %4 head %5 query %6 size %7 scale %8 dark %9")
            .arg(e.session, e.output, optional(e.view), optional(e.colorMap), optional(e.head), optional(e.query),
                 optional(e.size), optional(e.scale), QString::number(e.dark))
            + QStringLiteral(" transparent %1 each-head %2").arg(e.transparent).arg(e.eachHead);
    }
    case CommandLine::Kind::Bench: {
        const BenchArgs &b = c.bench;
        const char *precision[] = {"auto", "single", "double"};
        return QStringLiteral("bench %1 %2 %3 %4 causal %5 repeat %6 paint %7 drag %8 %9")
                   .arg(b.tokens).arg(b.dModel).arg(b.heads).arg(b.headDim).arg(b.causal).arg(b.repeat).arg(b.paint)
                   .arg(b.drag).arg(QLatin1String(precision[int(b.precision)]))
            + QStringLiteral(" typing %1").arg(b.typing);
    }
    case CommandLine::Kind::Tokenize:
        return QStringLiteral("tokenize %1 text [%2]").arg(c.tokenize.model, c.tokenize.text);
    case CommandLine::Kind::ModelCompute: {
        const ModelComputeArgs &m = c.modelCompute;
        QStringList ablate;
        for (const auto &[layer, head] : m.ablate)
            ablate << QStringLiteral("%1:%2").arg(layer).arg(head);
        return QStringLiteral("compute --model %1 text [%2] -o %3 top %4 ablate [%5] rollout %6")
            .arg(m.model, m.text, optional(m.output)).arg(m.top).arg(ablate.join(' ')).arg(m.rollout);
    }
    case CommandLine::Kind::ModelExport: {
        const ModelExportArgs &m = c.modelExport;
        return QStringLiteral("export --model %1 text [%2] -o %3 layer %4 head %5 query %6 view %7 colormap %8 size %9")
                   .arg(m.model, m.text, m.output).arg(m.layer).arg(m.head).arg(m.query)
                   .arg(optional(m.view), optional(m.colorMap), optional(m.size))
               + QStringLiteral(" scale %1 dark %2 transparent %3").arg(optional(m.scale)).arg(m.dark).arg(m.transparent);
    }
    case CommandLine::Kind::ModelBench:
        return QStringLiteral("bench --model %1 tokens %2 repeat %3")
            .arg(c.modelBench.model, optional(c.modelBench.tokens)).arg(c.modelBench.repeat);
    case CommandLine::Kind::Train: {
        const TrainArgs &t = c.train;
        return QStringLiteral("train %1 text %2 -o %3 layers %4 heads %5 d %6 context %7 batch %8 steps %9")
                   .arg(t.task, t.text, t.output, optional(t.layers), optional(t.heads), optional(t.dModel),
                        optional(t.context), optional(t.batch), optional(t.steps))
               + QStringLiteral(" vocab %1 lr %2 seed %3 report %4")
                     .arg(optional(t.vocab), optional(t.learningRate)).arg(t.seed).arg(t.reportEvery)
               + QStringLiteral(" family %1 kv %2 tie %3 every %4")
                     .arg(t.family, optional(t.kvHeads))
                     .arg(t.tieEmbeddings)
                     .arg(t.everyToken);
    }
    }
    return {};
}

} // namespace

class TestCliParse : public QObject
{
    Q_OBJECT
private slots:
    void commands_data();
    void commands();
    void errors_data();
    void errors();
    void subcommandHelp_data();
    void subcommandHelp();
    void oneLineEscapes_data();
    void oneLineEscapes();
};

void TestCliParse::commands_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected"); // describe() of the result

    const QString example = data("example.attn.json");
    QTest::newRow("window, the example") << QStringList{} << "window ";
    QTest::newRow("window, a session") << QStringList{example} << "window " + example;
    QTest::newRow("window, Qt's options pass")
        << QStringList{"-platform", "offscreen", "--style=fusion", "-reverse", example} << "window " + example;
    QTest::newRow("--help") << QStringList{"--help"} << "help";
    QTest::newRow("-h ignores the rest") << QStringList{"-h", "--bogus"} << "help";
    QTest::newRow("--version") << QStringList{"--version"} << "version";
    QTest::newRow("-v") << QStringList{"-v"} << "version";

    QTest::newRow("compute to stdout") << QStringList{"compute", "s.json"} << "compute s.json -o -";
    QTest::newRow("compute -o") << QStringList{"compute", "s.json", "-o", "r.json"} << "compute s.json -o r.json";
    QTest::newRow("compute --output=") << QStringList{"compute", "--output=r.json", "s.json"}
                                       << "compute s.json -o r.json";

    QTest::newRow("export, defaults") << QStringList{"export", "s.json", "-o", "out.png"}
                                      << "export s.json -o out.png view - colormap - head - query - size - scale - dark 0 transparent 0 each-head 0";
    QTest::newRow("export, every option")
        << QStringList{"export", "s.json", "--output", "out.svg", "--view", "bars", "--head", "3", "--query", "2",
                       "--size", "640X480", "--scale", "1.5", "--colormap", "magma", "--dark"}
        << "export s.json -o out.svg view bars colormap magma head 3 query 2 size 640x480 scale 1.5 dark 1 transparent 0 each-head 0";
    QTest::newRow("export, head average") << QStringList{"export", "s.json", "-o", "o.csv", "--head", "average"}
                                          << "export s.json -o o.csv view - colormap - head -1 query - size - scale - dark 0 transparent 0 each-head 0";
    // Names and ranges are the exporter's to check, with the session at hand.
    QTest::newRow("export, names and ranges pass")
        << QStringList{"export", "s.json", "-o", "o.png", "--view", "nope", "--colormap", "jet", "--head", "-7",
                       "--query", "99", "--size", "4x4", "--scale", "0"}
        << "export s.json -o o.png view nope colormap jet head -7 query 99 size 4x4 scale 0 dark 0 transparent 0 each-head 0";

    QTest::newRow("export, transparent PNG") << QStringList{"export", "s.json", "-o", "o.png", "--transparent"}
        << "export s.json -o o.png view - colormap - head - query - size - scale - dark 0 transparent 1 each-head 0";
    QTest::newRow("export, transparent SVG, upper case")
        << QStringList{"export", "s.json", "-o", "O.SVG", "--transparent", "--dark"}
        << "export s.json -o O.SVG view - colormap - head - query - size - scale - dark 1 transparent 1 each-head 0";
    QTest::newRow("export, each head")
        << QStringList{"export", "s.json", "-o", "o.png", "--each-head", "--view", "scores", "--transparent"}
        << "export s.json -o o.png view scores colormap - head - query - size - scale - dark 0 transparent 1 each-head 1";
    QTest::newRow("export, each head as CSV") << QStringList{"export", "s.json", "-o", "o.csv", "--each-head"}
        << "export s.json -o o.csv view - colormap - head - query - size - scale - dark 0 transparent 0 each-head 1";
    // An unknown suffix is the exporter's to refuse, with its list of formats.
    QTest::newRow("export, transparent, unknown suffix") << QStringList{"export", "s.json", "-o", "o.gif", "--transparent"}
        << "export s.json -o o.gif view - colormap - head - query - size - scale - dark 0 transparent 1 each-head 0";

    QTest::newRow("bench, defaults") << QStringList{"bench"} << "bench 1024 512 8 64 causal 0 repeat 10 paint 0 drag 0 auto typing 0";
    QTest::newRow("bench, every option")
        << QStringList{"bench", "--tokens", "256", "--d-model", "256", "--heads", "4", "--head-dim", "16", "--causal",
                       "--repeat", "3", "--paint", "--drag", "--precision", "double"}
        << "bench 256 256 4 16 causal 1 repeat 3 paint 1 drag 1 double typing 0";
    QTest::newRow("bench --drag, its own default size") << QStringList{"bench", "--drag"}
                                                        << "bench 256 256 8 32 causal 0 repeat 10 paint 0 drag 1 auto typing 0";
    QTest::newRow("bench --drag, a given size") << QStringList{"bench", "--drag", "--tokens", "4096"}
                                                << "bench 4096 256 8 32 causal 0 repeat 10 paint 0 drag 1 auto typing 0";
    QTest::newRow("bench --typing, its own default size: the window's starting session")
        << QStringList{"bench", "--typing"} << "bench 2000 3 1 3 causal 0 repeat 10 paint 0 drag 0 auto typing 1";
    QTest::newRow("bench --typing, a given size")
        << QStringList{"bench", "--typing", "--d-model", "64", "--heads", "12", "--head-dim", "5"}
        << "bench 2000 64 12 5 causal 0 repeat 10 paint 0 drag 0 auto typing 1";
    QTest::newRow("bench, head_dim rounds down") << QStringList{"bench", "--d-model", "100", "--heads", "3"}
                                                 << "bench 1024 100 3 33 causal 0 repeat 10 paint 0 drag 0 auto typing 0";
    QTest::newRow("bench, --head-dim rescues a small d_model")
        << QStringList{"bench", "--d-model", "4", "--heads", "8", "--head-dim", "2", "--precision=single"}
        << "bench 1024 4 8 2 causal 0 repeat 10 paint 0 drag 0 single typing 0";
    QTest::newRow("bench, the limits") << QStringList{"bench", "--tokens", "4096", "--d-model", "1024", "--heads",
                                                      "64", "--repeat", "1000"}
                                       << "bench 4096 1024 64 16 causal 0 repeat 1000 paint 0 drag 0 auto typing 0";

    // Trained models (contract section 6).
    QTest::newRow("tokenize") << QStringList{"tokenize", "--model", "m", "--text", "Hello world"}
                              << "tokenize m text [Hello world]";
    QTest::newRow("tokenize, = forms, a text with a dash")
        << QStringList{"tokenize", "--text=-5 degrees", "--model=/x/models--gpt2"}
        << "tokenize /x/models--gpt2 text [-5 degrees]";
    QTest::newRow("compute --model, defaults") << QStringList{"compute", "--model", "m", "--text", "Hi"}
                                               << "compute --model m text [Hi] -o - top 10 ablate [] rollout 0";
    QTest::newRow("compute --model, every option")
        << QStringList{"compute", "--text", "a b", "--model", "m", "-o", "r.json", "--top", "3", "--ablate", "0:1",
                       "--ablate=11:0", "--rollout"}
        << "compute --model m text [a b] -o r.json top 3 ablate [0:1 11:0] rollout 1";
    // Whether a head exists is the model's to say, once loaded.
    QTest::newRow("compute --model, any head passes") << QStringList{"compute", "--model", "m", "--text", "x",
                                                                     "--ablate", "0:99", "--top", "1000"}
                                                      << "compute --model m text [x] -o - top 1000 ablate [0:99] rollout 0";
    QTest::newRow("export --model, defaults") << QStringList{"export", "--model", "m", "--text", "Hi", "-o", "a.png"}
        << "export --model m text [Hi] -o a.png layer 0 head 0 query 0 view - colormap - size - scale - dark 0 "
           "transparent 0";
    QTest::newRow("export --model, every option")
        << QStringList{"export", "--text=a b", "--model=m", "-o", "g.svg", "--layer", "11", "--head", "average",
                       "--query", "2", "--view", "heads", "--colormap", "magma", "--size", "640x480", "--scale", "2",
                       "--dark", "--transparent"}
        << "export --model m text [a b] -o g.svg layer 11 head -1 query 2 view heads colormap magma size 640x480 "
           "scale 2 dark 1 transparent 1";
    // Whether a layer or head exists is the model's to say, once loaded.
    QTest::newRow("export --model, head -1 is the average, any layer passes")
        << QStringList{"export", "--model", "m", "--text", "x", "-o", "a.csv", "--head", "-1", "--layer", "99"}
        << "export --model m text [x] -o a.csv layer 99 head -1 query 0 view - colormap - size - scale - dark 0 "
           "transparent 0";
    QTest::newRow("bench --model, defaults") << QStringList{"bench", "--model", "m"} << "bench --model m tokens - repeat 5";
    QTest::newRow("bench --model, every option")
        << QStringList{"bench", "--model=m", "--tokens", "64", "--repeat", "2"} << "bench --model m tokens 64 repeat 2";
    QTest::newRow("train, task defaults") << QStringList{"train", "--task", "induction", "-o", "m"}
                                          << "train induction text  -o m layers - heads - d - context - batch - "
                                             "steps - vocab - lr - seed 1 report 100 family gpt2 kv - tie 0 every 0";
    QTest::newRow("train, every option")
        << QStringList{"train", "--task=reverse", "--layers", "3", "--heads", "2", "--d-model", "48", "--context", "20",
                       "--batch", "4", "--steps", "50", "--vocab", "10", "--lr", "0.003", "--seed", "7",
                       "--report-every", "5", "--output", "out", "--family", "llama", "--kv-heads", "1",
                       "--tie-embeddings", "--every-token"}
        << "train reverse text  -o out layers 3 heads 2 d 48 context 20 batch 4 steps 50 vocab 10 lr 0.003 seed 7 "
           "report 5 family llama kv 1 tie 1 every 1";
    QTest::newRow("train, text") << QStringList{"train", "--task", "text", "--text", "book.txt", "-o", "m"}
                                 << "train text text book.txt -o m layers - heads - d - context - batch - steps - "
                                    "vocab - lr - seed 1 report 100 family gpt2 kv - tie 0 every 0";
}

void TestCliParse::commands()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    const CommandLine command = parse(arguments);
    QCOMPARE(command.error, QString());
    QCOMPARE(command.helpText, QString());
    QCOMPARE(describe(command), expected);
}

void TestCliParse::errors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("error"); // exactly, without "attention-explorer: "

    QTest::newRow("window, unknown option") << QStringList{"--frobnicate"} << "unknown option \"--frobnicate\" (see --help)";
    QTest::newRow("window, two files") << QStringList{data("example.attn.json"), data("cross.attn.json")}
                                       << "the window opens one session file at a time (see --help)";
    QTest::newRow("unknown command") << QStringList{"frobnicate"}
                                     << "frobnicate: no such command or session file (see --help)";

    QTest::newRow("compute without SESSION") << QStringList{"compute"} << "compute takes one SESSION file (see --help)";
    QTest::newRow("compute with two") << QStringList{"compute", "a", "b"} << "compute takes one SESSION file (see --help)";
    QTest::newRow("compute -o without OUT") << QStringList{"compute", "s.json", "-o"} << "Missing value after '-o'.";
    QTest::newRow("compute, unknown option") << QStringList{"compute", "--bogus", "s.json"} << "Unknown option 'bogus'.";

    const QStringList exp{"export", "s.json", "-o", "out.png"};
    QTest::newRow("export without -o") << QStringList{"export", "s.json"} << "export needs -o OUT (see --help)";
    QTest::newRow("export without SESSION") << QStringList{"export", "-o", "out.png"}
                                            << "export takes one SESSION file (see --help)";
    QTest::newRow("export --dark=1") << exp + QStringList{"--dark=1"} << "Unexpected value after '--dark'.";
    QTest::newRow("head not a number") << exp + QStringList{"--head", "1x"}
                                       << "--head 1x: expected a 0-based head number or \"average\"";
    QTest::newRow("size not WxH") << exp + QStringList{"--size", "800"}
                                  << "--size 800: expected WxH in pixels, for example 800x600";
    QTest::newRow("size over 6 digits") << exp + QStringList{"--size", "1234567x2"}
                                        << "--size 1234567x2: expected WxH in pixels, for example 800x600";
    // Fuzz finding: a zero side made an empty QSize, which export read as "the default size".
    QTest::newRow("size with a zero side") << exp + QStringList{"--size", "0x600"}
                                           << "--size 0x600: expected WxH in pixels, for example 800x600";
    QTest::newRow("scale not a number") << exp + QStringList{"--scale", "two"}
                                        << "--scale two: expected a number, for example 2";
    QTest::newRow("query not a number") << exp + QStringList{"--query", "x"} << "--query x: expected a 0-based token number";
    QTest::newRow("transparent PDF") << QStringList{"export", "s.json", "-o", "a.pdf", "--transparent"}
                                     << "--transparent works for .png and .svg pictures only, not .pdf";
    QTest::newRow("transparent CSV") << QStringList{"export", "s.json", "-o", "a.CSV", "--transparent"}
                                     << "--transparent works for .png and .svg pictures only, not .csv";
    QTest::newRow("transparent JSON, each head")
        << QStringList{"export", "s.json", "-o", "a.json", "--transparent", "--each-head"}
        << "--transparent works for .png and .svg pictures only, not .json";
    QTest::newRow("each head with --head") << exp + QStringList{"--each-head", "--head", "1"}
                                           << "--each-head writes every head; leave out --head";
    QTest::newRow("each head with --head average") << exp + QStringList{"--head", "average", "--each-head"}
                                                   << "--each-head writes every head; leave out --head";
    QTest::newRow("each head as JSON") << QStringList{"export", "s.json", "-o", "r.json", "--each-head"}
                                       << "--each-head: the .json result already holds every head; leave out --each-head";
    QTest::newRow("each head of the heads view")
        << exp + QStringList{"--each-head", "--view", "Heads"}
        << "--each-head: the heads view already shows every head; use --view heatmap, scores, pipeline or dashboard";
    QTest::newRow("each head of the bar chart")
        << exp + QStringList{"--view", "bars", "--each-head"}
        << "--each-head: the bar chart shows all heads together; use --view heatmap, scores, pipeline or dashboard";
    QTest::newRow("each head=1") << exp + QStringList{"--each-head=1"} << "Unexpected value after '--each-head'.";
    QTest::newRow("head before size") << exp + QStringList{"--size", "1", "--head", "y"}
                                      << "--head y: expected a 0-based head number or \"average\"";
    // Fuzz finding: a newline in an argument split the message over two lines.
    QTest::newRow("newline in a value") << exp + QStringList{"--head", "1\n2"}
                                        << "--head 1\\n2: expected a 0-based head number or \"average\"";
    QTest::newRow("newline in a file name") << QStringList{"a\nb\r"}
                                            << "a\\nb\\r: no such command or session file (see --help)";
    QTest::newRow("line separator in an option") << QStringList{"compute", QString::fromUtf8("--a\u2028b")}
                                                 << "Unknown option 'a\\u2028b'.";

    QTest::newRow("bench tokens 0") << QStringList{"bench", "--tokens", "0"}
                                    << "--tokens must be a whole number from 1 to 4096";
    QTest::newRow("bench tokens 1.5") << QStringList{"bench", "--tokens", "1.5"}
                                      << "--tokens must be a whole number from 1 to 4096";
    QTest::newRow("bench d_model 2000") << QStringList{"bench", "--d-model", "2000"}
                                        << "--d-model must be a whole number from 1 to 1024";
    QTest::newRow("bench heads 65") << QStringList{"bench", "--heads", "65"} << "--heads must be a whole number from 1 to 64";
    QTest::newRow("bench repeat 1001") << QStringList{"bench", "--repeat", "1001"}
                                       << "--repeat must be a whole number from 1 to 1000";
    QTest::newRow("bench head_dim 0") << QStringList{"bench", "--head-dim", "0"}
                                      << "--head-dim must be a whole number from 1 to 1024";
    QTest::newRow("bench d_model / heads below 1") << QStringList{"bench", "--d-model", "4", "--heads", "8"}
                                                   << "d_model / heads is below 1; give --head-dim";
    QTest::newRow("bench unknown precision") << QStringList{"bench", "--precision", "half"}
                                             << "--precision half: use auto, single or double";
    QTest::newRow("bench precision without NAME") << QStringList{"bench", "--precision"}
                                                  << "Missing value after '--precision'.";
    QTest::newRow("bench numbers before precision") << QStringList{"bench", "--precision", "half", "--tokens", "0"}
                                                    << "--tokens must be a whole number from 1 to 4096";
    QTest::newRow("bench --drag takes no value") << QStringList{"bench", "--drag=yes"}
                                                 << "Unexpected value after '--drag'.";

    QTest::newRow("tokenize without --model") << QStringList{"tokenize", "--text", "x"}
                                              << "tokenize needs --model DIR (see --help)";
    QTest::newRow("tokenize, empty --model") << QStringList{"tokenize", "--model=", "--text", "x"}
                                             << "tokenize needs --model DIR (see --help)";
    QTest::newRow("tokenize without --text") << QStringList{"tokenize", "--model", "m"}
                                             << "tokenize needs --text TEXT (see --help)";
    QTest::newRow("tokenize, a stray argument") << QStringList{"tokenize", "--model", "m", "hello"}
        << "tokenize: unexpected argument \"hello\"; the model comes with --model DIR, the text with --text TEXT (see --help)";
    QTest::newRow("compute --model, empty text") << QStringList{"compute", "--model", "m", "--text", ""}
                                                 << "--text is empty: give the text to run through the model";
    QTest::newRow("compute --model and a SESSION") << QStringList{"compute", "s.attn.json", "--model", "m", "--text", "x"}
        << "compute: unexpected argument \"s.attn.json\"; the model comes with --model DIR, the text with --text TEXT (see --help)";
    QTest::newRow("compute --model, --ablate 3") << QStringList{"compute", "--model", "m", "--text", "x", "--ablate", "3"}
                                                 << "--ablate 3: expected LAYER:HEAD, for example 0:1 (both counted from 0)";
    QTest::newRow("compute --model, --ablate x:y") << QStringList{"compute", "--model", "m", "--text", "x", "--ablate", "x:y"}
                                                   << "--ablate x:y: expected LAYER:HEAD, for example 0:1 (both counted from 0)";
    QTest::newRow("compute --model, --ablate -1:0") << QStringList{"compute", "--model", "m", "--text", "x", "--ablate=-1:0"}
                                                    << "--ablate -1:0: expected LAYER:HEAD, for example 0:1 (both counted from 0)";
    QTest::newRow("compute --model, --top 0") << QStringList{"compute", "--model", "m", "--text", "x", "--top", "0"}
                                              << "--top must be a whole number from 1 to 1000";
    QTest::newRow("compute --model, --top 5x") << QStringList{"compute", "--model", "m", "--text", "x", "--top", "5x"}
                                               << "--top must be a whole number from 1 to 1000";
    QTest::newRow("compute --model, unknown option") << QStringList{"compute", "--model", "m", "--text", "x", "--layer", "1"}
                                                     << "Unknown option 'layer'.";
    QTest::newRow("export --model without --text") << QStringList{"export", "--model", "m", "-o", "a.png"}
                                                   << "export needs --text TEXT (see --help)";
    QTest::newRow("export --model without -o") << QStringList{"export", "--model", "m", "--text", "x"}
                                               << "export needs -o OUT (see --help)";
    QTest::newRow("export --model and a SESSION") << QStringList{"export", "s.attn.json", "--model", "m", "--text",
                                                                 "x", "-o", "a.png"}
        << "export: unexpected argument \"s.attn.json\"; the model comes with --model DIR, the text with --text TEXT "
           "(see --help)";
    QTest::newRow("export --model, --layer x") << QStringList{"export", "--model", "m", "--text", "x", "-o", "a.png",
                                                              "--layer", "x"}
                                               << "--layer x: expected a 0-based layer number";
    QTest::newRow("export --model, --layer -1") << QStringList{"export", "--model", "m", "--text", "x", "-o", "a.png",
                                                               "--layer=-1"}
                                                << "--layer -1: expected a 0-based layer number";
    QTest::newRow("export --model, --head -2") << QStringList{"export", "--model", "m", "--text", "x", "-o", "a.png",
                                                              "--head=-2"}
                                               << "--head -2: expected a 0-based head number or \"average\"";
    QTest::newRow("export --model, --size 0x10") << QStringList{"export", "--model", "m", "--text", "x", "-o",
                                                                "a.png", "--size", "0x10"}
                                                 << "--size 0x10: expected WxH in pixels, for example 800x600";
    QTest::newRow("export --model, --transparent .pdf") << QStringList{"export", "--model", "m", "--text", "x", "-o",
                                                                       "a.pdf", "--transparent"}
        << "--transparent works for .png and .svg pictures only, not .pdf";
    QTest::newRow("export --model, --each-head is the session's")
        << QStringList{"export", "--model", "m", "--text", "x", "-o", "a.png", "--each-head"}
        << "Unknown option 'each-head'.";
    QTest::newRow("bench --model, --tokens 0") << QStringList{"bench", "--model", "m", "--tokens", "0"}
                                               << "--tokens must be a whole number from 1 to 65536";
    QTest::newRow("bench --model, --repeat 1001") << QStringList{"bench", "--model", "m", "--repeat", "1001"}
                                               << "--repeat must be a whole number from 0 to 1000";
    QTest::newRow("bench --model, session options are not its") << QStringList{"bench", "--model", "m", "--heads", "2"}
                                                                 << "Unknown option 'heads'.";
    QTest::newRow("train zero layers") << QStringList{"train", "--task", "copy", "--layers", "0", "-o", "m"}
                                       << "--layers must be a whole number from 1 to 12";
    QTest::newRow("train no task") << QStringList{"train", "-o", "m"}
                                   << "train needs --task: induction, copy, reverse, sort, pronoun or text";
    QTest::newRow("train unknown task") << QStringList{"train", "--task", "add", "-o", "m"}
                                        << "--task add: unknown task; use induction, copy, reverse, sort, pronoun or text";
    QTest::newRow("train text without file") << QStringList{"train", "--task", "text", "-o", "m"}
                                             << "--task text needs --text FILE";
    QTest::newRow("train file without text") << QStringList{"train", "--task", "copy", "--text", "a.txt", "-o", "m"}
                                             << "--text is only for --task text";
    QTest::newRow("train no output") << QStringList{"train", "--task", "copy"}
                                     << "train needs -o DIR, the model folder to write";
    QTest::newRow("train bad lr") << QStringList{"train", "--task", "copy", "--lr", "-1", "-o", "m"}
                                  << "--lr must be a number above 0 and at most 1";
    QTest::newRow("train unknown family") << QStringList{"train", "--task", "copy", "--family", "gpt3", "-o", "m"}
                                          << "--family gpt3: unknown family; use gpt2 or llama";
    QTest::newRow("train zero kv heads") << QStringList{"train", "--task", "copy", "--kv-heads", "0", "-o", "m"}
                                         << "--kv-heads must be a whole number from 1 to 64";
}

void TestCliParse::errors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, error);
    const CommandLine command = parse(arguments);
    QCOMPARE(command.error, error);
    QCOMPARE(command.helpText, QString());
}

void TestCliParse::subcommandHelp_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("mentions");
    QTest::newRow("compute") << QStringList{"compute", "--help"} << QStringList{"SESSION", "-o, --output <OUT>"};
    QTest::newRow("export") << QStringList{"export", "-h"} << QStringList{"--view <VIEW>", "--colormap <NAME>", "--dark", "--transparent", "--each-head"};
    QTest::newRow("bench") << QStringList{"bench", "--help"}
                           << QStringList{"--tokens <N>", "--paint", "--drag", "256 tokens", "--typing", "2000", "--precision <NAME>"};
    QTest::newRow("tokenize") << QStringList{"tokenize", "--help"} << QStringList{"--model <DIR>", "--text <TEXT>"};
    QTest::newRow("compute --model") << QStringList{"compute", "--model=m", "--help"}
                                     << QStringList{"--ablate <L:H>", "--rollout", "--top <K>", "-o, --output <OUT>"};
    QTest::newRow("export --model") << QStringList{"export", "--model=m", "--help"}
                                    << QStringList{"--layer <L>", "--head <H>", "--view <VIEW>", "--text <TEXT>"};
    QTest::newRow("bench --model") << QStringList{"bench", "--model=m", "-h"} << QStringList{"--tokens <N>", "--repeat <R>"};
}

void TestCliParse::subcommandHelp()
{
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, mentions);
    const CommandLine command = parse(arguments);
    QCOMPARE(command.error, QString());
    QVERIFY(command.helpText.startsWith(QLatin1String("Usage: ")));
    for (const QString &m : mentions)
        QVERIFY2(command.helpText.contains(m), qPrintable(m));
}

void TestCliParse::oneLineEscapes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("plain") << "a b: é ✓" << "a b: é ✓";
    QTest::newRow("newline, return, tab") << "a\nb\rc\td" << "a\\nb\\rc\\td";
    QTest::newRow("escape, NEL, separators") << QString::fromUtf8("\x1b[1m\u0085\u2028\u2029")
                                             << "\\u001b[1m\\u0085\\u2028\\u2029";
}

void TestCliParse::oneLineEscapes()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(oneLine(text), expected);
    QCOMPARE(oneLine(expected), expected); // applying it twice changes nothing
}

QTEST_GUILESS_MAIN(TestCliParse)
#include "tst_cliparse.moc"
