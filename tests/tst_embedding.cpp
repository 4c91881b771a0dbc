// Default embeddings (golden values), and keeping edited rows when the
// sentence or d_model changes.

#include "session/embedding.h"

#include <QTest>
#include <cmath>

using Eigen::MatrixXd;
using Eigen::VectorXd;

Q_DECLARE_METATYPE(VectorXd)

namespace {

VectorXd vec(std::initializer_list<double> values)
{
    VectorXd v(Eigen::Index(values.size()));
    Eigen::Index i = 0;
    for (double x : values)
        v(i++) = x;
    return v;
}

bool isHundredth(double v) { return std::fabs(v * 100.0 - std::round(v * 100.0)) < 1e-9; }

} // namespace

class TestEmbedding : public QObject
{
    Q_OBJECT
private slots:
    void golden_data();
    void golden();
    void rangeAndRounding();
    void growingKeepsPrefix();
    void carryOver_data();
    void carryOver();
    void carryOverNewWordsGetDefaults();
    void resize_data();
    void resize();
};

void TestEmbedding::golden_data()
{
    // Recorded once from this build. The generator (SplitMix64 over FNV-1a of
    // the UTF-8 text) is fully specified, so every platform must agree.
    QTest::addColumn<QString>("word");
    QTest::addColumn<VectorXd>("expected");
    QTest::newRow("Your") << QStringLiteral("Your") << vec({0.83, -0.11, 0.43, -0.19, 0.46, -0.71});
    QTest::newRow("journey") << QStringLiteral("journey") << vec({-0.68, -0.17, -0.11, 0.75, 0.31, -0.94});
    QTest::newRow("step") << QStringLiteral("step") << vec({0.17, -0.90, -0.51, -0.83, 0.30, 0.14});
    QTest::newRow("empty") << QString() << vec({0.12, -0.25, -0.90, -0.14, 0.77, 0.74});
    QTest::newRow("café") << QString::fromUtf8("caf\u00e9") << vec({-0.48, -0.11, 0.39, -0.83, 0.11, 0.60});
    QTest::newRow("我") << QString::fromUtf8("我") << vec({-0.39, -0.64, 0.34, 0.55, -0.54, 0.73});
}

void TestEmbedding::golden()
{
    QFETCH(QString, word);
    QFETCH(VectorXd, expected);
    const VectorXd v = attn::defaultEmbedding(word, int(expected.size()));
    QCOMPARE(v.size(), expected.size());
    for (Eigen::Index k = 0; k < v.size(); ++k) {
        QCOMPARE(v(k), expected(k)); // both are round(x * 100) / 100: bit-identical
        QCOMPARE(attn::defaultEmbeddingValue(word, int(k)), expected(k));
    }
    QVERIFY(attn::defaultEmbedding(word, 6) == attn::defaultEmbedding(word, 6)); // deterministic
}

void TestEmbedding::rangeAndRounding()
{
    QStringList words{"a", "b", "the", "attention", "Attention", "ATTENTION", "42", ",", "日本", "🍕"};
    for (int i = 0; i < 40; ++i) // enough values that some round to zero
        words << QStringLiteral("w%1").arg(i);
    QSet<QString> distinctRows;
    for (const QString &w : words) {
        const VectorXd v = attn::defaultEmbedding(w, 256);
        for (Eigen::Index k = 0; k < v.size(); ++k) {
            QVERIFY2(v(k) >= -1.0 && v(k) <= 1.0, qPrintable(w));
            QVERIFY2(v(k) != 0.0 || !std::signbit(v(k)), qPrintable(w)); // never shows "-0.00"
            QVERIFY2(isHundredth(v(k)), qPrintable(QStringLiteral("%1[%2] = %3").arg(w).arg(k).arg(v(k), 0, 'g', 17)));
        }
        // Different words get different vectors, and not a constant one.
        QVERIFY(v.maxCoeff() - v.minCoeff() > 0.5);
        QString key;
        for (Eigen::Index k = 0; k < 8; ++k)
            key += QString::number(v(k)) + ' ';
        distinctRows.insert(key);
    }
    QCOMPARE(distinctRows.size(), int(words.size()));
}

void TestEmbedding::growingKeepsPrefix()
{
    const VectorXd small = attn::defaultEmbedding(QStringLiteral("journey"), 3);
    const VectorXd big = attn::defaultEmbedding(QStringLiteral("journey"), 64);
    QVERIFY(big.head(3) == small);
    QCOMPARE(attn::defaultEmbedding(QStringLiteral("x"), 0).size(), Eigen::Index(0));
}

void TestEmbedding::carryOver_data()
{
    // Old sentence: "the cat saw the dog" with rows 1..5 (row i filled with i + 1).
    QTest::addColumn<QStringList>("newTokens");
    QTest::addColumn<QList<int>>("oldRow"); // which old row each new token keeps; -1: a default
    QTest::newRow("same sentence") << QStringList{"the", "cat", "saw", "the", "dog"} << QList<int>{0, 1, 2, 3, 4};
    QTest::newRow("word removed") << QStringList{"the", "cat", "the", "dog"} << QList<int>{0, 1, 3, 4};
    QTest::newRow("reordered") << QStringList{"dog", "saw", "cat"} << QList<int>{4, 2, 1};
    QTest::newRow("repeated: k-th takes k-th") << QStringList{"the", "the"} << QList<int>{0, 3};
    QTest::newRow("more repeats than before: last one")
        << QStringList{"the", "the", "the", "cat", "cat"} << QList<int>{0, 3, 3, 1, 1};
    QTest::newRow("new word in the middle") << QStringList{"the", "big", "cat"} << QList<int>{0, -1, 1};
    QTest::newRow("case matters") << QStringList{"The", "cat"} << QList<int>{-1, 1};
    QTest::newRow("all new") << QStringList{"hello", "world"} << QList<int>{-1, -1};
    QTest::newRow("empty") << QStringList{} << QList<int>{};
}

void TestEmbedding::carryOver()
{
    QFETCH(QStringList, newTokens);
    QFETCH(QList<int>, oldRow);
    const QStringList oldTokens{"the", "cat", "saw", "the", "dog"};
    MatrixXd old(5, 4);
    for (int i = 0; i < 5; ++i)
        old.row(i).setConstant(i + 1.0);
    old(3, 2) = 0.125; // the second "the" differs from the first one

    const MatrixXd out = attn::carryOverEmbeddings(oldTokens, old, newTokens);
    QCOMPARE(out.rows(), Eigen::Index(newTokens.size()));
    QCOMPARE(out.cols(), Eigen::Index(4));
    for (int i = 0; i < newTokens.size(); ++i) {
        const VectorXd expected = oldRow[i] >= 0 ? VectorXd(old.row(oldRow[i]).transpose())
                                                 : attn::defaultEmbedding(newTokens[i], 4);
        QVERIFY2(VectorXd(out.row(i).transpose()) == expected, qPrintable(newTokens[i]));
    }
}

void TestEmbedding::carryOverNewWordsGetDefaults()
{
    // Fewer embedding rows than tokens: the tokens without a row count as new.
    MatrixXd old(1, 3);
    old << 0.5, 0.5, 0.5;
    const MatrixXd out = attn::carryOverEmbeddings({"a", "b"}, old, {"b", "a"});
    QVERIFY(VectorXd(out.row(0).transpose()) == attn::defaultEmbedding(QStringLiteral("b"), 3));
    QVERIFY(VectorXd(out.row(1).transpose()) == VectorXd::Constant(3, 0.5));
}

void TestEmbedding::resize_data()
{
    QTest::addColumn<int>("dModel");
    QTest::newRow("grow 3 -> 5") << 5;
    QTest::newRow("same 3") << 3;
    QTest::newRow("shrink 3 -> 2") << 2;
    QTest::newRow("shrink 3 -> 1") << 1;
    QTest::newRow("grow 3 -> 1024") << 1024;
}

void TestEmbedding::resize()
{
    QFETCH(int, dModel);
    const QStringList tokens{"one", "two"};
    MatrixXd e(2, 3);
    e << 0.1, 0.2, 0.3, -0.4, -0.5, -0.6;
    const MatrixXd out = attn::resizeEmbeddings(tokens, e, dModel);
    QCOMPARE(out.rows(), Eigen::Index(2));
    QCOMPARE(out.cols(), Eigen::Index(dModel));
    const int keep = std::min(3, dModel);
    QVERIFY(out.leftCols(keep) == e.leftCols(keep));
    for (int i = 0; i < 2; ++i)
        for (int k = keep; k < dModel; ++k)
            QCOMPARE(out(i, k), attn::defaultEmbeddingValue(tokens[i], k));
    // Shrinking and growing back restores the defaults, not the edits.
    if (dModel < 3) {
        const MatrixXd back = attn::resizeEmbeddings(tokens, out, 3);
        QCOMPARE(back(0, 2), attn::defaultEmbeddingValue(QStringLiteral("one"), 2));
    }
}

QTEST_APPLESS_MAIN(TestEmbedding)
#include "tst_embedding.moc"
