// The model folders this program trains are what Hugging Face transformers
// loads and runs, checked without transformers: data/learn/hf_reference.py
// (numpy, written from transformers' GPT-2 sources, no code of this project)
// read both shipped folders as GPT2Config, GPT2LMHeadModel and GPT2Tokenizer
// would, found nothing transformers would do differently, and wrote
// data/learn/hf_reference.json. Here this program's tokenizer and forward
// pass must give the same ids, attention and next-token probabilities, and a
// folder saveModelFolder writes today from the same weights must hold the
// layout the reference checked and give the same numbers.

#include "hfreference.h"

#include "learn/modelwriter.h"
#include "learn/tasks.h"

#include <QTemporaryDir>

using namespace attn;
using namespace hfreference;

class TestHfLayout : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_reference = jsonObject(QStringLiteral(ATTN_TEST_DATA "/learn/hf_reference.json"));
        QCOMPARE(m_reference.value(QLatin1String("format")).toString(), QStringLiteral("attention-explorer-hf-reference"));
    }

    void shippedFolderRunsAsTransformers_data() { models(); }
    void shippedFolderRunsAsTransformers()
    {
        QFETCH(QString, name);
        const QJsonObject model = m_reference.value(QLatin1String("models")).toObject().value(name).toObject();
        QVERIFY2(model.value(QLatin1String("problems")).toArray().isEmpty(), "the reference found problems");
        compareWithReference(model, kRepository + QLatin1Char('/') + model.value(QLatin1String("folder")).toString());
    }

    // The shipped weights saved again by today's writer: the tensors
    // GPT2LMHeadModel expects, the tokenizer the reference read, the same
    // config, and the same numbers.
    void freshFolderHasTheCheckedLayout_data() { models(); }
    void freshFolderHasTheCheckedLayout()
    {
        QFETCH(QString, name);
        const QJsonObject model = m_reference.value(QLatin1String("models")).toObject().value(name).toObject();
        const QString shipped = kRepository + QLatin1Char('/') + model.value(QLatin1String("folder")).toString();
        QString error;
        const SharedModelParameters parameters = loadModel(shipped, &error);
        QVERIFY2(parameters, qPrintable(error));
        const bool induction = name == QLatin1String("induction");
        const std::optional<TrainingTask> task =
            TrainingTask::synthetic(induction ? TaskKind::Induction : TaskKind::Pronoun, induction ? 32 : 0, &error);
        QVERIFY2(task, qPrintable(error));
        QCOMPARE(task->vocab(), parameters->config.vocab);
        const QJsonObject shippedConfig = jsonObject(shipped + QStringLiteral("/config.json"));
        QTemporaryDir tmp;
        const QString fresh = tmp.filePath(QStringLiteral("fresh"));
        QVERIFY2(saveModelFolder(*parameters, task->symbols(),
                                 shippedConfig.value(QLatin1String("attention_explorer_training")).toObject(), fresh,
                                 &error),
                 qPrintable(error));

        for (const char *file : {"vocab.json", "merges.txt"})
            QVERIFY2(readAll(fresh + QLatin1Char('/') + QLatin1String(file))
                         == readAll(shipped + QLatin1Char('/') + QLatin1String(file)),
                     file);

        compareTensorLayout(model, fresh);
        if (QTest::currentTestFailed())
            return;

        QJsonObject freshConfig = jsonObject(fresh + QStringLiteral("/config.json"));
        const QJsonObject checked = model.value(QLatin1String("config")).toObject();
        for (auto it = checked.begin(); it != checked.end(); ++it)
            if (freshConfig.contains(it.key()))
                QVERIFY2(freshConfig.value(it.key()) == it.value(), qPrintable(it.key()));
        // GPT-2's bos/eos token (<|endoftext|>) is not among these models' tokens: none is named, so
        // generate() does not stop at an ordinary symbol.
        for (const char *key : {"bos_token_id", "eos_token_id"})
            QVERIFY2(freshConfig.contains(QLatin1String(key)) && freshConfig.value(QLatin1String(key)).isNull(), key);
        QCOMPARE(freshConfig, shippedConfig);

        compareWithReference(model, fresh);
    }

private:
    void models()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("induction") << QStringLiteral("induction");
        QTest::newRow("pronoun") << QStringLiteral("pronoun");
    }

    QJsonObject m_reference;
};

QTEST_GUILESS_MAIN(TestHfLayout)
#include "tst_hflayout.moc"
