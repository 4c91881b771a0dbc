#include <QTest>

class TestHeatmap : public QObject
{
    Q_OBJECT
private slots:
    void placeholder() { QVERIFY(true); }
};

QTEST_MAIN(TestHeatmap)
#include "tst_heatmap.moc"
