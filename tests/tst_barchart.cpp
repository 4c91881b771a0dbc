#include <QTest>

class TestBarchart : public QObject
{
    Q_OBJECT
private slots:
    void placeholder() { QVERIFY(true); }
};

QTEST_MAIN(TestBarchart)
#include "tst_barchart.moc"
