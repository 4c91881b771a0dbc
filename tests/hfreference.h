#pragma once
// What tst_hflayout and tst_hfllamalayout share: reading a reference JSON
// that data/learn/hf_reference.py or hf_llama_reference.py wrote (what
// Hugging Face transformers would make of a model folder, computed without
// this program), and requiring this program's tokenizer and forward pass to
// give its token ids, last-row attention weights and next-token
// probabilities.

#include "io/safetensorsfile.h"
#include "model/forward.h"
#include "model/modelloader.h"
#include "tokenizers/tokenizerloader.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <cmath>
#include <limits>

namespace hfreference {

inline const QString kRepository = QStringLiteral(ATTN_TEST_DATA "/../..");
// The program computes in float32, the references in float64: they differ by
// about 1e-7 (the scripts print how far float32 is).
constexpr double kTolerance = 1e-5;

inline QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

inline QJsonObject jsonObject(const QString &path) { return QJsonDocument::fromJson(readAll(path)).object(); }

// The largest |a - b| over a reference list and this program's row.
inline double maxDifference(const QJsonArray &expected, const attn::RowVector<float> &actual)
{
    if (expected.size() != actual.size())
        return std::numeric_limits<double>::infinity();
    double worst = 0;
    for (qsizetype i = 0; i < expected.size(); ++i)
        worst = std::max(worst, std::abs(expected[i].toDouble() - double(actual[Eigen::Index(i)])));
    return worst;
}

inline std::vector<int> idsOf(const QJsonObject &text)
{
    std::vector<int> ids;
    for (const QJsonValue &id : text.value(QLatin1String("ids")).toArray())
        ids.push_back(id.toInt());
    return ids;
}

// In a test slot: every text of the reference's `model` tokenized by this
// program's reading of `folder` gives the reference's ids.
inline void compareTokenIds(const QJsonObject &model, const QString &folder)
{
    QString error;
    const QString modelType =
        jsonObject(folder + QStringLiteral("/config.json")).value(QLatin1String("model_type")).toString();
    const attn::TokenizerPtr tokenizer = attn::loadTokenizerFromFolder(folder, modelType, &error);
    QVERIFY2(tokenizer, qPrintable(error));
    const QJsonArray texts = model.value(QLatin1String("texts")).toArray();
    QVERIFY(texts.size() >= 2);
    for (const QJsonValue &value : texts) {
        const QJsonObject text = value.toObject();
        const QString sentence = text.value(QLatin1String("text")).toString();
        QVERIFY2(tokenizer->encodeIds(sentence) == idsOf(text), qPrintable(sentence));
    }
}

// In a test slot: every text of the reference's `model` through this
// program's reading of `folder` (its tokenizer by config.json's model_type).
inline void compareWithReference(const QJsonObject &model, const QString &folder)
{
    QString error;
    const attn::SharedModelParameters parameters = attn::loadModel(folder, &error);
    QVERIFY2(parameters, qPrintable(error));
    const attn::TokenizerPtr tokenizer = attn::loadTokenizerFromFolder(folder, parameters->config.modelType, &error);
    QVERIFY2(tokenizer, qPrintable(error));
    const QJsonArray texts = model.value(QLatin1String("texts")).toArray();
    QVERIFY(texts.size() >= 2);
    for (const QJsonValue &value : texts) {
        const QJsonObject text = value.toObject();
        const QString sentence = text.value(QLatin1String("text")).toString();
        const std::vector<int> ids = tokenizer->encodeIds(sentence);
        QVERIFY2(ids == idsOf(text), qPrintable(sentence));

        const attn::ModelTrace trace = attn::forward(*parameters, ids);
        const QJsonArray layers = text.value(QLatin1String("last_row_weights")).toArray();
        QCOMPARE(qsizetype(trace.layers.size()), layers.size());
        const Eigen::Index last = Eigen::Index(ids.size()) - 1;
        for (qsizetype l = 0; l < layers.size(); ++l) {
            const QJsonArray heads = layers[l].toArray();
            QCOMPARE(qsizetype(trace.layers[l].weights.size()), heads.size());
            for (qsizetype h = 0; h < heads.size(); ++h) {
                const attn::RowVector<float> row = trace.layers[l].weights[h].row(last);
                const double d = maxDifference(heads[h].toArray(), row);
                QVERIFY2(d <= kTolerance, qPrintable(QStringLiteral("%1: layer %2 head %3: %4").arg(sentence).arg(l).arg(h).arg(d)));
            }
        }
        QVERIFY(trace.nextToken);
        const attn::RowVector<float> &p = trace.nextToken->probabilities;
        const double d = maxDifference(text.value(QLatin1String("next_token_probabilities")).toArray(), p);
        QVERIFY2(d <= kTolerance, qPrintable(QStringLiteral("%1: next token: %2").arg(sentence).arg(d)));
        const QJsonArray top = text.value(QLatin1String("next_token_top10")).toArray();
        QCOMPARE(top.size(), 10);
        for (const QJsonValue &entry : top) {
            const int id = entry[QLatin1String("id")].toInt();
            QVERIFY(id >= 0 && id < p.size());
            QVERIFY(std::abs(entry[QLatin1String("probability")].toDouble() - double(p[id])) <= kTolerance);
        }
        QCOMPARE(attn::topPredictions(p, 1).front().first, top[0][QLatin1String("id")].toInt());
        QCOMPARE(tokenizer->idToText(top[0][QLatin1String("id")].toInt()), top[0][QLatin1String("token")].toString());
    }
}

// In a test slot: `folder`'s model.safetensors holds exactly the tensors the
// reference checked (`model`'s "tensors": name -> [dtype, shape]), and the
// `pt` metadata transformers requires.
inline void compareTensorLayout(const QJsonObject &model, const QString &folder)
{
    QString error;
    const std::optional<attn::SafetensorsFile> weights =
        attn::SafetensorsFile::open(folder + QStringLiteral("/model.safetensors"), &error);
    QVERIFY2(weights, qPrintable(error));
    QCOMPARE(weights->metadata().value(QStringLiteral("format")), QStringLiteral("pt"));
    const QJsonObject expected = model.value(QLatin1String("tensors")).toObject();
    QCOMPARE(qsizetype(weights->tensors().size()), expected.size());
    for (const attn::TensorInfo &tensor : weights->tensors()) {
        QVERIFY2(expected.contains(tensor.name), qPrintable(tensor.name));
        const QJsonArray dtypeShape = expected.value(tensor.name).toArray();
        QCOMPARE(dtypeShape[0].toString(), QStringLiteral("F32"));
        QVERIFY(tensor.dtype == attn::Dtype::F32);
        const QJsonArray shape = dtypeShape[1].toArray();
        QCOMPARE(qsizetype(tensor.shape.size()), shape.size());
        for (qsizetype i = 0; i < shape.size(); ++i)
            QCOMPARE(tensor.shape[std::size_t(i)], qint64(shape[i].toInt()));
    }
}

} // namespace hfreference
