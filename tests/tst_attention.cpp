#include <QTest>

class TestAttention : public QObject
{
    Q_OBJECT
private slots:
    void placeholder() { QVERIFY(true); }
};

QTEST_MAIN(TestAttention)
#include "tst_attention.moc"
