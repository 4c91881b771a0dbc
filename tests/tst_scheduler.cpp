#include "computescheduler.h"
#include "document.h"
#include "lessons/examples.h"
#include "modeldocument.h"

#include <QSignalSpy>
#include <QThread>
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

    void jobsAreCancelledByANewerRequest()
    {
        // Any work goes through the same channels: a job sees its flag raised
        // by the next request of its channel, and only the newest answer is given.
        ComputeScheduler scheduler;
        QObject receiver;
        std::atomic<bool> sawCancel{false};
        std::vector<int> answered;
        auto slow = [&](int value) {
            return std::function<int(const attn::CancelFlag &)>([&sawCancel, value](const attn::CancelFlag &flag) {
                for (int i = 0; i < 5000 && !flag.load(); ++i)
                    QThread::msleep(1);
                if (flag.load())
                    sawCancel = true;
                return value;
            });
        };
        const std::function<void(const int &)> record = [&](const int &v) { answered.push_back(v); };
        scheduler.requestJob<int>(QStringLiteral("m"), slow(1), &receiver, record);
        QTest::qWait(20);
        scheduler.requestJob<int>(QStringLiteral("m"), std::function<int(const attn::CancelFlag &)>(
                                      [](const attn::CancelFlag &) { return 2; }), &receiver, record);
        QVERIFY(scheduler.isBusy(QStringLiteral("m")));
        QTRY_VERIFY_WITH_TIMEOUT(!scheduler.isBusy(QStringLiteral("m")), 10000);
        QVERIFY(sawCancel); // stopped early, not run to its end
        QCOMPARE(answered, std::vector<int>{2});
        QCOMPARE(scheduler.cancelledRuns(), 1);
    }

    void reportsComeInOrderBeforeTheAnswer()
    {
        // The job sends all five reports before it ends: they reach the
        // receiver in order, then the answer.
        ComputeScheduler scheduler;
        QObject receiver;
        std::vector<int> seen;
        using Job = std::function<int(const attn::CancelFlag &, const std::function<void(int)> &)>;
        const Job fiveReports = [](const attn::CancelFlag &, const std::function<void(int)> &report) {
            for (int i = 0; i < 5; ++i)
                report(i);
            return 100;
        };
        scheduler.requestJobWithProgress<int, int>(
            QStringLiteral("m"), fiveReports, &receiver, std::function<void(const int &)>([&](const int &v) { seen.push_back(v); }),
            std::function<void(const int &)>([&](const int &v) { seen.push_back(v); }));
        QTRY_VERIFY_WITH_TIMEOUT(!scheduler.isBusy(QStringLiteral("m")), 10000);
        QCOMPARE(seen, (std::vector<int>{0, 1, 2, 3, 4, 100}));

        // Cancelled while report 2 is handled: none after it arrives, though
        // the job sent them all, and no answer.
        seen.clear();
        scheduler.requestJobWithProgress<int, int>(
            QStringLiteral("m"), fiveReports, &receiver, std::function<void(const int &)>([&](const int &v) {
                seen.push_back(v);
                if (v == 2)
                    scheduler.cancel(QStringLiteral("m"));
            }),
            std::function<void(const int &)>([&](const int &v) { seen.push_back(v); }));
        QTRY_VERIFY_WITH_TIMEOUT(!scheduler.isBusy(QStringLiteral("m")), 10000);
        QCOMPARE(seen, (std::vector<int>{0, 1, 2}));
        QCOMPARE(scheduler.cancelledRuns(), 1);
    }

    void aJobThatThrowsCancelledGivesNoAnswer()
    {
        ComputeScheduler scheduler;
        QObject receiver;
        int calls = 0;
        scheduler.requestJob<int>(QStringLiteral("m"), std::function<int(const attn::CancelFlag &)>(
                                      [](const attn::CancelFlag &flag) {
                                          while (!flag.load())
                                              QThread::msleep(1);
                                          throw attn::Cancelled();
                                          return 0;
                                      }),
                                  &receiver, std::function<void(const int &)>([&](const int &) { ++calls; }));
        QTest::qWait(10);
        scheduler.cancel(QStringLiteral("m"));
        QTRY_VERIFY_WITH_TIMEOUT(!scheduler.isBusy(QStringLiteral("m")), 10000);
        QCOMPARE(calls, 0);
        QCOMPARE(scheduler.cancelledRuns(), 1);
    }

    void modelRunsGoThroughTheScheduler()
    {
        // Two texts in a row: the run for the first is cancelled, and only
        // the second's result (with its thumbnails and layer view) is shown.
        Document doc;
        ModelDocument *model = doc.model();
        model->open(QStringLiteral(ATTN_TEST_DATA "/../../resources/examples/models/induction"));
        QTRY_VERIFY_WITH_TIMEOUT(model->isOpen() && !doc.isComputing(), 20000);
        // A first whole result: until then the model's first run shows its
        // layers as they come (nothing shown for them to flicker over).
        model->setText(QStringLiteral("ab"));
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isComputing() && model->trace(), 20000);
        QSignalSpy results(model, &ModelDocument::resultChanged);
        const int before = doc.scheduler()->cancelledRuns();
        model->setText(QStringLiteral("abcabc"));
        QVERIFY(model->isComputing());
        model->setText(QStringLiteral("qmEjxBqmEjxB"));
        QTRY_VERIFY_WITH_TIMEOUT(!doc.isComputing(), 20000);
        QCOMPARE(doc.scheduler()->cancelledRuns(), before + 1);
        QCOMPARE(results.count(), 1);
        QCOMPARE(int(model->tokens().size()), 12);
        QVERIFY(model->gridLevels());
        QCOMPARE(int(model->gridLevels()->size()), model->config()->layers);
        QCOMPARE(model->gridLevels()->front().front().width(), 12); // one pixel per key
        QCOMPARE(int(model->snapshot()->result->heads.front().weights.rows()), 12);

        // Another layer's view: built (at once for a text this short) from the same trace.
        model->setLayer(1);
        QCOMPARE(model->snapshotLayer(), 1);
        QCOMPARE(model->snapshot()->result->inputs.rows(), 12);
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
