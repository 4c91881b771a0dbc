// A monkey on the real main window: tens of thousands of random user actions
// (clicks, drags, typing, keys, options, undo, bad files, saves) from a fixed
// seed, with the document's and the views' invariants checked after every one.
//
// Replay a failure: ATTN_MONKEY_SEED=<seed> ATTN_MONKEY_ACTIONS=<index + 1>
// (the failure message prints both). One thing is not replayable bit for bit:
// "New random weights" draws its seed from the system; the action's
// description records the seed it got.

#include "barchartview.h"
#include "document.h"
#include "embeddingeditor.h"
#include "fileactions.h"
#include "headsgridview.h"
#include "heatmapview.h"
#include "mainwindow.h"
#include "optionspanel.h"
#include "pipelineview.h"
#include "prng.h"
#include "session.h"
#include "sessionio.h"
#include "tokenchips.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBoundaryFinder>
#include <cmath>
#include <csignal>
#include <cstring>
#include <deque>
#include <map>
#include <functional>
#include <unistd.h>

namespace {

constexpr std::uint64_t kDefaultSeed = 20240611;
constexpr int kDefaultActions = 20000;
constexpr int kMaxHeads = 8;   // the monkey's caps keep every recompute fast
constexpr int kMaxHeadDim = 8;
constexpr int kMaxDModel = 16;

// What was going on, for the fatal-signal handler: a crash prints the action
// that caused it, so it can be replayed. Written before every action.
char g_breadcrumb[1024] = "";
struct sigaction g_previousSegv, g_previousAbrt, g_previousFpe, g_previousBus;

void crashHandler(int signal)
{
    const char prefix[] = "\ntst_monkey crashed during: ";
    (void)!write(STDERR_FILENO, prefix, sizeof prefix - 1);
    (void)!write(STDERR_FILENO, g_breadcrumb, strnlen(g_breadcrumb, sizeof g_breadcrumb));
    (void)!write(STDERR_FILENO, "\n", 1);
    const struct sigaction *previous = signal == SIGSEGV ? &g_previousSegv
        : signal == SIGABRT                              ? &g_previousAbrt
        : signal == SIGFPE                               ? &g_previousFpe
                                                         : &g_previousBus;
    sigaction(signal, previous, nullptr); // let QTest's handler (or the default) finish the job
    raise(signal);
}

void installCrashHandler()
{
    struct sigaction action {};
    action.sa_handler = crashHandler;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &g_previousSegv);
    sigaction(SIGABRT, &action, &g_previousAbrt);
    sigaction(SIGFPE, &action, &g_previousFpe);
    sigaction(SIGBUS, &action, &g_previousBus);
}

QtMessageHandler g_previousHandler = nullptr;

// Fonts without Arabic or Hebrew shaping tables warn once per font and
// script, and the offscreen platform about size hints: the machine's
// business, not the program's.
void quietFontWarnings(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg
        && (message.startsWith(QLatin1String("OpenType support missing"))
            || message == QLatin1String("This plugin does not support propagateSizeHints()")))
        return;
    g_previousHandler(type, context, message);
}

std::uint64_t envNumber(const char *name, std::uint64_t fallback)
{
    bool ok = false;
    const std::uint64_t value = qEnvironmentVariable(name).toULongLong(&ok);
    return ok ? value : fallback;
}

QString shortText(const QString &text)
{
    QString shown = text.left(40);
    shown.replace(QLatin1Char('\n'), QLatin1String("\\n"));
    shown.replace(QLatin1Char('\t'), QLatin1String("\\t"));
    return QStringLiteral("\"%1\"%2 (%3 chars)")
        .arg(shown, text.size() > 40 ? QStringLiteral("…") : QString())
        .arg(text.size());
}

QByteArray sessionPrefix() { return R"({"format": "attention-explorer-session", "version": 1, )"; }

struct BadFile
{
    QString name;
    QByteArray bytes; // ignored for the missing file and the folder
};

QList<BadFile> badFiles()
{
    QByteArray garbage;
    attn::SplitMix64 bytes(99);
    for (int i = 0; i < 4096; ++i)
        garbage += char(bytes.next() & 0xFF);
    QByteArray nested = sessionPrefix() + R"("tokens": ["a"], "embeddings": )";
    nested += QByteArray(5000, '[') + QByteArray(5000, ']') + '}';
    return {
        {QStringLiteral("truncated.attn.json"), sessionPrefix() + R"("tokens": ["a", "b"], "embeddings": [[1, 2], [3,)"},
        {QStringLiteral("garbage.attn.json"), garbage},
        {QStringLiteral("ragged.attn.json"), sessionPrefix() + R"("tokens": ["a", "b"], "embeddings": [[1, 2], [3]]})"},
        {QStringLiteral("huge-number.attn.json"), sessionPrefix() + R"("tokens": ["a"], "embeddings": [[1e999]]})"},
        {QStringLiteral("version2.attn.json"),
         R"({"format": "attention-explorer-session", "version": 2, "tokens": ["a"], "embeddings": [[1]]})"},
        {QStringLiteral("nested.attn.json"), nested},
        {QStringLiteral("empty.attn.json"), QByteArray()},
        {QStringLiteral("no-tokens.attn.json"), sessionPrefix() + R"("tokens": [], "embeddings": []})"},
        {QStringLiteral("wrong-type.attn.json"), sessionPrefix() + R"("tokens": "a b", "embeddings": [[1]]})"},
        {QStringLiteral("heads65.attn.json"),
         sessionPrefix() + R"("tokens": ["a"], "embeddings": [[1]], "attention": {"heads": 65}})"},
        {QStringLiteral("query-range.attn.json"), sessionPrefix() + R"("tokens": ["a"], "embeddings": [[1]], "query": 1})"},
        {QStringLiteral("missing.attn.json"), QByteArray()},
        {QStringLiteral("folder.attn.json"), QByteArray()},
    };
}

} // namespace

class TestMonkey : public QObject
{
    Q_OBJECT

    struct Action
    {
        const char *name;
        int weight;
        std::function<QString()> run; // does it, returns what it did
    };

    Document m_doc;
    MainWindow *m_window = nullptr;
    attn::SplitMix64 m_rng{kDefaultSeed};
    QTemporaryDir m_dir;
    QStringList m_badPaths;
    QStringList m_validPaths;
    QString m_failure; // the first broken expectation of the current action
    SnapshotPtr m_checked; // the last snapshot whose numbers were checked
    int m_saves = 0;

    // Random numbers, all from the one seeded generator.
    int below(int n) { return n <= 1 ? 0 : int(m_rng.next() % std::uint64_t(n)); }
    bool chance(double p) { return m_rng.nextUnit() < p; }
    template<typename T> const T &pick(const QList<T> &list) { return list[below(int(list.size()))]; }

    void expect(bool condition, const QString &what)
    {
        if (!condition && m_failure.isEmpty())
            m_failure = what;
    }

    MainWindow &window() { return *m_window; }
    int shownDims() const { return std::min(m_doc.dModel(), int(EmbeddingEditor::kMaxEditableDims)); }

    QString randomSentence();
    QString randomWords(int count);
    void typeText(QWidget *widget, const QString &text);
    QString checkInvariants();
    QString checkNumbers(const attn::AttentionResult &r, const attn::Session &s);
    std::vector<Action> actions();

private slots:
    void initTestCase();
    void monkey();
    void cleanupTestCase();
};

void TestMonkey::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    installCrashHandler();
    g_previousHandler = qInstallMessageHandler(quietFontWarnings);
    QVERIFY(m_dir.isValid());
    for (const BadFile &bad : badFiles()) {
        const QString path = m_dir.filePath(bad.name);
        m_badPaths << path;
        if (bad.name.startsWith(QLatin1String("missing")))
            continue;
        if (bad.name.startsWith(QLatin1String("folder"))) {
            QVERIFY(QDir(m_dir.path()).mkdir(bad.name));
            continue;
        }
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(bad.bytes), bad.bytes.size());
    }
    QString error;
    attn::Session twoHeads = attn::exampleSession();
    twoHeads.sentence = QStringLiteral("שלום 🇯🇵 café e\u0301 注意 👩‍👩‍👧");
    twoHeads.tokens = QStringList{QStringLiteral("שלום"), QStringLiteral("🇯🇵"), QStringLiteral("café"),
                                  QStringLiteral("e\u0301"), QStringLiteral("注"), QStringLiteral("意")};
    twoHeads.attention.heads = 2;
    twoHeads.attention.causal = true;
    twoHeads.attention.outputProjection = true;
    twoHeads.attention.positionalEncoding = attn::PositionalEncoding::Sinusoidal;
    twoHeads.embeddings(2, 1) = 0.123456789; // more digits than the number boxes show
    const QString valid1 = m_dir.filePath(QStringLiteral("valid-example.attn.json"));
    const QString valid2 = m_dir.filePath(QStringLiteral("valid-two-heads.attn.json"));
    QVERIFY2(attn::writeSession(valid1, attn::exampleSession(), &error), qPrintable(error));
    QVERIFY2(attn::writeSession(valid2, twoHeads, &error), qPrintable(error));
    // Fixed matrices from the file, which every change of shape must respect.
    attn::Session fixed = attn::exampleSession();
    fixed.attention.heads = 2;
    fixed.attention.outputProjection = true;
    for (int h = 0; h < 2; ++h) {
        fixed.weights.query.push_back(Eigen::MatrixXd::Constant(3, 2, 0.5 + h));
        fixed.weights.key.push_back(Eigen::MatrixXd::Constant(3, 2, -0.25 * h));
        fixed.weights.value.push_back(Eigen::MatrixXd::Identity(3, 2));
    }
    fixed.weights.output = Eigen::MatrixXd::Ones(4, 3);
    const QString valid3 = m_dir.filePath(QStringLiteral("valid-fixed-weights.attn.json"));
    QVERIFY2(attn::writeSession(valid3, fixed, &error), qPrintable(error));
    m_validPaths << valid1 << valid2 << valid3;
}

void TestMonkey::cleanupTestCase()
{
    delete m_window;
    m_window = nullptr;
}

QString TestMonkey::randomWords(int count)
{
    static const QStringList words = {
        "the", "cat", "sat", "on", "a", "mat", "attention", "is", "all", "you", "need", "journey", "starts",
        "with", "one", "step", "don't", "self-attention", ",", ".", "!", "?", "(", ")", "42", "3.14", "naïve",
        "Ünïcödé", "über", "注意力", "机制", "ありがとう", "안녕하세요", "مرحبا", "بالعالم", "שלום", "עולם",
        "🍕", "👨‍👩‍👧‍👦", "🇯🇵", "🇫🇷", "👍🏽", "1️⃣", "e\u0301", "n\u0303o", "a\u0308\u0304", "ज़िंदगी", "Ελλάδα",
        "Москва", "\u200B", "\t", "x_y", "—", "…"};
    QStringList out;
    for (int i = 0; i < count; ++i)
        out << words[below(int(words.size()))];
    return out.join(chance(0.1) ? QStringLiteral("  ") : QStringLiteral(" "));
}

QString TestMonkey::randomSentence()
{
    // The 5,000-character texts are rare: every recompute of hundreds of
    // tokens costs, and the text stays until the next sentence edit.
    if (chance(0.02)) {
        if (chance(0.5))
            return QString(5000, QLatin1Char('w')); // one very long word
        // Long words and long emoji keep it to a few hundred tokens: with
        // short words (1,300 tokens) one recompute of 8 heads takes seconds.
        static const QStringList longWords = {
            "internationalization", "self-attention", "Donaudampfschifffahrt", "👨‍👩‍👧‍👦👨‍👩‍👧‍👦",
            "مرحبابالعالم", "שלוםעולםומלואו", "e\u0301e\u0301e\u0301e\u0301", "🏳️‍🌈", "counterrevolutionaries"};
        QString text;
        while (text.size() < 5000)
            text += longWords[below(int(longWords.size()))] + (chance(0.1) ? QStringLiteral(", ") : QStringLiteral(" "));
        return text.left(5000);
    }
    switch (below(14)) {
    case 0: return QString();
    case 1: return QStringLiteral("   \t  \n ");
    case 2: return QStringLiteral("\u200B\u200B\uFEFF"); // invisible only: no tokens
    case 3: return QStringLiteral("👨‍👩‍👧‍👦 family 🏳️‍🌈 flags 🇯🇵🇫🇷🇩🇪 👍🏽👋🏿");
    case 4: return QStringLiteral("مرحبا بالعالم، كيف حالك؟");
    case 5: return QStringLiteral("שלום עולם, mixed with English and 123");
    case 6: return QStringLiteral("e\u0301te\u0301 n\u0303 Z\u0351\u0352\u0353a\u0300\u0301\u0302l\u0303g\u0304o\u0305");
    case 7: return QStringLiteral("注意力机制很有趣。我喜欢它！");
    case 8: return QStringLiteral("a");
    case 9: return QStringLiteral("\x01\x02 control \x7f chars");
    default: return randomWords(1 + below(12));
    }
}

// Types like a keyboard without an input method: one key event per character
// the user sees (a grapheme cluster, so an emoji or an accented letter is one key).
void TestMonkey::typeText(QWidget *widget, const QString &text)
{
    QTextBoundaryFinder finder(QTextBoundaryFinder::Grapheme, text);
    int start = 0;
    for (int end = finder.toNextBoundary(); end != -1; end = finder.toNextBoundary()) {
        const QString cluster = text.mid(start, end - start);
        start = end;
        if (cluster.size() == 1 && cluster[0].unicode() < 0x80 && cluster[0].isPrint())
            QTest::keyClick(widget, cluster[0].toLatin1());
        else
            QTest::sendKeyEvent(QTest::Click, widget, Qt::Key_unknown, cluster, Qt::NoModifier);
    }
}

std::vector<TestMonkey::Action> TestMonkey::actions()
{
    std::vector<Action> list;
    auto add = [&list](const char *name, int weight, std::function<QString()> run) {
        list.push_back({name, weight, std::move(run)});
    };

    add("click a chip", 8, [this] {
        const int i = below(m_doc.tokenCount());
        const QRect chip = window().chips()->chipRect(i);
        expect(chip.isValid(), QStringLiteral("chip %1 has no rectangle").arg(i));
        QTest::mouseClick(window().chips(), Qt::LeftButton, {}, chip.center());
        expect(m_doc.query() == i, QStringLiteral("query is %1, not the clicked chip").arg(m_doc.query()));
        return QStringLiteral("click chip %1 of %2").arg(i).arg(m_doc.tokenCount());
    });
    add("click between chips", 1, [this] {
        const int before = m_doc.query();
        const QPoint pos(window().chips()->width() - 1, window().chips()->height() - 1);
        if (window().chips()->chipAt(pos) < 0) {
            QTest::mouseClick(window().chips(), Qt::LeftButton, {}, pos);
            expect(m_doc.query() == before, QStringLiteral("a click beside the chips moved the query"));
        }
        return QStringLiteral("click beside the chips at (%1, %2)").arg(pos.x()).arg(pos.y());
    });
    add("click a heatmap cell", 6, [this] {
        HeatmapView *heatmap = window().heatmap();
        const int rows = heatmap->painter().rows(), columns = heatmap->painter().columns();
        if (rows == 0)
            return QStringLiteral("click the heatmap (no cells)");
        const int row = below(rows), column = below(columns);
        const QRectF cell = heatmap->cellRect(row, column);
        const QPoint at = cell.center().toPoint();
        const auto hit = heatmap->cellAt(at);
        QTest::mouseClick(heatmap, Qt::LeftButton, {}, at);
        if (hit)
            expect(m_doc.query() == hit->first, QStringLiteral("query is %1, the clicked row is %2")
                                                     .arg(m_doc.query())
                                                     .arg(hit->first));
        if (cell.height() >= 2 && cell.width() >= 2)
            expect(hit && hit->first == row && hit->second == column,
                   QStringLiteral("cellAt(cellRect(%1, %2).center()) is another cell").arg(row).arg(column));
        return QStringLiteral("click heatmap cell (%1, %2) of %3 x %4").arg(row).arg(column).arg(rows).arg(columns);
    });
    add("click a head tile", 4, [this] {
        HeadsGridView *grid = window().headsGrid();
        if (grid->tileCount() == 0)
            return QStringLiteral("click the heads grid (no tiles)");
        const int tile = below(grid->tileCount());
        const QRectF rect = grid->tileRect(tile);
        QTest::mouseClick(grid, Qt::LeftButton, {}, rect.center().toPoint());
        if (rect.width() >= 2 && rect.height() >= 2)
            expect(window().selectedHead() == grid->gridPainter().headOfTile(tile),
                   QStringLiteral("selected head is %1 after clicking tile %2").arg(window().selectedHead()).arg(tile));
        return QStringLiteral("click head tile %1 of %2").arg(tile).arg(grid->tileCount());
    });
    add("drag a slider", 10, [this] {
        const int dim = below(shownDims());
        QSlider *slider = window().editor()->slider(dim);
        expect(slider, QStringLiteral("no slider for dimension %1").arg(dim));
        if (!slider)
            return QStringLiteral("drag slider %1 (missing)").arg(dim);
        const int token = window().editor()->editedToken();
        const int undoIndex = m_doc.undoStack()->index();
        QStringList positions;
        bool moved = false;
        slider->setSliderDown(true);
        for (int k = 0, moves = 1 + below(6); k < moves; ++k) {
            const int position = slider->minimum() + below(slider->maximum() - slider->minimum() + 1);
            moved = moved || position != slider->value();
            positions << QString::number(position);
            slider->setValue(position);
        }
        slider->setSliderDown(false);
        expect(m_doc.undoStack()->index() <= undoIndex + 1,
               QStringLiteral("one drag made %1 undo steps").arg(m_doc.undoStack()->index() - undoIndex));
        if (moved) {
            const double step = 2.0 * window().editor()->sliderRange() / 400.0;
            const double value = std::round(slider->value() * step * 1e9) / 1e9;
            expect(m_doc.session().embeddings(token, dim) == value,
                   QStringLiteral("embedding is %1 after the drag, the slider says %2")
                       .arg(m_doc.session().embeddings(token, dim))
                       .arg(value));
        }
        return QStringLiteral("drag slider d%1 of token %2 through %3").arg(dim).arg(token).arg(positions.join(','));
    });
    add("type into a number box", 6, [this] {
        const int dim = below(shownDims());
        QDoubleSpinBox *spin = window().editor()->spinBox(dim);
        static const QStringList texts = {"0", "-0.5", "1.2345", "999999.9999", "-1000000", "1e6", "abc", "",
                                          "12,5", "-", "0.00001", "3.14159", "-999999"};
        const QString text = chance(0.5) ? QString::number(m_rng.nextSymmetric(3.0), 'f', 4) : pick(texts);
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, text);
        QTest::keyClick(spin, Qt::Key_Return);
        return QStringLiteral("type %1 + Return into number box d%2").arg(shortText(text)).arg(dim);
    });
    add("set a number box", 3, [this] {
        const int dim = below(shownDims());
        const double value = chance(0.1) ? (chance(0.5) ? 1e6 : -1e6) : m_rng.nextSymmetric(2.0);
        window().editor()->spinBox(dim)->setValue(value);
        return QStringLiteral("set number box d%1 to %2").arg(dim).arg(value, 0, 'g', 17);
    });
    add("step a number box", 2, [this] {
        const int dim = below(shownDims());
        const Qt::Key key = pick(QList<Qt::Key>{Qt::Key_Up, Qt::Key_Down, Qt::Key_PageUp, Qt::Key_PageDown});
        QTest::keyClick(window().editor()->spinBox(dim), key);
        return QStringLiteral("key %1 in number box d%2").arg(QTest::toString(key)).arg(dim);
    });
    add("keys on the chips", 5, [this] {
        TokenChips *chips = window().chips();
        const int n = m_doc.tokenCount(), q = m_doc.query();
        const Qt::Key key = pick(QList<Qt::Key>{Qt::Key_Left, Qt::Key_Right, Qt::Key_Home, Qt::Key_End});
        const int expected = key == Qt::Key_Left ? std::max(q - 1, 0)
            : key == Qt::Key_Right               ? std::min(q + 1, n - 1)
            : key == Qt::Key_Home                ? 0
                                                 : n - 1;
        chips->setFocus();
        QTest::keyClick(chips, key);
        expect(m_doc.query() == expected, QStringLiteral("query %1, expected %2").arg(m_doc.query()).arg(expected));
        return QStringLiteral("key %1 on the chips (query was %2)").arg(QTest::toString(key)).arg(q);
    });
    add("keys on the heatmap", 4, [this] {
        const int n = m_doc.tokenCount(), q = m_doc.query();
        const bool up = chance(0.5);
        window().heatmap()->setFocus();
        QTest::keyClick(window().heatmap(), up ? Qt::Key_Up : Qt::Key_Down);
        const int expected = std::clamp(q + (up ? -1 : 1), 0, n - 1);
        expect(m_doc.query() == expected, QStringLiteral("query %1, expected %2").arg(m_doc.query()).arg(expected));
        return QStringLiteral("key %1 on the heatmap (query was %2)").arg(up ? "Up" : "Down").arg(q);
    });
    add("toggle an option", 8, [this] {
        OptionsPanel *o = window().options();
        const int which = below(4);
        QCheckBox *box = QList<QCheckBox *>{o->causalBox(), o->scaleBox(), o->positionalBox(), o->projectionBox()}[which];
        const attn::AttentionConfig before = m_doc.session().attention;
        box->click();
        const attn::AttentionConfig &after = m_doc.session().attention;
        const bool toggled = which == 0 ? after.causal != before.causal
            : which == 1               ? after.scale != before.scale
            : which == 2               ? after.positionalEncoding != before.positionalEncoding
                                       : after.outputProjection != before.outputProjection;
        expect(toggled, QStringLiteral("the option did not change the session"));
        return QStringLiteral("click \"%1\" (now %2)").arg(box->text()).arg(box->isChecked() ? "on" : "off");
    });
    add("change heads", 4, [this] {
        const int heads = 1 + below(kMaxHeads);
        window().options()->headsBox()->setValue(heads);
        expect(m_doc.session().attention.heads == heads, QStringLiteral("heads is %1").arg(m_doc.session().attention.heads));
        return QStringLiteral("set heads to %1").arg(heads);
    });
    add("change head_dim", 3, [this] {
        QSpinBox *box = window().options()->headDimBox();
        const int headDim = 1 + below(kMaxHeadDim);
        if (!box->isEnabled())
            return QStringLiteral("head_dim box disabled (simplified mode)");
        box->setValue(headDim);
        expect(m_doc.session().attention.headDim == headDim,
               QStringLiteral("head_dim is %1").arg(m_doc.session().attention.headDim));
        return QStringLiteral("set head_dim to %1").arg(headDim);
    });
    add("change mode", 3, [this] {
        const int index = below(2);
        QComboBox *box = window().options()->modeBox();
        box->setCurrentIndex(index);
        expect(int(m_doc.session().attention.mode) == box->itemData(index).toInt(), QStringLiteral("mode not applied"));
        return QStringLiteral("choose mode \"%1\"").arg(box->itemText(index));
    });
    add("change seed", 2, [this] {
        auto *seed = window().options()->findChild<QSpinBox *>();
        const QList<QSpinBox *> boxes = window().options()->findChildren<QSpinBox *>();
        for (QSpinBox *box : boxes)
            if (box->accessibleName() == QLatin1String("Random seed"))
                seed = box;
        const int value = below(1000000000);
        if (!seed->isEnabled())
            return QStringLiteral("seed box disabled");
        seed->setValue(value);
        expect(m_doc.session().attention.seed == value, QStringLiteral("seed not applied"));
        return QStringLiteral("set seed to %1").arg(value);
    });
    add("new random weights", 2, [this] {
        QPushButton *button = window().options()->newWeightsButton();
        if (!button->isEnabled())
            return QStringLiteral("\"New random weights\" disabled");
        button->click();
        return QStringLiteral("click \"New random weights\" (seed became %1)").arg(m_doc.session().attention.seed);
    });
    add("change d_model", 4, [this] {
        QSpinBox *box = nullptr;
        for (QSpinBox *b : window().editor()->findChildren<QSpinBox *>())
            if (b->accessibleName() == QLatin1String("Embedding size d_model"))
                box = b;
        const int dModel = 1 + below(kMaxDModel);
        box->setValue(dModel);
        expect(m_doc.dModel() == dModel, QStringLiteral("d_model is %1").arg(m_doc.dModel()));
        return QStringLiteral("set d_model to %1").arg(dModel);
    });
    add("slider range", 1, [this] {
        const double range = pick(QList<double>{0.1, 1.0, 2.0, 5.0, 1000.0});
        window().editor()->setSliderRange(range);
        return QStringLiteral("set slider range to ±%1").arg(range);
    });
    add("weights/scores", 3, [this] {
        const bool scores = chance(0.5);
        window().setShowScores(scores);
        expect(window().heatmap()->showScores() == scores, QStringLiteral("heatmap ignores Weights/Scores"));
        return QStringLiteral("show %1").arg(scores ? "scores" : "weights");
    });
    add("select head", 3, [this] {
        const int head = below(m_doc.session().attention.heads + 1) - 1;
        window().selectHead(head);
        expect(window().heatmap()->head() == head, QStringLiteral("heatmap shows head %1").arg(window().heatmap()->head()));
        return QStringLiteral("select head %1").arg(head);
    });
    add("set the sentence", 5, [this] {
        const QString text = randomSentence();
        m_doc.setSentence(text);
        return QStringLiteral("doc.setSentence(%1)").arg(shortText(text));
    });
    add("type a sentence", 4, [this] {
        QLineEdit *edit = window().sentenceEdit();
        const QString text = randomSentence();
        const bool append = chance(0.3);
        edit->setFocus();
        if (append)
            edit->end(false);
        else
            edit->selectAll();
        if (text.size() > 200)
            edit->insert(text); // a paste: 5,000 key events would be slow
        else
            typeText(edit, text);
        QTest::keyClick(edit, Qt::Key_Return);
        expect(m_doc.session().sentence == edit->text(),
               QStringLiteral("the session's sentence is %1, the field shows %2")
                   .arg(shortText(m_doc.session().sentence), shortText(edit->text())));
        return QStringLiteral("%1 %2 + Return in the sentence field").arg(append ? "append" : "type", shortText(text));
    });
    add("undo", 5, [this] {
        const bool can = m_doc.undoStack()->canUndo();
        m_doc.undoStack()->undo();
        return QStringLiteral("undo%1").arg(can ? QString() : QStringLiteral(" (nothing to undo)"));
    });
    add("redo", 3, [this] {
        const bool can = m_doc.undoStack()->canRedo();
        m_doc.undoStack()->redo();
        return QStringLiteral("redo%1").arg(can ? QString() : QStringLiteral(" (nothing to redo)"));
    });
    add("open a bad file", 3, [this] {
        const QString path = pick(m_badPaths);
        const QString name = QFileInfo(path).fileName();
        const attn::Session before = m_doc.session();
        const int count = m_doc.undoStack()->count(), index = m_doc.undoStack()->index();
        const bool modified = m_doc.isModified();
        const QString file = m_doc.filePath();
        QSignalSpy errors(window().fileActions(), &FileActions::errorOccurred);
        const bool opened = window().fileActions()->openPath(path);
        expect(!opened, QStringLiteral("%1 opened").arg(name));
        expect(errors.count() == 1, QStringLiteral("%1 errors signalled").arg(errors.count()));
        const QString message = errors.value(0).value(0).toString();
        expect(message.startsWith(name + QStringLiteral(": ")) && message.size() > name.size() + 4
                   && !message.contains(QLatin1Char('\n')),
               QStringLiteral("message %1").arg(shortText(message)));
        expect(m_doc.session() == before, QStringLiteral("the session changed"));
        expect(m_doc.undoStack()->count() == count && m_doc.undoStack()->index() == index,
               QStringLiteral("the undo history changed"));
        expect(m_doc.isModified() == modified && m_doc.filePath() == file, QStringLiteral("modified/file path changed"));
        return QStringLiteral("open bad file %1: %2").arg(name, message);
    });
    add("open a valid file", 1, [this] {
        const QString path = pick(m_validPaths);
        QString error;
        const std::optional<attn::Session> expected = attn::readSession(path, &error);
        expect(window().fileActions()->openPath(path), QStringLiteral("could not open %1").arg(path));
        expect(expected && m_doc.session() == *expected, QStringLiteral("the session is not the file's"));
        expect(m_doc.undoStack()->count() == 0 && !m_doc.isModified(), QStringLiteral("history after open"));
        return QStringLiteral("open %1").arg(QFileInfo(path).fileName());
    });
    add("save", 1, [this] {
        const QString path = m_dir.filePath(QStringLiteral("saved-%1.attn.json").arg(m_saves++ % 4));
        expect(window().fileActions()->saveTo(path), QStringLiteral("save failed"));
        QString error;
        const std::optional<attn::Session> back = attn::readSession(path, &error);
        expect(back.has_value(), QStringLiteral("the saved file does not open again: %1").arg(error));
        expect(!back || *back == m_doc.session(), QStringLiteral("the saved file holds another session"));
        expect(!m_doc.isModified() && m_doc.filePath() == path, QStringLiteral("not clean after saving"));
        return QStringLiteral("save to %1").arg(QFileInfo(path).fileName());
    });
    add("hover and tooltips", 2, [this] {
        const int n = m_doc.tokenCount();
        const int row = below(n), column = below(window().heatmap()->painter().columns());
        const QString tip = window().heatmap()->tooltipText(row, column);
        const QString bars = window().barChart()->tooltipText(below(m_doc.dModel()));
        for (const QString &text : {tip, bars})
            expect(!text.contains(QLatin1String("nan"), Qt::CaseInsensitive)
                       && !text.contains(QLatin1String("inf"), Qt::CaseInsensitive),
                   QStringLiteral("a tooltip shows %1").arg(shortText(text)));
        expect(!tip.isEmpty(), QStringLiteral("no tooltip for cell (%1, %2)").arg(row).arg(column));
        QTest::mouseMove(window().heatmap(), window().heatmap()->cellRect(row, column).center().toPoint());
        return QStringLiteral("hover heatmap cell (%1, %2)").arg(row).arg(column);
    });
    add("paint", 3, [this] {
        QCoreApplication::processEvents();
        return QStringLiteral("process events (paint)");
    });
    add("resize the window", 1, [this] {
        const QSize size(400 + below(1200), 300 + below(700));
        window().resize(size);
        QCoreApplication::processEvents();
        return QStringLiteral("resize the window to %1x%2").arg(size.width()).arg(size.height());
    });
    return list;
}

QString TestMonkey::checkNumbers(const attn::AttentionResult &r, const attn::Session &s)
{
    const Eigen::Index n = s.tokenCount();
    const Eigen::Index m = s.source ? s.source->tokens.size() : n;
    if (!r.inputs.allFinite() || !r.output.allFinite())
        return QStringLiteral("inputs or output not finite");
    if (r.inputs.rows() != n || r.output.rows() != n)
        return QStringLiteral("inputs/output have %1/%2 rows for %3 tokens").arg(r.inputs.rows()).arg(r.output.rows()).arg(n);
    if (int(r.heads.size()) != s.attention.heads)
        return QStringLiteral("%1 heads computed, %2 set").arg(r.heads.size()).arg(s.attention.heads);
    if (r.causal != s.attention.causal)
        return QStringLiteral("the result's causal flag differs from the session's");
    for (std::size_t h = 0; h < r.heads.size(); ++h) {
        const attn::HeadResult &head = r.heads[h];
        const QString where = QStringLiteral("head %1: ").arg(h);
        if (!head.queries.allFinite() || !head.keys.allFinite() || !head.values.allFinite() || !head.scores.allFinite()
            || !head.weights.allFinite() || !head.context.allFinite())
            return where + QStringLiteral("a NaN or infinity");
        if (head.weights.rows() != n || head.weights.cols() != m || head.scores.rows() != n || head.scores.cols() != m)
            return where + QStringLiteral("weights are %1 x %2").arg(head.weights.rows()).arg(head.weights.cols());
        for (Eigen::Index i = 0; i < n; ++i) {
            const double sum = head.weights.row(i).sum();
            if (std::fabs(sum - 1.0) > 1e-9)
                return where + QStringLiteral("row %1 sums to %2").arg(i).arg(sum, 0, 'g', 17);
            for (Eigen::Index j = 0; j < m; ++j) {
                if (r.isMasked(int(i), int(j)) && head.weights(i, j) != 0.0)
                    return where + QStringLiteral("masked weight (%1, %2) is %3").arg(i).arg(j).arg(head.weights(i, j));
                if (head.weights(i, j) < 0.0)
                    return where + QStringLiteral("negative weight at (%1, %2)").arg(i).arg(j);
            }
        }
    }
    // Small sessions: the snapshot must be exactly what the engine computes now.
    if (n * m * s.attention.heads <= 4096) {
        const attn::AttentionResult fresh = attn::computeSession(s);
        if (!(fresh.output.rows() == r.output.rows() && fresh.output.cols() == r.output.cols() && fresh.output == r.output))
            return QStringLiteral("the result is stale: it is not the session's");
    }
    return {};
}

QString TestMonkey::checkInvariants()
{
    const SnapshotPtr snap = m_doc.snapshot();
    if (!snap)
        return QStringLiteral("doc.snapshot() is null");
    const attn::Session &s = m_doc.session();
    const int n = s.tokenCount(), q = m_doc.query();
    if (n < 1 || s.embeddings.rows() != n || s.dModel() < 1)
        return QStringLiteral("%1 tokens, embeddings %2 x %3").arg(n).arg(s.embeddings.rows()).arg(s.dModel());
    if (q < 0 || q >= n)
        return QStringLiteral("query %1 is not a token index (%2 tokens)").arg(q).arg(n);
    if (snap->rowTokens != s.tokens)
        return QStringLiteral("the snapshot's tokens are not the session's");
    if (!m_doc.hasResult())
        return QStringLiteral("no result: %1").arg(m_doc.computeError());
    if (!m_doc.computeError().isEmpty())
        return QStringLiteral("a result and an error: %1").arg(m_doc.computeError());
    const attn::AttentionResult &r = m_doc.result();
    if (snap != m_checked) {
        const QString numbers = checkNumbers(r, s);
        if (!numbers.isEmpty())
            return numbers;
        m_checked = snap;
    }

    // Every view shows this snapshot and this query.
    const QString token = s.tokens[q];
    if (window().heatmap()->snapshot() != snap || window().pipeline()->pipelinePainter().snapshot() != snap)
        return QStringLiteral("a view holds an old snapshot");
    if (window().heatmap()->query() != q)
        return QStringLiteral("heatmap query %1, document %2").arg(window().heatmap()->query()).arg(q);
    if (window().chips()->query() != q)
        return QStringLiteral("chips query %1, document %2").arg(window().chips()->query()).arg(q);
    if (!window().chips()->chipRect(n - 1).isValid() || window().chips()->chipRect(n).isValid())
        return QStringLiteral("the chips do not show %1 tokens").arg(n);
    if (window().heatmap()->painter().rows() != n)
        return QStringLiteral("heatmap has %1 rows for %2 tokens").arg(window().heatmap()->painter().rows()).arg(n);
    const PipelineModel pipeline = window().pipeline()->currentModel();
    if (!pipeline.isValid() || pipeline.queryToken != token)
        return QStringLiteral("pipeline shows %1 (%2), query token %3")
            .arg(shortText(pipeline.queryToken), pipeline.error, shortText(token));
    if (pipeline.head != std::max(window().selectedHead(), 0))
        return QStringLiteral("pipeline shows head %1, selected %2").arg(pipeline.head).arg(window().selectedHead());
    const attn::HeadResult &shownHead = r.heads[std::size_t(pipeline.head)];
    for (std::size_t d = 0; d < pipeline.queryValues.size() && d < pipeline.contextValues.size(); ++d)
        if (pipeline.queryValues[d] != shownHead.queries(q, Eigen::Index(d))
            || pipeline.contextValues[d] != shownHead.context(q, Eigen::Index(d)))
            return QStringLiteral("the pipeline's q or z differs from the result at d%1").arg(d);
    for (const PipelineKeyRow &key : pipeline.rows)
        if (key.weight != shownHead.weights(q, key.key) || key.score != shownHead.scores(q, key.key))
            return QStringLiteral("the pipeline's key \"%1\" differs from the result").arg(key.label);
    // The heatmap's query row holds the numbers of the head it shows.
    const HeatmapPainter &painter = window().heatmap()->painter();
    const int shown = painter.effectiveHead();
    for (int j = 0; j < painter.columns(); ++j) {
        double expected = 0.0;
        if (shown >= 0) {
            const attn::HeadResult &h = r.heads[std::size_t(shown)];
            expected = painter.showScores() ? h.scores(q, j) : h.weights(q, j);
        } else {
            for (const attn::HeadResult &h : r.heads)
                expected += (painter.showScores() ? h.scores(q, j) : h.weights(q, j)) / double(r.heads.size());
        }
        if (std::fabs(painter.valueAt(q, j) - expected) > 1e-12 * (1 + std::fabs(expected)))
            return QStringLiteral("heatmap cell (%1, %2) shows %3, expected %4").arg(q).arg(j).arg(painter.valueAt(q, j)).arg(expected);
    }
    const BarChartModel &bars = window().barChart()->model();
    if (bars.token != token || bars.query != q)
        return QStringLiteral("bar chart shows %1").arg(shortText(bars.token));
    if (bars.context.size() != std::size_t(r.output.cols()) || bars.embedding.size() != std::size_t(s.dModel()))
        return QStringLiteral("bar chart has %1/%2 values").arg(bars.embedding.size()).arg(bars.context.size());
    for (int d = 0; d < s.dModel(); ++d)
        if (bars.embedding[std::size_t(d)] != s.embeddings(q, d))
            return QStringLiteral("bar chart embedding d%1 is %2, not %3").arg(d).arg(bars.embedding[std::size_t(d)]).arg(s.embeddings(q, d));
    for (int d = 0; d < int(r.output.cols()); ++d)
        if (bars.context[std::size_t(d)] != r.output(q, d))
            return QStringLiteral("bar chart context d%1 is stale").arg(d);
    if (window().headsGrid()->tileCount() != s.attention.heads + 1)
        return QStringLiteral("%1 head tiles for %2 heads").arg(window().headsGrid()->tileCount()).arg(s.attention.heads);
    const int head = window().selectedHead();
    if (head < -1 || head >= s.attention.heads || window().heatmap()->head() != head
        || window().headsGrid()->selectedHead() != head)
        return QStringLiteral("selected head %1, heatmap %2, grid %3")
            .arg(head)
            .arg(window().heatmap()->head())
            .arg(window().headsGrid()->selectedHead());

    // The sentence field shows the session's text unless typing is still
    // waiting to be tokenized.
    QLineEdit *edit = window().sentenceEdit();
    const QString sentence = s.sentence.isEmpty() ? s.tokens.join(QLatin1Char(' ')) : s.sentence;
    if (!window().sentencePending() && edit->text() != sentence && edit->text() != s.sentence)
        return QStringLiteral("the sentence field shows %1, the session %2")
            .arg(shortText(edit->text()), shortText(sentence));

    // The editor shows the edited token's numbers (to the number box's 4 decimals).
    EmbeddingEditor *editor = window().editor();
    if (editor->editedToken() != q)
        return QStringLiteral("the editor edits token %1, the query is %2").arg(editor->editedToken()).arg(q);
    const int dims = shownDims();
    if (!editor->slider(dims - 1) || editor->slider(dims))
        return QStringLiteral("the editor does not show %1 rows").arg(dims);
    for (int d = 0; d < dims; ++d) {
        const double value = s.embeddings(q, d);
        const double shown = editor->spinBox(d)->value();
        const double expected = std::clamp(value, editor->spinBox(d)->minimum(), editor->spinBox(d)->maximum());
        if (std::fabs(shown - expected) > 0.5e-4 * (1 + 1e-9))
            return QStringLiteral("number box d%1 shows %2, the embedding is %3").arg(d).arg(shown).arg(value, 0, 'g', 17);
        const int position = int(std::lround(std::clamp(value / editor->sliderRange(), -1.0, 1.0) * 200));
        if (editor->slider(d)->value() != position)
            return QStringLiteral("slider d%1 at %2, expected %3").arg(d).arg(editor->slider(d)->value()).arg(position);
    }

    // The options panel shows the session's options.
    OptionsPanel *o = window().options();
    const attn::AttentionConfig &c = s.attention;
    if (o->headsBox()->value() != c.heads || o->headDimBox()->value() != attn::effectiveHeadDim(c, s.dModel())
        || o->causalBox()->isChecked() != c.causal || o->scaleBox()->isChecked() != c.scale
        || o->positionalBox()->isChecked() != (c.positionalEncoding == attn::PositionalEncoding::Sinusoidal)
        || o->projectionBox()->isChecked() != c.outputProjection
        || o->modeBox()->currentData().toInt() != int(c.mode))
        return QStringLiteral("the options panel does not show the session's options");
    return {};
}

void TestMonkey::monkey()
{
    const std::uint64_t seed = envNumber("ATTN_MONKEY_SEED", kDefaultSeed);
    const int count = int(envNumber("ATTN_MONKEY_ACTIONS", kDefaultActions));
    qInfo("monkey seed %llu, %d actions (replay with ATTN_MONKEY_SEED=%llu ATTN_MONKEY_ACTIONS=N)",
          static_cast<unsigned long long>(seed), count, static_cast<unsigned long long>(seed));
    m_rng = attn::SplitMix64(seed);

    m_window = new MainWindow(&m_doc);
    window().fileActions()->setInteractive(false);
    window().resize(1280, 800);
    window().show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    const QString before = checkInvariants();
    QVERIFY2(before.isEmpty(), qPrintable(before));

    std::vector<Action> list = actions();
    const std::size_t leaveLongText = list.size();
    list.push_back({"leave a long text", 0, [this] {
                        const QString text = randomWords(1 + below(12));
                        m_doc.setSentence(text);
                        return QStringLiteral("doc.setSentence(%1) after a long text").arg(shortText(text));
                    }});
    int totalWeight = 0;
    for (const Action &a : list)
        totalWeight += a.weight;
    std::deque<QString> recent; // the last actions, to show what led to a failure
    std::map<QString, std::pair<int, qint64>> done; // times run, nanoseconds spent
    QElapsedTimer timer;
    timer.start();
    qint64 checking = 0;
    for (int i = 0; i < count; ++i) {
        int roll = below(totalWeight);
        std::size_t k = 0;
        while (roll >= list[k].weight)
            roll -= list[k++].weight;
        // A long text makes every recompute slow: try a few actions on it,
        // then move on, so the whole run stays within a minute.
        if (m_doc.tokenCount() > 200 && chance(0.5))
            k = leaveLongText;
        std::snprintf(g_breadcrumb, sizeof g_breadcrumb,
                      "seed %llu, action %d (%s); replay with ATTN_MONKEY_SEED=%llu ATTN_MONKEY_ACTIONS=%d",
                      static_cast<unsigned long long>(seed), i, list[k].name, static_cast<unsigned long long>(seed),
                      i + 1);
        m_failure.clear();
        QString description;
        QElapsedTimer actionTimer;
        actionTimer.start();
        try {
            description = list[k].run();
        } catch (const std::exception &e) {
            m_failure = QStringLiteral("exception: %1").arg(QString::fromUtf8(e.what()));
        }
        // Big sessions compute on a worker thread; the views catch up when it ends.
        QElapsedTimer waited;
        waited.start();
        while (m_doc.isComputing() && waited.elapsed() < 120000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        const qint64 ranFor = actionTimer.nsecsElapsed();
        if (m_failure.isEmpty())
            m_failure = checkInvariants();
        checking += actionTimer.nsecsElapsed() - ranFor;
        auto &stats = done[QString::fromLatin1(list[k].name)];
        ++stats.first;
        stats.second += actionTimer.nsecsElapsed();
        recent.push_back(QStringLiteral("#%1 %2").arg(i).arg(description));
        if (recent.size() > 12)
            recent.pop_front();
        if (!m_failure.isEmpty()) {
            QStringList history(recent.begin(), recent.end());
            QFAIL(qPrintable(QStringLiteral("seed %1, action %2 (%3): %4\nreplay: ATTN_MONKEY_SEED=%1 "
                                            "ATTN_MONKEY_ACTIONS=%5\nlast actions:\n  %6")
                                 .arg(seed)
                                 .arg(i)
                                 .arg(description, m_failure)
                                 .arg(i + 1)
                                 .arg(history.join(QStringLiteral("\n  ")))));
        }
        if (i % 16 == 15)
            QCoreApplication::processEvents(); // paint now and then, as a user's screen would
    }
    QStringList summary;
    for (const auto &[name, stats] : done)
        summary << QStringLiteral("%1 ×%2 (%3 s)").arg(name).arg(stats.first).arg(stats.second / 1e9, 0, 'f', 1);
    qInfo("%d actions in %.1f s, %.1f s of it checking: %s", count, timer.elapsed() / 1000.0, checking / 1e9,
          qPrintable(summary.join(QStringLiteral(", "))));
}

QTEST_MAIN(TestMonkey)
#include "tst_monkey.moc"
