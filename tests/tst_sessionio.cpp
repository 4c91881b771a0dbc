#include <QTest>

class TestSessionio : public QObject
{
    Q_OBJECT
private slots:
    void placeholder() { QVERIFY(true); }
};

QTEST_MAIN(TestSessionio)
#include "tst_sessionio.moc"
