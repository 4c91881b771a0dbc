// The Llama-style folders this program trains are what Hugging Face
// transformers loads and runs as LlamaForCausalLM, checked without
// transformers: data/learn/hf_llama_reference.py (numpy, written from
// transformers' Llama sources, no code of this project) read the shipped
// pronoun-llama (separate lm_head, two query heads per key/value head) and
// data/learn/llama-tied (trained by the program with --tie-embeddings, one
// key/value head for both query heads) as LlamaConfig, LlamaForCausalLM and
// PreTrainedTokenizerFast would, found nothing transformers would do
// differently, and wrote data/learn/hf_llama_reference.json. Here this
// program's tokenizer and forward pass must give the same ids, attention and
// next-token probabilities; the same weights saved again by today's writer,
// and a folder `attention-explorer train --family llama --tie-embeddings`
// writes now, must hold the layout, config and tokenizer the reference checked.

#include "hfreference.h"

#include "learn/modelwriter.h"
#include "learn/tasks.h"

#include <QProcess>
#include <QTemporaryDir>

using namespace attn;
using namespace hfreference;

namespace {

// The recipe data/learn/llama-tied was trained with (hf_llama_reference.py
// names it too), here for a few steps: the layout does not depend on them.
const QStringList kTiedRecipe = {"train", "--task", "pronoun", "--family", "llama", "--tie-embeddings",
                                 "--layers", "2", "--heads", "2", "--kv-heads", "1", "--d-model", "16",
                                 "--context", "16", "--seed", "5"};

// In a test slot: `folder`'s config.json says what the reference read in
// `model`'s, field by field (the fields LlamaConfig builds the model from).
void compareCheckedConfig(const QJsonObject &model, const QString &folder)
{
    const QJsonObject config = jsonObject(folder + QStringLiteral("/config.json"));
    const QJsonObject checked = model.value(QLatin1String("config")).toObject();
    QVERIFY(checked.size() >= 15);
    for (auto it = checked.begin(); it != checked.end(); ++it) {
        QVERIFY2(config.contains(it.key()), qPrintable(it.key()));
        const QJsonValue value = config.value(it.key());
        // JSON has one number type: 10000 and 10000.0, 1e-05 and 1e-5 are the same value.
        const bool same = value.isDouble() ? value.toDouble() == it.value().toDouble() : value == it.value();
        QVERIFY2(same, qPrintable(it.key()));
    }
}

// In a test slot: `a` and `b` hold the same tokenizer files, byte for byte.
void compareTokenizerFiles(const QString &a, const QString &b)
{
    for (const char *file : {"tokenizer.json", "tokenizer_config.json"}) {
        const QByteArray bytes = readAll(a + QLatin1Char('/') + QLatin1String(file));
        QVERIFY2(!bytes.isEmpty() && bytes == readAll(b + QLatin1Char('/') + QLatin1String(file)), file);
    }
}

} // namespace

class TestHfLlamaLayout : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_reference = jsonObject(QStringLiteral(ATTN_TEST_DATA "/learn/hf_llama_reference.json"));
        QCOMPARE(m_reference.value(QLatin1String("format")).toString(),
                 QStringLiteral("attention-explorer-hf-llama-reference"));
    }

    void folderRunsAsTransformers_data() { models(); }
    void folderRunsAsTransformers()
    {
        QFETCH(QString, name);
        const QJsonObject model = this->model(name);
        QVERIFY2(model.value(QLatin1String("problems")).toArray().isEmpty(), "the reference found problems");
        // The reference's texts tell each wrong convention apart (the script measured it).
        const QJsonObject traps = model.value(QLatin1String("traps")).toObject();
        QVERIFY(traps.contains(QLatin1String("interleaved")) && traps.contains(QLatin1String("theta-500000")));
        for (auto it = traps.begin(); it != traps.end(); ++it)
            QVERIFY2(it.value().toDouble() > 10 * kTolerance, qPrintable(it.key()));
        const QString folder = kRepository + QLatin1Char('/') + model.value(QLatin1String("folder")).toString();
        compareCheckedConfig(model, folder);
        compareTensorLayout(model, folder);
        compareWithReference(model, folder);
    }

    // The weights saved again by today's writer: the tensors LlamaForCausalLM
    // expects, the tokenizer the reference read, the same config, and the same numbers.
    void savedAgainHasTheCheckedLayout_data() { models(); }
    void savedAgainHasTheCheckedLayout()
    {
        QFETCH(QString, name);
        const QJsonObject model = this->model(name);
        const QString folder = kRepository + QLatin1Char('/') + model.value(QLatin1String("folder")).toString();
        QString error;
        const SharedModelParameters parameters = loadModel(folder, &error);
        QVERIFY2(parameters, qPrintable(error));
        const std::optional<TrainingTask> task = TrainingTask::synthetic(TaskKind::Pronoun, 0, &error);
        QVERIFY2(task, qPrintable(error));
        const TrainingTask withBeginning = task->startingWith(kBeginningOfText);
        QCOMPARE(withBeginning.vocab(), parameters->config.vocab);
        const QJsonObject config = jsonObject(folder + QStringLiteral("/config.json"));
        QTemporaryDir tmp;
        const QString fresh = tmp.filePath(QStringLiteral("fresh"));
        QVERIFY2(saveModelFolder(*parameters, withBeginning.symbols(),
                                 config.value(QLatin1String("attention_explorer_training")).toObject(), fresh, &error),
                 qPrintable(error));

        compareTokenizerFiles(fresh, folder);
        compareTensorLayout(model, fresh);
        compareCheckedConfig(model, fresh);
        QCOMPARE(jsonObject(fresh + QStringLiteral("/config.json")), config);
        if (QTest::currentTestFailed())
            return;
        compareWithReference(model, fresh);
    }

    // What `train --family llama --tie-embeddings` writes today: no lm_head,
    // the names, shapes, config and tokenizer the reference checked.
    void trainedNowHasTheCheckedLayout()
    {
        const QJsonObject model = this->model(QStringLiteral("llama-tied"));
        QTemporaryDir tmp;
        const QString fresh = tmp.filePath(QStringLiteral("trained"));
        QProcess train;
        train.start(QStringLiteral(ATTN_APP_PATH), kTiedRecipe + QStringList{"--steps", "3", "-o", fresh});
        QVERIFY(train.waitForFinished(60000));
        QVERIFY2(train.exitStatus() == QProcess::NormalExit && train.exitCode() == 0,
                 train.readAllStandardError().constData());

        compareTensorLayout(model, fresh);
        QVERIFY(!model.value(QLatin1String("tensors")).toObject().contains(QLatin1String("lm_head.weight")));
        compareCheckedConfig(model, fresh);
        const QString committed = kRepository + QLatin1Char('/') + model.value(QLatin1String("folder")).toString();
        compareTokenizerFiles(fresh, committed);
        // The whole config as the committed folder's, but for how long it trained and how well.
        QJsonObject trained = jsonObject(fresh + QStringLiteral("/config.json"));
        QJsonObject reference = jsonObject(committed + QStringLiteral("/config.json"));
        for (QJsonObject *config : {&trained, &reference}) {
            QJsonObject training = config->value(QLatin1String("attention_explorer_training")).toObject();
            for (const char *key : {"steps", "loss", "accuracy"})
                QVERIFY2(!training.take(QLatin1String(key)).isUndefined(), key);
            config->insert(QStringLiteral("attention_explorer_training"), training);
        }
        QCOMPARE(trained, reference);
        compareTokenIds(model, fresh);
    }

private:
    void models()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("pronoun-llama") << QStringLiteral("pronoun-llama");
        QTest::newRow("llama-tied") << QStringLiteral("llama-tied");
    }

    QJsonObject model(const QString &name) const
    {
        return m_reference.value(QLatin1String("models")).toObject().value(name).toObject();
    }

    QJsonObject m_reference;
};

QTEST_GUILESS_MAIN(TestHfLlamaLayout)
#include "tst_hfllamalayout.moc"
