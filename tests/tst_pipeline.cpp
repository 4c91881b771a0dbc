#include <QTest>

class TestPipeline : public QObject
{
    Q_OBJECT
private slots:
    void placeholder() { QVERIFY(true); }
};

QTEST_MAIN(TestPipeline)
#include "tst_pipeline.moc"
