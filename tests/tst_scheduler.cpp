#include "computescheduler.h"
#include "document.h"
#include "examples.h"

#include <QSignalSpy>
#include <QTest>

// Every computation goes through one scheduler: small requests answered at
// once, large ones on a worker where the latest request wins and the older
// run is cancelled before it ends, not merely ignored afterwards.
class TestScheduler : public QObject
{
    Q_OBJECT

    // A session whose forward pass takes a while (many heads, long sentence).
    static attn::Session heavy(int tokens, double value)
    {
        attn::Session s = attn::exampleSession();
        s.tokens.clear();
        for (int i = 0; i < tokens; ++i)
            s.tokens << QStringLiteral("t%1").arg(i);
        s.sentence = s.tokens.join(' ');
        s.embeddings = Eigen::MatrixXd::Constant(tokens, 256, value);
        s.attention.heads = 64;
        s.attention.headDim = 64;
        s.weights = {};
        return s;
    }

private slots:
    void smallRequestsAreAnsweredAtOnce()
    {
        ComputeScheduler scheduler;
        QObject receiver;
        int calls = 0;
        const bool now = scheduler.request(QStringLiteral("a"), {attn::exampleSession(), attn::exampleSession()},
                                           &receiver, [&](const ComputeScheduler::Snapshots &v) {
                                               ++calls;
                                               QCOMPARE(int(v.size()), 2);
                                               QVERIFY(v[0]->result && v[1]->result);
                                           });
        QVERIFY(now);
        QCOMPARE(calls, 1);
        QVERIFY(!scheduler.isBusy(QStringLiteral("a")));
    }

    void theLatestRequestWinsAndCancelsTheOlderRun()
    {
        ComputeScheduler scheduler;
        scheduler.setSyncFlopLimit(0);
        QObject receiver;
        std::vector<double> answered;
        auto record = [&](const ComputeScheduler::Snapshots &v) {
            QVERIFY(v.front()->result);
            answered.push_back(v.front()->result->inputs(0, 0));
        };
        QVERIFY(!scheduler.request(QStringLiteral("a"), {heavy(1500, 0.1)}, &receiver, record));
        QTest::qWait(20); // the first run is under way
        QVERIFY(!scheduler.request(QStringLiteral("a"), {heavy(1500, 0.2)}, &receiver, record));
        QVERIFY(!scheduler.request(QStringLiteral("a"), {heavy(8, 0.3)}, &receiver, record));
        QVERIFY(scheduler.isBusy(QStringLiteral("a")));
        QTRY_VERIFY_WITH_TIMEOUT(!scheduler.isBusy(QStringLiteral("a")), 60000);
        // Only the newest answer is handed out; the middle one never started.
        QCOMPARE(answered, std::vector<double>{0.3});
        QCOMPARE(scheduler.cancelledRuns(), 1);
    }

    void aGoneReceiverGetsNothing()
    {
        ComputeScheduler scheduler;
        scheduler.setSyncFlopLimit(0);
        int calls = 0;
        {
            QObject receiver;
            scheduler.request(QStringLiteral("a"), {heavy(64, 0.1)}, &receiver,
                              [&](const ComputeScheduler::Snapshots &) { ++calls; });
        }
        QTRY_VERIFY_WITH_TIMEOUT(!scheduler.isBusy(QStringLiteral("a")), 60000);
        QCOMPARE(calls, 0);
    }

    void channelsDoNotCancelEachOther()
    {
        ComputeScheduler scheduler;
        scheduler.setSyncFlopLimit(0);
        QObject receiver;
        int a = 0, b = 0;
        scheduler.request(QStringLiteral("a"), {heavy(64, 0.1)}, &receiver, [&](const auto &) { ++a; });
        scheduler.request(QStringLiteral("b"), {heavy(64, 0.2)}, &receiver, [&](const auto &) { ++b; });
        QTRY_VERIFY_WITH_TIMEOUT(!scheduler.isBusy(QStringLiteral("a")) && !scheduler.isBusy(QStringLiteral("b")), 60000);
        QCOMPARE(a, 1);
        QCOMPARE(b, 1);
    }

    void aSmallAnswerIsNotOverwrittenByAnOlderLargeOne()
    {
        ComputeScheduler scheduler;
        QObject receiver;
        std::vector<int> rows;
        auto record = [&](const ComputeScheduler::Snapshots &v) { rows.push_back(int(v.front()->result->inputs.rows())); };
        scheduler.request(QStringLiteral("a"), {heavy(1500, 0.1)}, &receiver, record); // large: a worker
        scheduler.request(QStringLiteral("a"), {attn::exampleSession()}, &receiver, record); // small: at once
        QCOMPARE(rows, std::vector<int>{attn::exampleSession().tokenCount()});
        QTRY_VERIFY_WITH_TIMEOUT(!scheduler.isBusy(QStringLiteral("a")), 60000);
        QCOMPARE(rows.size(), std::size_t(1));
    }

    void documentEditsCancelTheStaleRun()
    {
        Document doc(heavy(1500, 0.1));
        doc.setSyncFlopLimit(0);
        QSignalSpy results(&doc, &Document::resultChanged);
        doc.setEmbeddingValue(0, 0, 0.5);
        QTest::qWait(20);
        doc.setEmbeddingValue(0, 0, 0.75);
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isComputing(), 60000);
        // The first run (the opening session) is cancelled; the first edit's
        // too when it had started before the second edit came.
        QVERIFY(doc.scheduler()->cancelledRuns() >= 1);
        QCOMPARE(results.count(), 1); // only the newest result reaches the views
        QCOMPARE(doc.result().inputs(0, 0), 0.75);
    }
};

QTEST_MAIN(TestScheduler)
#include "tst_scheduler.moc"
