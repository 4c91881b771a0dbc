#include <QTest>

class TestAttentionProperties : public QObject
{
    Q_OBJECT
private slots:
    void placeholder() { QVERIFY(true); }
};

QTEST_MAIN(TestAttentionProperties)
#include "tst_attention_properties.moc"
