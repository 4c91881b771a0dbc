#include <QTest>

class TestEmbedding : public QObject
{
    Q_OBJECT
private slots:
    void placeholder() { QVERIFY(true); }
};

QTEST_MAIN(TestEmbedding)
#include "tst_embedding.moc"
