// Writing sessions and results: exact round trips, and failed writes that
// leave the old file as it was.

#include "runtime/prng.h"
#include "formats/resultio.h"
#include "session/sessionio.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <csignal>
#include <limits>
#include <sys/resource.h>

using Eigen::MatrixXd;

Q_DECLARE_METATYPE(attn::Session)

namespace {

MatrixXd randomMatrix(std::uint64_t seed, int rows, int cols)
{
    attn::SplitMix64 rng(seed);
    MatrixXd m(rows, cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) // random mantissas over a wide range of exponents
            m(r, c) = rng.nextSymmetric(1.0) * std::pow(10.0, double(int(rng.next() % 40) - 20));
    return m;
}

attn::Session awkwardNumbers()
{
    attn::Session s;
    s.tokens = QStringList{"a", "b", "c"};
    s.embeddings.resize(3, 4);
    s.embeddings << 0.1 + 0.2, 1e-300, 1.0 / 3.0, -0.0,
                    std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(),
                    -std::numeric_limits<double>::min(), 2.0 / 3.0,
                    123456789.123456789, -1e21, 1e-7, 9007199254740993.0;
    s.attention.headDim = 2;
    s.attention.seed = (qint64(1) << 62) + 1; // beyond 2^53: must stay exact
    return s;
}

attn::Session explicitWeights()
{
    attn::Session s = attn::exampleSession();
    s.attention.heads = 2;
    s.attention.headDim = 2;
    s.attention.outputProjection = true;
    s.attention.causal = true;
    s.attention.positionalEncoding = attn::PositionalEncoding::Sinusoidal;
    s.attention.seed = -77;
    for (int h = 0; h < 2; ++h) {
        s.weights.query.push_back(randomMatrix(10 + h, 3, 2));
        s.weights.key.push_back(randomMatrix(20 + h, 3, 2));
        s.weights.value.push_back(randomMatrix(30 + h, 3, 2));
    }
    s.weights.output = randomMatrix(40, 4, 3);
    return s;
}

attn::Session withSource()
{
    attn::Session s = attn::exampleSession();
    s.sentence = QStringLiteral("quotes \" back\\slash\nnew line, tab\t and 🍕 über 我");
    s.tokens[0] = QStringLiteral("\"🍕\"");
    s.source = attn::SourceSequence{QStringList{"Ihre", "Reise"}, randomMatrix(7, 2, 3)};
    return s;
}

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

} // namespace

class TestSessionIo : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip_data();
    void roundTrip();
    void negativeZero();
    void writeFileFailures_data();
    void writeFileFailures();
    void failedWriteKeepsOldFile();
    void resultNumbersExact();
};

void TestSessionIo::roundTrip_data()
{
    QTest::addColumn<attn::Session>("session");
    QTest::newRow("example") << attn::exampleSession();
    QTest::newRow("awkward numbers") << awkwardNumbers();
    attn::Session random = attn::exampleSession();
    random.embeddings = randomMatrix(1, 6, 16);
    random.attention.mode = attn::Mode::Simplified;
    random.attention.heads = 3;
    random.attention.scale = false;
    QTest::newRow("random doubles, simplified") << random;
    QTest::newRow("explicit weights") << explicitWeights();
    QTest::newRow("source and awkward text") << withSource();
}

void TestSessionIo::roundTrip()
{
    QFETCH(attn::Session, session);
    const QByteArray json = attn::sessionToJson(session);
    QString error;
    const std::optional<attn::Session> back = attn::parseSession(json, QStringLiteral("x.attn.json"), &error);
    QVERIFY2(back.has_value(), qPrintable(error));
    QVERIFY(*back == session); // every double bit for bit (but the sign of zero)
    QCOMPARE(back->attention.seed, session.attention.seed);
    QCOMPARE(back->sentence, session.sentence);
    QCOMPARE(attn::sessionToJson(*back), json); // writing is stable

    // Through a file as well.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("s.attn.json"));
    QVERIFY2(attn::writeSession(path, session, &error), qPrintable(error));
    QCOMPARE(fileBytes(path), json);
    const std::optional<attn::Session> fromFile = attn::readSession(path, &error);
    QVERIFY2(fromFile.has_value(), qPrintable(error));
    QVERIFY(*fromFile == session);
}

void TestSessionIo::negativeZero()
{
    // Qt keeps a whole double as an integer, so -0.0 comes back as +0.0. It
    // compares equal, and nothing in attention depends on the sign of zero.
    attn::Session s = attn::exampleSession();
    s.embeddings(0, 0) = -0.0;
    QString error;
    const std::optional<attn::Session> back = attn::parseSession(attn::sessionToJson(s), QStringLiteral("z"), &error);
    QVERIFY(back.has_value());
    QCOMPARE(back->embeddings(0, 0), 0.0);
}

void TestSessionIo::writeFileFailures_data()
{
    QTest::addColumn<QString>("relativePath");
    QTest::addColumn<QString>("expectedStart");
    QTest::newRow("missing directory") << QStringLiteral("no/such/dir/out.attn.json")
                                       << QStringLiteral("out.attn.json: cannot write: ");
    QTest::newRow("an existing directory") << QStringLiteral("existing") << QStringLiteral("existing: cannot write: ");
    QTest::newRow("under a regular file") << QStringLiteral("old.attn.json/out.attn.json")
                                          << QStringLiteral("out.attn.json: cannot write: ");
}

void TestSessionIo::writeFileFailures()
{
    QFETCH(QString, relativePath);
    QFETCH(QString, expectedStart);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("existing")));
    const QString old = dir.filePath(QStringLiteral("old.attn.json"));
    QString error;
    QVERIFY(attn::writeFileAtomically(old, "old bytes\n", &error));
    const QStringList before = QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);

    QVERIFY(!attn::writeSession(dir.filePath(relativePath), attn::exampleSession(), &error));
    QVERIFY2(error.startsWith(expectedStart), qPrintable(error));
    QVERIFY(error.size() > expectedStart.size()); // says why
    QVERIFY(!error.contains(QLatin1Char('\n')));
    // Nothing new appeared (no temporary file left behind), nothing changed.
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), before);
    QVERIFY(QDir(dir.filePath(QStringLiteral("existing"))).isEmpty());
    QCOMPARE(fileBytes(old), QByteArray("old bytes\n"));
}

void TestSessionIo::failedWriteKeepsOldFile()
{
    // Make the write itself fail half-way, even for root: a file size limit
    // of 1 KB (the signal it raises is ignored, so write() reports EFBIG).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("keep.attn.json"));
    const QByteArray old = attn::sessionToJson(attn::exampleSession());
    QString error;
    QVERIFY(attn::writeFileAtomically(path, old, &error));

    attn::Session big = attn::exampleSession();
    big.embeddings = randomMatrix(3, 6, 200); // tens of kilobytes
    rlimit saved{};
    QCOMPARE(getrlimit(RLIMIT_FSIZE, &saved), 0);
    const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = saved;
    small.rlim_cur = 1024;
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
    const bool written = attn::writeSession(path, big, &error);
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previousHandler);

    QVERIFY(!written);
    QVERIFY2(error.startsWith(QStringLiteral("keep.attn.json: cannot write: ")), qPrintable(error));
    QCOMPARE(fileBytes(path), old);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"keep.attn.json"});
}

void TestSessionIo::resultNumbersExact()
{
    // The result file carries every intermediate with all 17 digits.
    attn::Session s = explicitWeights();
    s.source = attn::SourceSequence{QStringList{"x", "y"}, randomMatrix(5, 2, 3)};
    const attn::AttentionResult r = attn::computeSession(s);
    const QJsonObject root = QJsonDocument::fromJson(attn::resultToJson(s, r)).object();
    QCOMPARE(root.value("format").toString(), QStringLiteral("attention-explorer-result"));
    QCOMPARE(root.value("version").toInt(), 1);
    QCOMPARE(root.value("tokens").toVariant().toStringList(), s.tokens);
    auto same = [](const QJsonValue &json, const MatrixXd &m) {
        const QJsonArray rows = json.toArray();
        if (rows.size() != m.rows())
            return false;
        for (Eigen::Index i = 0; i < m.rows(); ++i) {
            const QJsonArray row = rows[i].toArray();
            if (row.size() != m.cols())
                return false;
            for (Eigen::Index j = 0; j < m.cols(); ++j)
                if (row[j].toDouble() != m(i, j))
                    return false;
        }
        return true;
    };
    QVERIFY(same(root.value("inputs"), r.inputs));
    QVERIFY(same(root.value("output"), r.output));
    const QJsonArray heads = root.value("heads").toArray();
    QCOMPARE(heads.size(), qsizetype(2));
    for (int h = 0; h < 2; ++h) {
        const QJsonObject head = heads[h].toObject();
        const attn::HeadResult &e = r.heads[std::size_t(h)];
        QVERIFY(same(head["queries"], e.queries));
        QVERIFY(same(head["keys"], e.keys));
        QVERIFY(same(head["values"], e.values));
        QVERIFY(same(head["scores"], e.scores.toDouble()));
        QVERIFY(same(head["weights"], e.weights.toDouble()));
        QVERIFY(same(head["context"], e.context));
    }
}

QTEST_APPLESS_MAIN(TestSessionIo)
#include "tst_sessionio.moc"
