// tst_modelmonkey's models (the trained example of the Examples menu, the
// tiny GPT-2 and BERT fixtures with their tokenizers) and the broken model
// folders it tries to open, each with the words its message must hold.

#include "modelfixtures.h"
#include "modelmonkey.h"
#include "tinygpt2tokenizer.h"

#include <QDir>
#include <QTest>
#include <algorithm>
#include <limits>

namespace {

QString tinyGpt2Files() { return fixtures::modelDir("gpt2-f32"); }

// config.json, model.safetensors and the tiny tokenizer of tst_modelwindow.
bool writeTinyGpt2(const QString &dir, bool config = true, bool weights = true, bool tokenizer = true)
{
    const QString from = tinyGpt2Files();
    if (!QDir().mkpath(dir))
        return false;
    if (config && !QFile::copy(from + QStringLiteral("/config.json"), dir + QStringLiteral("/config.json")))
        return false;
    if (weights && !QFile::copy(from + QStringLiteral("/model.safetensors"), dir + QStringLiteral("/model.safetensors")))
        return false;
    return !tokenizer
        || (tinygpt2::writeFile(dir + QStringLiteral("/vocab.json"), tinygpt2::vocabJson())
            && tinygpt2::writeFile(dir + QStringLiteral("/merges.txt"), tinygpt2::kMerges));
}

std::vector<fixtures::Tensor> tinyGpt2Tensors()
{
    QString error;
    const auto file = attn::SafetensorsFile::open(tinyGpt2Files() + QStringLiteral("/model.safetensors"), &error);
    if (!file)
        qFatal("%s", qPrintable(error));
    return fixtures::tensorsOf(*file);
}

QByteArray configWith(const char *key, const QJsonValue &value)
{
    QJsonObject config = fixtures::readJson(tinyGpt2Files() + QStringLiteral("/config.json"));
    config.insert(QLatin1String(key), value);
    return QJsonDocument(config).toJson();
}

} // namespace

void TestModelMonkey::makeModels()
{
    // The trained example: 2 layers x 4 heads, 32 symbols (a-z, A-F), 64 positions.
    m_models.push_back({QStringLiteral("induction"), QString(),
                        QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEF"), {}, QStringLiteral("GHXZ059 .é🍕\t"), false});
    // The tiny GPT-2: 2 x 3, vocabulary 29, 16 positions; the letters its tokenizer has below id 29.
    const QString gpt2 = m_dir.filePath(QStringLiteral("tiny-gpt2"));
    QVERIFY(writeTinyGpt2(gpt2));
    m_models.push_back({QStringLiteral("tiny-gpt2"), gpt2, QStringLiteral("sthecabdfgijkl!mnopru "), {},
                        QStringLiteral("qvwxyzQ9.é🍕"), false});
    // The tiny BERT: 2 x 4, not causal, WordPiece; unknown words become [UNK].
    const QString bert = m_dir.filePath(QStringLiteral("tiny-bert"));
    QVERIFY(QDir().mkpath(bert));
    const QString bertFiles = fixtures::modelDir("bert-f32");
    QVERIFY(QFile::copy(bertFiles + QStringLiteral("/config.json"), bert + QStringLiteral("/config.json")));
    QVERIFY(QFile::copy(bertFiles + QStringLiteral("/model.safetensors"), bert + QStringLiteral("/model.safetensors")));
    QVERIFY(QFile::copy(QStringLiteral(ATTN_TEST_DATA "/models/cli/bert-tokenizer/vocab.txt"),
                        bert + QStringLiteral("/vocab.txt")));
    m_models.push_back({QStringLiteral("tiny-bert"), bert, QString(),
                        QStringList{"a", "dog", "sat", "on", "mat", "is", "the", "it", "was", "big", "box", "robot",
                                    "moved", "heavy", "because", "and", "of", "to", "in", ".", "cat", "cats", "she",
                                    "moving", "[MASK]", "[MASK]"},
                        QStringLiteral("zebra Ünïcödé 🍕 42"), true});
}

void TestModelMonkey::makeBadFolders()
{
    // The whole message; DIR stands for the folder's path, NAME for its name.
    auto add = [this](const char *name, QString message) {
        const QString path = m_dir.filePath(QStringLiteral("bad/") + QLatin1String(name));
        message.replace(QLatin1String("NAME"), QLatin1String(name)).replace(QLatin1String("DIR"), path);
        m_bad.push_back({QLatin1String(name), path, message});
        return path;
    };
    QString dir = add("no-config", QStringLiteral("DIR: no config.json"));
    QVERIFY(writeTinyGpt2(dir, false));
    dir = add("config-not-json", QStringLiteral("config.json: not JSON (unterminated object at byte 1)"));
    QVERIFY(writeTinyGpt2(dir));
    QVERIFY(tinygpt2::writeFile(dir + QStringLiteral("/config.json"), "{"));
    dir = add("config-is-a-folder", QStringLiteral("DIR: config.json is a folder, not a file"));
    QVERIFY(writeTinyGpt2(dir, false));
    QVERIFY(QDir(dir).mkdir(QStringLiteral("config.json")));
    dir = add("llama-with-gpt2-keys", QStringLiteral("config.json: num_hidden_layers is missing"));
    QVERIFY(writeTinyGpt2(dir, false));
    QVERIFY(tinygpt2::writeFile(dir + QStringLiteral("/config.json"), configWith("model_type", QStringLiteral("llama"))));
    dir = add("heads-do-not-divide", QStringLiteral("config.json: n_head 5 does not divide n_embd 12"));
    QVERIFY(writeTinyGpt2(dir, false));
    QVERIFY(tinygpt2::writeFile(dir + QStringLiteral("/config.json"), configWith("n_head", 5)));
    dir = add("truncated-weights", QStringLiteral("model.safetensors: header length 2968 runs past the end of the file "
                                                  "(92 bytes follow the length)"));
    QVERIFY(writeTinyGpt2(dir, true, false));
    {
        QFile whole(tinyGpt2Files() + QStringLiteral("/model.safetensors"));
        QVERIFY(whole.open(QIODevice::ReadOnly));
        QVERIFY(tinygpt2::writeFile(dir + QStringLiteral("/model.safetensors"), whole.read(100)));
    }
    dir = add("empty-weights", QStringLiteral("model.safetensors: file is empty"));
    QVERIFY(writeTinyGpt2(dir, true, false));
    QVERIFY(tinygpt2::writeFile(dir + QStringLiteral("/model.safetensors"), QByteArray()));
    // Wrong shapes: one weight stored transposed, and a vocabulary config.json does not have.
    dir = add("transposed-weight", QStringLiteral("model.safetensors: tensor \"transformer.h.0.mlp.c_fc.weight\": "
                                                  "shape [20, 12], expected [12, 20]"));
    QVERIFY(writeTinyGpt2(dir, true, false));
    std::vector<fixtures::Tensor> tensors = tinyGpt2Tensors();
    for (fixtures::Tensor &t : tensors)
        if (t.name == QLatin1String("transformer.h.0.mlp.c_fc.weight"))
            t = fixtures::transposed(t);
    QVERIFY(tinygpt2::writeFile(dir + QStringLiteral("/model.safetensors"), fixtures::safetensorsBytes(tensors)));
    dir = add("vocabulary-differs", QStringLiteral("model.safetensors: tensor \"transformer.wte.weight\": "
                                                   "shape [29, 12], expected [30, 12]"));
    QVERIFY(writeTinyGpt2(dir, false));
    QVERIFY(tinygpt2::writeFile(dir + QStringLiteral("/config.json"), configWith("vocab_size", 30)));
    dir = add("missing-tensor", QStringLiteral("model.safetensors: no tensor \"transformer.wpe.weight\""));
    QVERIFY(writeTinyGpt2(dir, true, false));
    tensors = tinyGpt2Tensors();
    tensors.erase(std::remove_if(tensors.begin(), tensors.end(),
                                 [](const fixtures::Tensor &t) { return t.name == QLatin1String("transformer.wpe.weight"); }),
                  tensors.end());
    QVERIFY(tinygpt2::writeFile(dir + QStringLiteral("/model.safetensors"), fixtures::safetensorsBytes(tensors)));
    dir = add("nan-weight", QStringLiteral("model.safetensors: tensor \"transformer.h.0.attn.c_proj.bias\": element 3 [3] is "
                                           "NaN (weights must be finite)"));
    QVERIFY(writeTinyGpt2(dir, true, false));
    tensors = tinyGpt2Tensors();
    for (fixtures::Tensor &t : tensors)
        if (t.name == QLatin1String("transformer.h.0.attn.c_proj.bias"))
            qToLittleEndian<float>(std::numeric_limits<float>::quiet_NaN(), t.bytes.data() + 3 * sizeof(float));
    QVERIFY(tinygpt2::writeFile(dir + QStringLiteral("/model.safetensors"), fixtures::safetensorsBytes(tensors)));
    dir = add("no-tokenizer", QStringLiteral("NAME: no tokenizer: expected vocab.json and merges.txt, or tokenizer.json"));
    QVERIFY(writeTinyGpt2(dir, true, true, false));
    dir = add("vocab-not-json", QStringLiteral("vocab.json: not valid JSON at byte 6: unterminated object"));
    QVERIFY(writeTinyGpt2(dir));
    QVERIFY(tinygpt2::writeFile(dir + QStringLiteral("/vocab.json"), "{\"a\": "));
    add("missing-folder", QStringLiteral("DIR: no such folder"));
    dir = add("empty-folder", QStringLiteral("DIR: no config.json"));
    QVERIFY(QDir().mkpath(dir));
}

