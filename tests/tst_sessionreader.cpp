// Reading session files: every malformed file gives one exact line,
// "NAME: PATH: message", and valid files get the contract's defaults.

#include "session/sessionio.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kName = QStringLiteral("bad.attn.json");

// A session with the given fields after "format" and "version".
QByteArray session(const QByteArray &fields)
{
    return R"({"format": "attention-explorer-session", "version": 1, )" + fields + '}';
}

// Three tokens with d_model 3, then `more` fields.
QByteArray valid(const QByteArray &more = {})
{
    return session(R"("tokens": ["a", "b", "c"], "embeddings": [[1, 0, 0], [0, 1, 0], [0, 0, 1]])"
                   + (more.isEmpty() ? QByteArray() : ", " + more));
}

QByteArray manyTokens(int count)
{
    QJsonArray tokens, embeddings;
    for (int i = 0; i < count; ++i) {
        tokens.append(QStringLiteral("t%1").arg(i));
        embeddings.append(QJsonArray{double(i)});
    }
    const QJsonObject root{{"format", "attention-explorer-session"}, {"version", 1}, {"tokens", tokens},
                           {"embeddings", embeddings}};
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

QByteArray wideRow(int dModel)
{
    QByteArray row = "[";
    for (int i = 0; i < dModel; ++i)
        row += i ? ", 0" : "0";
    return session(R"("tokens": ["a"], "embeddings": [)" + row + "]]");
}

} // namespace

class TestSessionReader : public QObject
{
    Q_OBJECT
private slots:
    void malformed_data();
    void malformed();
    void defaults_data();
    void defaults();
    void explicitFieldsAreRead();
    void rotaryAndSharedHeadsAreRead();
    void numbersAtTheEdges();
    void exampleFile();
    void readSessionFailures();
    void oversizedFile();
};

void TestSessionReader::malformed_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("message"); // after "bad.attn.json: "

    // What Qt 6.4's parser itself refuses (its own words and byte offsets).
    QTest::newRow("not JSON") << QByteArray("hello") << "not valid JSON: illegal value at byte 1";
    QTest::newRow("empty file") << QByteArray(" \n") << "the file is empty, not a session";
    // Qt reports where it stopped: the end of a truncated text, the start of NaN.
    const QByteArray truncated = R"({"format": "attention-explorer-session", "version": 1,)";
    QTest::newRow("truncated") << truncated
                               << QStringLiteral("not valid JSON: unterminated object at byte %1").arg(truncated.size());
    const QByteArray nan = valid(R"("query": NaN)");
    QTest::newRow("NaN literal") << nan
                                 << QStringLiteral("not valid JSON: illegal number at byte %1").arg(nan.indexOf("NaN"));
    QTest::newRow("10,000 levels deep") << QByteArray(10000, '[') + QByteArray(10000, ']')
                                        << "not valid JSON: too deeply nested document at byte 1025";
    QTest::newRow("top-level array") << QByteArray("[1, 2]") << "expected a JSON object at the top level";

    QTest::newRow("missing format") << QByteArray(R"({"version": 1})")
                                    << "format: missing: this is not an Attention Explorer session";
    QTest::newRow("wrong format") << QByteArray(R"({"format": "attention-explorer-result", "version": 1})")
                                  << "format: expected \"attention-explorer-session\", got \"attention-explorer-result\"";
    // Found by fuzz_session: a line break inside a quoted value broke the one-line message.
    QTest::newRow("format with a line break")
        << QByteArray(R"({"format": "atten\n  tion", "version": 1})")
        << "format: expected \"attention-explorer-session\", got \"atten\\n  tion\"";
    QTest::newRow("mode over 40 characters")
        << session(R"("tokens": ["a"], "embeddings": [[1]], "attention": {"mode": "0123456789012345678901234567890123456789xyz"})")
        << "attention.mode: expected \"simplified\" or \"scaled-dot-product\", got \"0123456789012345678901234567890123456789…\"";
    QTest::newRow("format a number") << QByteArray(R"({"format": 1})") << "format: expected a string, got a number";
    QTest::newRow("missing version") << QByteArray(R"({"format": "attention-explorer-session"})") << "version: missing";
    QTest::newRow("version 2") << QByteArray(R"({"format": "attention-explorer-session", "version": 2})")
                               << "version: the file is version 2, but this build reads version 1 only; "
                                  "a newer Attention Explorer wrote it";
    QTest::newRow("version \"1\"") << QByteArray(R"({"format": "attention-explorer-session", "version": "1"})")
                                   << "version: expected a number, got a string";
    QTest::newRow("version 0") << QByteArray(R"({"format": "attention-explorer-session", "version": 0})")
                               << "version: expected 1, got 0";

    QTest::newRow("missing tokens") << session(R"("embeddings": [[1]])")
                                    << "tokens: missing (every session needs its tokens)";
    QTest::newRow("empty tokens") << session(R"("tokens": [], "embeddings": [])")
                                  << "tokens: expected at least 1 token, got none";
    QTest::newRow("token not a string") << session(R"("tokens": ["a", 2], "embeddings": [[1], [2]])")
                                        << "tokens[1]: expected a string, got a number";
    QTest::newRow("4097 tokens") << manyTokens(4097) << "tokens: 4097 tokens is more than the limit of 4096";
    QTest::newRow("sentence not a string") << valid(R"("sentence": ["a"])") << "sentence: expected a string, got a list";

    QTest::newRow("missing embeddings") << session(R"("tokens": ["a"])")
                                        << "embeddings: missing (every session needs its embeddings)";
    QTest::newRow("embeddings an object") << session(R"("tokens": ["a"], "embeddings": {})")
                                          << "embeddings: expected a list, got an object";
    QTest::newRow("embeddings ragged")
        << session(R"("tokens": ["a", "b", "c"], "embeddings": [[1, 2, 3], [4, 5, 6], [7, 8]])")
        << "embeddings[2]: expected 3 numbers, got 2";
    QTest::newRow("embeddings row count") << session(R"("tokens": ["a", "b", "c"], "embeddings": [[1], [2]])")
                                          << "embeddings: expected 3 rows (one per token), got 2";
    QTest::newRow("embeddings empty row") << session(R"("tokens": ["a"], "embeddings": [[]])")
                                          << "embeddings[0]: expected at least 1 number, got none";
    QTest::newRow("embeddings row not a list") << session(R"("tokens": ["a"], "embeddings": [3])")
                                               << "embeddings[0]: expected a list, got a number";
    QTest::newRow("embeddings with a string") << session(R"("tokens": ["a", "b"], "embeddings": [[1], ["2"]])")
                                              << "embeddings[1][0]: expected a number, got a string";
    QTest::newRow("embeddings with null") << session(R"("tokens": ["a"], "embeddings": [[1, 2, null]])")
                                          << "embeddings[0][2]: expected a number, got null";
    QTest::newRow("embeddings with true") << session(R"("tokens": ["a"], "embeddings": [[true]])")
                                          << "embeddings[0][0]: expected a number, got true/false";
    QTest::newRow("embeddings 1e999") << session(R"("tokens": ["a", "b"], "embeddings": [[1, 2], [3, 1e999]])")
                                      << "embeddings[1][1]: expected a finite number, got 1e999, too large to represent";
    QTest::newRow("embeddings -1E+400") << session(R"("tokens": ["a"], "embeddings": [[-1E+400]])")
                                        << "embeddings[0][0]: expected a finite number, got -1E+400, too large to represent";
    QTest::newRow("token 1e999") << session(R"("tokens": [1e999], "embeddings": [[1]])")
                                 << "tokens[0]: expected a string, got a number too large to represent";
    QTest::newRow("d_model 1025") << wideRow(1025) << "embeddings[0]: 1025 numbers is more than the limit of 1024";

    QTest::newRow("query out of range") << valid(R"("query": 3)") << "query: expected a whole number from 0 to 2, got 3";
    QTest::newRow("query negative") << valid(R"("query": -1)") << "query: expected a whole number from 0 to 2, got -1";
    QTest::newRow("query 1.5") << valid(R"("query": 1.5)") << "query: expected a whole number, got 1.5";
    QTest::newRow("query a string") << valid(R"("query": "1")") << "query: expected a number, got a string";

    QTest::newRow("attention a list") << valid(R"("attention": [])") << "attention: expected an object, got a list";
    QTest::newRow("unknown mode") << valid(R"("attention": {"mode": "linear"})")
                                  << "attention.mode: expected \"simplified\" or \"scaled-dot-product\", got \"linear\"";
    QTest::newRow("heads 0") << valid(R"("attention": {"heads": 0})")
                             << "attention.heads: expected a whole number from 1 to 64, got 0";
    QTest::newRow("heads 65") << valid(R"("attention": {"heads": 65})")
                              << "attention.heads: expected a whole number from 1 to 64, got 65";
    QTest::newRow("head_dim 0") << valid(R"("attention": {"head_dim": 0})")
                                << "attention.head_dim: expected a whole number from 1 to 1024, got 0";
    QTest::newRow("head_dim missing, 3 % 2") << valid(R"("attention": {"heads": 2})")
                                             << "attention.head_dim: missing, and d_model (3) is not divisible "
                                                "by heads (2): give head_dim";
    QTest::newRow("unknown positional_encoding") << valid(R"("attention": {"positional_encoding": "learned"})")
                                                 << "attention.positional_encoding: expected \"none\", "
                                                    "\"sinusoidal\" or \"rotary\", got \"learned\"";
    // Rotary positions and shared key/value heads (contract section 9).
    const QByteArray four = R"("tokens": ["a", "b"], "embeddings": [[1, 0, 0, 0], [0, 1, 0, 0]])";
    QTest::newRow("rotary, odd head_dim") << valid(R"("attention": {"positional_encoding": "rotary"})")
                                          << "attention.head_dim: rotary positions turn pairs of numbers: expected "
                                             "an even head_dim, got 3";
    QTest::newRow("rotary, head_dim 3 given")
        << session(four + R"(, "attention": {"head_dim": 3, "positional_encoding": "rotary"})")
        << "attention.head_dim: rotary positions turn pairs of numbers: expected an even head_dim, got 3";
    QTest::newRow("rotary, simplified, odd d_model")
        << valid(R"("attention": {"mode": "simplified", "positional_encoding": "rotary"})")
        << "attention.positional_encoding: rotary positions turn pairs of numbers, but simplified attention's heads "
           "are d_model = 3 numbers wide, an odd number";
    QTest::newRow("rope_theta 0") << session(four + R"(, "attention": {"positional_encoding": "rotary", "rope_theta": 0})")
                                  << "attention.rope_theta: expected a positive number (the base of the rotary angles, "
                                     "10000 by default), got 0";
    QTest::newRow("rope_theta negative")
        << session(four + R"(, "attention": {"positional_encoding": "rotary", "rope_theta": -10000})")
        << "attention.rope_theta: expected a positive number (the base of the rotary angles, 10000 by default), "
           "got -10000";
    QTest::newRow("rope_theta 1e999")
        << session(four + R"(, "attention": {"positional_encoding": "rotary", "rope_theta": 1e999})")
        << "attention.rope_theta: expected a finite number, got 1e999, too large to represent";
    QTest::newRow("rope_theta a string")
        << session(four + R"(, "attention": {"positional_encoding": "rotary", "rope_theta": "10000"})")
        << "attention.rope_theta: expected a number, got a string";
    QTest::newRow("kv_heads not dividing heads") << session(four + R"(, "attention": {"heads": 4, "kv_heads": 3})")
                                                 << "attention.kv_heads: expected a number that divides heads (4), got 3";
    QTest::newRow("kv_heads above heads") << session(four + R"(, "attention": {"heads": 2, "kv_heads": 4})")
                                          << "attention.kv_heads: expected a number that divides heads (2), got 4";
    QTest::newRow("kv_heads 0") << session(four + R"(, "attention": {"heads": 2, "kv_heads": 0})")
                                << "attention.kv_heads: expected a whole number from 1 to 64, got 0";
    QTest::newRow("kv_heads in simplified mode")
        << session(four + R"(, "attention": {"mode": "simplified", "kv_heads": 1})")
        << "attention.kv_heads: applies to scaled-dot-product attention only: simplified attention has no key or "
           "value matrices to share";
    const QByteArray w4x2 = "[[1, 0], [0, 1], [0, 0], [0, 0]]"; // d_model 4 x head_dim 2
    QTest::newRow("weights.key: one per query head, not per key/value head")
        << session(four + R"(, "attention": {"heads": 2, "kv_heads": 1}, "weights": {"key": [)" + w4x2 + ", " + w4x2
                   + "]}")
        << "weights.key: expected 1 matrix (one per key/value head), got 2";
    QTest::newRow("weights.value: too few for the key/value heads")
        << session(four + R"(, "attention": {"heads": 4, "head_dim": 2, "kv_heads": 2}, "weights": {"value": [)"
                   + w4x2 + "]}")
        << "weights.value: expected 2 matrices (one per key/value head), got 1";
    QTest::newRow("scale a string") << valid(R"("attention": {"scale": "yes"})")
                                    << "attention.scale: expected true or false, got a string";
    QTest::newRow("causal 1") << valid(R"("attention": {"causal": 1})")
                              << "attention.causal: expected true or false, got a number";
    QTest::newRow("seed 1.5") << valid(R"("attention": {"seed": 1.5})") << "attention.seed: expected a whole number, got 1.5";
    QTest::newRow("seed beyond 64 bits") << valid(R"("attention": {"seed": 1e19})")
                                         << "attention.seed: expected a whole number, got 1e+19";

    const QByteArray head3x1 = "[[1], [0], [0]]"; // d_model 3 x head_dim 1
    QTest::newRow("weights a list") << valid(R"("weights": [])") << "weights: expected an object, got a list";
    QTest::newRow("weights.query head count")
        << valid(R"("attention": {"head_dim": 1}, "weights": {"query": [)" + head3x1 + ", " + head3x1 + "]}")
        << "weights.query: expected 1 matrix (one per head), got 2";
    QTest::newRow("weights.query[0] rows") << valid(R"("attention": {"head_dim": 1}, "weights": {"query": [[[1], [0]]]})")
                                           << "weights.query[0]: expected 3 rows (d_model), got 2";
    QTest::newRow("weights.query[0][1] cols")
        << valid(R"("attention": {"head_dim": 1}, "weights": {"query": [[[1], [0, 2], [0]]]})")
        << "weights.query[0][1]: expected 1 numbers (head_dim), got 2";
    QTest::newRow("weights.value[0][2][0] null")
        << valid(R"("attention": {"head_dim": 1}, "weights": {"value": [[[1], [0], [null]]]})")
        << "weights.value[0][2][0]: expected a number, got null";
    QTest::newRow("weights.output rows")
        << valid(R"("attention": {"heads": 3, "head_dim": 1}, "weights": {"output": [[1, 0, 0], [0, 1, 0]]})")
        << "weights.output: expected 3 rows (heads x head_dim), got 2";
    QTest::newRow("weights.output cols")
        << valid(R"("attention": {"heads": 2, "head_dim": 1}, "weights": {"output": [[1, 0, 0], [0, 1]]})")
        << "weights.output[1]: expected 3 numbers (d_model), got 2";

    QTest::newRow("source not an object") << valid(R"("source": [])") << "source: expected an object, got a list";
    QTest::newRow("source missing tokens") << valid(R"("source": {"embeddings": [[1, 2, 3]]})") << "source.tokens: missing";
    QTest::newRow("source missing embeddings") << valid(R"("source": {"tokens": ["x"]})") << "source.embeddings: missing";
    QTest::newRow("source empty tokens") << valid(R"("source": {"tokens": [], "embeddings": []})")
                                         << "source.tokens: expected at least 1 token, got none";
    QTest::newRow("source wrong d_model") << valid(R"("source": {"tokens": ["x"], "embeddings": [[1, 2]]})")
                                          << "source.embeddings[0]: expected 3 numbers (d_model), got 2";
    QTest::newRow("source row count") << valid(R"("source": {"tokens": ["x", "y"], "embeddings": [[1, 2, 3]]})")
                                      << "source.embeddings: expected 2 rows (one per source token), got 1";
}

void TestSessionReader::malformed()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, message);
    QString error = QStringLiteral("untouched");
    const std::optional<attn::Session> s = attn::parseSession(json, kName, &error);
    QVERIFY(!s.has_value());
    QCOMPARE(error, kName + QStringLiteral(": ") + message);
    QVERIFY(!error.contains(QLatin1Char('\n')));
}

void TestSessionReader::defaults_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<int>("mode");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("headDim");
    QTest::addColumn<bool>("scale");
    QTest::addColumn<bool>("projection");

    const int sdp = int(attn::Mode::ScaledDotProduct), simple = int(attn::Mode::Simplified);
    const QByteArray four = R"("tokens": ["a", "b"], "embeddings": [[1, 2, 3, 4], [5, 6, 7, 8]])";
    QTest::newRow("no attention object") << session(four) << sdp << 1 << 4 << true << false;
    QTest::newRow("empty attention object") << session(four + R"(, "attention": {})") << sdp << 1 << 4 << true << false;
    QTest::newRow("2 heads: head_dim 2, projection on")
        << session(four + R"(, "attention": {"heads": 2})") << sdp << 2 << 2 << true << true;
    QTest::newRow("4 heads") << session(four + R"(, "attention": {"heads": 4})") << sdp << 4 << 1 << true << true;
    QTest::newRow("simplified: no scale, head_dim = d_model")
        << session(four + R"(, "attention": {"mode": "simplified"})") << simple << 1 << 4 << false << false;
    QTest::newRow("simplified, 3 heads: indivisible is fine")
        << session(four + R"(, "attention": {"mode": "simplified", "heads": 3})") << simple << 3 << 4 << false << true;
    QTest::newRow("explicit values win")
        << session(four + R"(, "attention": {"heads": 3, "head_dim": 5, "scale": false, "output_projection": false})")
        << sdp << 3 << 5 << false << false;
    QTest::newRow("simplified with scale on")
        << session(four + R"(, "attention": {"mode": "simplified", "scale": true, "output_projection": true})")
        << simple << 1 << 4 << true << true;
}

void TestSessionReader::defaults()
{
    QFETCH(QByteArray, json);
    QFETCH(int, mode);
    QFETCH(int, heads);
    QFETCH(int, headDim);
    QFETCH(bool, scale);
    QFETCH(bool, projection);
    QString error;
    const std::optional<attn::Session> s = attn::parseSession(json, kName, &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    QCOMPARE(int(s->attention.mode), mode);
    QCOMPARE(s->attention.heads, heads);
    QCOMPARE(s->attention.headDim, headDim);
    QCOMPARE(s->attention.scale, scale);
    QCOMPARE(s->attention.outputProjection, projection);
    QCOMPARE(s->attention.causal, false);
    QCOMPARE(s->attention.positionalEncoding, attn::PositionalEncoding::None);
    QCOMPARE(s->attention.seed, qint64(0));
    QCOMPARE(s->query, 0);
    QCOMPARE(s->sentence, QString());
    QVERIFY(!s->source.has_value());
    QVERIFY(s->weights == attn::ProjectionWeights());
    QCOMPARE(s->tokens, (QStringList{"a", "b"}));
    QCOMPARE(s->embeddings(1, 3), 8.0);
}

void TestSessionReader::explicitFieldsAreRead()
{
    const QByteArray json = session(R"(
        "sentence": "a b", "tokens": ["a", "b"], "embeddings": [[1, 2, 3], [4, 5, 6]], "query": 1,
        "attention": {"mode": "scaled-dot-product", "heads": 2, "head_dim": 1, "causal": true, "scale": false,
                      "positional_encoding": "sinusoidal", "output_projection": false, "seed": -42},
        "weights": {"query": [[[1], [2], [3]], [[4], [5], [6]]], "output": [[1, 0, 0], [0, 1, 0]]},
        "source": {"tokens": ["x"], "embeddings": [[7, 8, 9]]},
        "comment": "unknown fields are welcome")");
    QString error;
    const std::optional<attn::Session> s = attn::parseSession(json, kName, &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    QCOMPARE(s->sentence, QStringLiteral("a b"));
    QCOMPARE(s->query, 1);
    QCOMPARE(s->attention.heads, 2);
    QCOMPARE(s->attention.headDim, 1);
    QVERIFY(s->attention.causal);
    QVERIFY(!s->attention.scale);
    QCOMPARE(s->attention.positionalEncoding, attn::PositionalEncoding::Sinusoidal);
    QVERIFY(!s->attention.outputProjection);
    QCOMPARE(s->attention.seed, qint64(-42));
    QCOMPARE(int(s->weights.query.size()), 2);
    QCOMPARE(s->weights.query[1](2, 0), 6.0);
    QVERIFY(s->weights.key.empty());
    QCOMPARE(s->weights.output.rows(), Eigen::Index(2));
    QVERIFY(s->source.has_value());
    QCOMPARE(s->source->tokens, QStringList{"x"});
    QCOMPARE(s->source->embeddings(0, 2), 9.0);
}

void TestSessionReader::rotaryAndSharedHeadsAreRead()
{
    const QByteArray json = session(R"(
        "tokens": ["a", "b"], "embeddings": [[1, 2, 3, 4], [5, 6, 7, 8]],
        "attention": {"heads": 4, "head_dim": 2, "kv_heads": 2, "positional_encoding": "rotary", "rope_theta": 500},
        "weights": {"key": [[[1, 0], [0, 1], [0, 0], [0, 0]], [[0, 0], [0, 0], [1, 0], [0, 1]]]})");
    QString error;
    const std::optional<attn::Session> s = attn::parseSession(json, kName, &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    QCOMPARE(s->attention.positionalEncoding, attn::PositionalEncoding::Rotary);
    QCOMPARE(s->attention.ropeTheta, 500.0);
    QCOMPARE(s->attention.kvHeads, 2);
    QCOMPARE(s->attention.keyValueHeads(), 2);
    QCOMPARE(int(s->weights.key.size()), 2);
    QCOMPARE(s->weights.key[1](3, 1), 1.0);

    // Defaults: base 10000, one key/value head per head (kv_heads equal to heads says the same).
    const std::optional<attn::Session> plain = attn::parseSession(
        session(R"("tokens": ["a"], "embeddings": [[1, 2]], "attention": {"heads": 2, "head_dim": 2, "kv_heads": 2,
                   "positional_encoding": "rotary"})"),
        kName, &error);
    QVERIFY2(plain.has_value(), qPrintable(error));
    QCOMPARE(plain->attention.ropeTheta, 10000.0);
    QCOMPARE(plain->attention.kvHeads, 0);
    QCOMPARE(plain->attention.keyValueHeads(), 2);

    // What the writer writes reads back the same.
    const std::optional<attn::Session> again = attn::parseSession(attn::sessionToJson(*s), kName, &error);
    QVERIFY2(again.has_value(), qPrintable(error));
    QVERIFY(*again == *s);
    const QJsonObject written = QJsonDocument::fromJson(attn::sessionToJson(*s)).object()["attention"].toObject();
    QCOMPARE(written["positional_encoding"].toString(), QStringLiteral("rotary"));
    QCOMPARE(written["rope_theta"].toDouble(), 500.0);
    QCOMPARE(written["kv_heads"].toInt(), 2);
    // A session without either writes neither.
    const QJsonObject old = QJsonDocument::fromJson(attn::sessionToJson(attn::exampleSession())).object()["attention"].toObject();
    QVERIFY(!old.contains("rope_theta") && !old.contains("kv_heads"));
}

void TestSessionReader::numbersAtTheEdges()
{
    QString error;
    // A number too small for a double reads as 0 (Qt alone refuses it); the
    // smallest subnormal survives; a 64-bit seed stays exact beyond 2^53.
    const std::optional<attn::Session> s = attn::parseSession(
        session(R"("version": 1.0, "tokens": ["a"], "embeddings": [[1e-400, 5e-324, -0.5e-3]],
                   "attention": {"seed": 9007199254740993})"),
        kName, &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    QCOMPARE(s->embeddings(0, 0), 0.0);
    QCOMPARE(s->embeddings(0, 1), 5e-324);
    QCOMPARE(s->embeddings(0, 2), -0.0005);
    QCOMPARE(s->attention.seed, qint64(9007199254740993LL));

    const std::optional<attn::Session> big = attn::parseSession(
        valid(R"("attention": {"seed": -9223372036854775808})"), kName, &error);
    QVERIFY2(big.has_value(), qPrintable(error));
    QCOMPARE(big->attention.seed, std::numeric_limits<qint64>::min());
}

void TestSessionReader::exampleFile()
{
    QString error;
    const std::optional<attn::Session> s = attn::readSession(QStringLiteral(ATTN_TEST_DATA "/example.attn.json"), &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    QCOMPARE(s->tokens, attn::exampleSession().tokens);
    QVERIFY(s->embeddings == attn::exampleSession().embeddings);
    QCOMPARE(s->sentence, attn::exampleSession().sentence);
    QCOMPARE(s->query, 1);
    QCOMPARE(s->attention.mode, attn::Mode::Simplified);
    QCOMPARE(s->attention.scale, false);
}

void TestSessionReader::readSessionFailures()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    QVERIFY(!attn::readSession(dir.filePath(QStringLiteral("missing.attn.json")), &error));
    QCOMPARE(error, QStringLiteral("missing.attn.json: cannot open: No such file or directory"));

    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.attn.json")));
    QVERIFY(!attn::readSession(dir.filePath(QStringLiteral("folder.attn.json")), &error));
    QCOMPARE(error, QStringLiteral("folder.attn.json: is a folder, not a session file"));

    // The file name, not the whole path, names the file in a parse error.
    QFile bad(dir.filePath(QStringLiteral("ragged.attn.json")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(session(R"("tokens": ["a", "b"], "embeddings": [[1, 2], [3]])"));
    bad.close();
    QVERIFY(!attn::readSession(bad.fileName(), &error));
    QCOMPARE(error, QStringLiteral("ragged.attn.json: embeddings[1]: expected 2 numbers, got 1"));
}

void TestSessionReader::oversizedFile()
{
    // A sparse file: 257 MB long without using the disk. The size is checked
    // before anything is read.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile big(dir.filePath(QStringLiteral("huge.attn.json")));
    QVERIFY(big.open(QIODevice::WriteOnly));
    if (!big.resize(attn::kMaxSessionFileBytes + 1024 * 1024))
        QSKIP("this file system cannot make a 257 MB sparse file");
    big.close();
    QString error;
    QVERIFY(!attn::readSession(big.fileName(), &error));
    QCOMPARE(error, QStringLiteral("huge.attn.json: the file is 257 MB, more than the limit of 256 MB for a session"));
}

QTEST_APPLESS_MAIN(TestSessionReader)
#include "tst_sessionreader.moc"
