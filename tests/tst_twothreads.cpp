// runBoth: both pieces run, on two threads when it can, and whatever happens
// (an exception on either side, a call from within a piece, two callers at
// once) it returns only when both are done.

#include "runtime/twothreads.h"

#include <QTest>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

using attn::runBoth;

class TestTwoThreads : public QObject
{
    Q_OBJECT

private slots:
    void bothRunOnDifferentThreads()
    {
        std::thread::id first, second;
        for (int k = 0; k < 100; ++k) {
            runBoth([&] { first = std::this_thread::get_id(); }, [&] { second = std::this_thread::get_id(); });
            QCOMPARE(first, std::this_thread::get_id());
            QVERIFY(second != first);
        }
    }

    void theHelperThreadIsKept()
    {
        // One thread for every call was the old cost: the same helper answers each time.
        std::thread::id seen;
        runBoth([] {}, [&] { seen = std::this_thread::get_id(); });
        for (int k = 0; k < 20; ++k) {
            std::thread::id now;
            runBoth([] {}, [&] { now = std::this_thread::get_id(); });
            QCOMPARE(now, seen);
        }
    }

    void exceptionsReachTheCallerAfterBothEnd()
    {
        std::atomic<bool> secondEnded{false};
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, runBoth([] { throw std::runtime_error("first"); }, [&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            secondEnded = true;
        }));
        QVERIFY(secondEnded.load());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, runBoth([] {}, [] { throw std::logic_error("second"); }));
        int sum = 0; // the helper still works after both failures
        runBoth([&] { sum += 1; }, [&] { sum += 2; });
        QCOMPARE(sum, 3);
    }

    void callsWithinAPieceAndFromManyThreads()
    {
        std::atomic<long> total{0};
        const auto nested = [&] {
            runBoth([&] { total += 1; }, [&] { runBoth([&] { total += 10; }, [&] { total += 100; }); });
        };
        nested();
        QCOMPARE(total.load(), 111L);
        total = 0;
        std::vector<std::thread> callers;
        for (int t = 0; t < 4; ++t)
            callers.emplace_back([&] {
                for (int k = 0; k < 200; ++k)
                    nested();
            });
        for (std::thread &c : callers)
            c.join();
        QCOMPARE(total.load(), 4L * 200 * 111);
    }
};

QTEST_APPLESS_MAIN(TestTwoThreads)
#include "tst_twothreads.moc"
