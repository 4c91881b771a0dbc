// A monkey on the real main window: tens of thousands of random user actions
// (clicks, drags, typing, keys, options, undo, bad files, saves) from a fixed
// seed, with the document's and the views' invariants checked after every one.
//
// Replay a failure: ATTN_MONKEY_SEED=<seed> ATTN_MONKEY_ACTIONS=<index + 1>
// (the failure message prints both). One thing is not replayable bit for bit:
// "New random weights" draws its seed from the system; the action's
// description records the seed it got.

#include "crashbreadcrumb.h"
#include "monkeyenvironment.h"
#include "monkey.h"

#include "fileactions.h"
#include "runtime/passthread.h"
#include "session/sessionio.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
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

QString headText(std::optional<int> head)
{
    return head ? QStringLiteral("head %1").arg(*head) : QStringLiteral("the average");
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

void TestMonkey::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    crashbreadcrumb::install("tst_monkey");
    monkeyenv::installQuietHandler();
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

void TestMonkey::monkey()
{
    const std::uint64_t seed = monkeyenv::envNumber("ATTN_MONKEY_SEED", kDefaultSeed);
    const int count = int(monkeyenv::envNumber("ATTN_MONKEY_ACTIONS", kDefaultActions));
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
        crashbreadcrumb::set("seed %llu, action %d (%s); replay with ATTN_MONKEY_SEED=%llu ATTN_MONKEY_ACTIONS=%d",
                             static_cast<unsigned long long>(seed), i, list[k].name,
                             static_cast<unsigned long long>(seed), i + 1);
        m_failure.clear();
        QString description;
        const long passesBefore = attn::passesOnMainThread();
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
        // Only passes the scheduler answers within a frame run on the GUI thread.
        if (m_failure.isEmpty() && attn::passesOnMainThread() != passesBefore
            && attn::largestPassOnMainThread() > Document::kSyncFlops)
            m_failure = QStringLiteral("a forward pass of %1 flops ran on the GUI thread (at most %2 may)")
                            .arg(attn::largestPassOnMainThread(), 0, 'g', 3)
                            .arg(Document::kSyncFlops, 0, 'g', 3);
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
    qInfo("%ld passes on the GUI thread, the largest %.3g flops (at most %.3g may run there)",
          attn::passesOnMainThread(), attn::largestPassOnMainThread(), Document::kSyncFlops);
}

QTEST_MAIN(TestMonkey)
