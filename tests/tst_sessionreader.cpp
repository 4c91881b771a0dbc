#include <QTest>

class TestSessionreader : public QObject
{
    Q_OBJECT
private slots:
    void placeholder() { QVERIFY(true); }
};

QTEST_MAIN(TestSessionreader)
#include "tst_sessionreader.moc"
