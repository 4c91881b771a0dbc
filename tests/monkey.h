#pragma once
// tst_monkey's test class, shared by its three sources: tst_monkey.cpp (set-up
// and the run), monkey_actions.cpp (the action table) and
// monkey_invariants.cpp (what must hold after every action).

#include "document.h"
#include "embeddingeditor.h"
#include "mainwindow.h"
#include "runtime/prng.h"
#include "sanitized.h"
#include "session/session.h"
#include "snapshot.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

constexpr std::uint64_t kDefaultSeed = 20240611;
#if ATTN_UNDER_ASAN
// AddressSanitizer makes each action about four times slower: 20,000 took
// 278 s of the sanitizer suite, near the test's timeout. The Release suite
// runs all 20,000.
constexpr int kDefaultActions = 5000;
#else
constexpr int kDefaultActions = 20000;
#endif
constexpr int kMaxHeads = 8;   // the monkey's caps keep every recompute fast
constexpr int kMaxHeadDim = 8;
constexpr int kMaxDModel = 16;

// At most 40 characters of a text, newlines and tabs made visible: for messages.
QString shortText(const QString &text);
// "head 2", or "the average" for nullopt: for messages.
QString headText(std::optional<int> head);

class TestMonkey : public QObject
{
    Q_OBJECT

    struct Action
    {
        const char *name;
        int weight;
        std::function<QString()> run; // does it, returns what it did
    };

    Document m_doc{attn::exampleSession()};
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
