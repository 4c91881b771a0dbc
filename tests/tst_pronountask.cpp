// The pronoun task: its sentences follow the rule the lesson relies on (the
// verb after a pronoun is the one only its noun does, and only that verb is
// counted), its word-level tokenizer gives every word back as one token
// through the real GPT-2 reader, and a short run learns it.
//
// The grammar's rule is written again here from the task's description, not
// read from the generator: "it" stands for the thing, "he" for the man, boy
// or king, "she" for the woman, girl or queen.

#include "learn/pronountask.h"
#include "learn/tasks.h"
#include "learn/tokenizerwriter.h"
#include "learn/trainer.h"
#include "tokenizers/tokenizerloader.h"

#include <QTest>
#include <map>
#include <set>

using namespace attn;

namespace {

const std::map<QByteArray, std::pair<QByteArray, QByteArray>> &nouns() // noun -> (pronoun, its verb)
{
    static const std::map<QByteArray, std::pair<QByteArray, QByteArray>> table = {
        {" boy", {" he", " laughed"}},   {" man", {" he", " smiled"}},     {" king", {" he", " nodded"}},
        {" girl", {" she", " waved"}},   {" woman", {" she", " sighed"}},  {" queen", {" she", " frowned"}},
        {" box", {" it", " fell"}},      {" ball", {" it", " rolled"}},    {" cup", {" it", " broke"}},
        {" door", {" it", " opened"}},   {" bell", {" it", " rang"}},      {" robot", {" it", " beeped"}},
        {" lamp", {" it", " flickered"}}, {" car", {" it", " stopped"}},
    };
    return table;
}

TrainingTask pronounTask()
{
    QString error;
    std::optional<TrainingTask> t = TrainingTask::synthetic(TaskKind::Pronoun, 0, &error);
    if (!t)
        qFatal("%s", qPrintable(error));
    return *t;
}

} // namespace

class TestPronounTask : public QObject
{
    Q_OBJECT
private slots:
    void sentencesFollowTheRule()
    {
        const TrainingTask task = pronounTask();
        const std::vector<QByteArray> &words = task.symbols();
        SplitMix64 rng(11);
        const TrainingBatch b = task.batch(rng, 300, 40);
        int sentences = 0, thingFirst = 0, itCount = 0;
        std::set<int> distances; // from the pronoun back to its noun
        for (int s = 0; s < b.sequences; ++s) {
            std::vector<QByteArray> sentence;
            for (int i = 0; i < b.length; ++i) {
                const std::size_t at = std::size_t(s * b.length + i);
                const QByteArray word = words[std::size_t(b.inputs[at])], next = words[std::size_t(b.targets[at])];
                if (i + 1 < b.length)
                    QCOMPARE(b.inputs[at + 1], b.targets[at]); // targets are the next inputs
                if (word == ".") {
                    sentence.clear();
                    QCOMPARE(b.weights[at], 0.0f);
                    continue;
                }
                sentence.push_back(word);
                const bool pronoun = word == " it" || word == " he" || word == " she";
                QCOMPARE(b.weights[at], pronoun ? 1.0f : 0.0f); // only the verb after a pronoun counts
                if (!pronoun)
                    continue;
                // The sentence's two nouns, and the one the pronoun stands for.
                std::vector<std::pair<int, QByteArray>> found;
                for (int k = 0; k < int(sentence.size()); ++k)
                    if (nouns().count(sentence[std::size_t(k)]))
                        found.push_back({k, sentence[std::size_t(k)]});
                QCOMPARE(int(found.size()), 2);
                const bool firstIsThing = nouns().at(found[0].second).first == " it";
                QVERIFY(firstIsThing != (nouns().at(found[1].second).first == " it")); // one person, one thing
                thingFirst += firstIsThing;
                int referents = 0;
                for (const auto &[position, noun] : found)
                    if (nouns().at(noun).first == word) {
                        ++referents;
                        QCOMPARE(next, nouns().at(noun).second);
                        distances.insert(int(sentence.size()) - 1 - position);
                    }
                QCOMPARE(referents, 1);
                itCount += word == " it";
                ++sentences;
            }
        }
        QVERIFY(sentences > 400);
        // Neither the nouns' order nor the pronoun's kind is fixed, nor the distance to the noun.
        QVERIFY(thingFirst > sentences / 3 && thingFirst < 2 * sentences / 3);
        QVERIFY(itCount > sentences / 3 && itCount < 2 * sentences / 3);
        QVERIFY(distances.size() >= 6);
        QCOMPARE(task.chance(), 1.0 / 14);
    }

    // Every token counted: the same sentences, drawn by the same calls, and
    // every target counts but the task's first word (which nothing before it
    // predicts); with the beginning token first, that word is the target of
    // the beginning token.
    void everyTokenCountsTheSameSentences()
    {
        const TrainingTask task = pronounTask();
        for (const bool beginning : {false, true}) {
            const TrainingTask base = beginning ? task.startingWith(kBeginningOfText) : task;
            const TrainingTask every = base.countingEveryToken();
            QVERIFY(every.countsEveryToken() && !base.countsEveryToken());
            SplitMix64 a(5), b(5);
            const TrainingBatch plain = base.batch(a, 20, 32), counted = every.batch(b, 20, 32);
            QCOMPARE(counted.inputs, plain.inputs);
            QCOMPARE(counted.targets, plain.targets);
            for (int s = 0; s < counted.sequences; ++s)
                for (int i = 0; i < counted.length; ++i) {
                    const std::size_t at = std::size_t(s * counted.length + i);
                    QCOMPARE(counted.weights[at], beginning && i == 0 ? 0.0f : 1.0f);
                }
            QCOMPARE(every.chance(), 1.0 / 58); // a guess among the task's own words
            QCOMPARE(every.vocab(), base.vocab());
        }
    }

    void tokenizerGivesBackEveryWord()
    {
        const std::vector<QByteArray> &words = pronoun::vocabulary();
        QString error;
        const std::optional<ByteLevelTokenizerFiles> files = byteLevelTokenizerFiles(words, &error);
        QVERIFY2(files, qPrintable(error));
        const TokenizerPtr tokenizer = parseGpt2Tokenizer(files->vocabJson, files->mergesTxt, &error);
        QVERIFY2(tokenizer, qPrintable(error));
        for (std::size_t id = 0; id < words.size(); ++id)
            QCOMPARE(tokenizer->encodeIds(QString::fromUtf8(words[id])), std::vector<int>{int(id)});
        // A text cut by hand into the task's words.
        const QList<QByteArray> cut = {"Today", ",", " the", " big", " girl", " saw", " the", " box", " again",
                                       " and", " it", " fell", ".", " The", " king", " hit", " the", " cup",
                                       " and", " he", " nodded", "."};
        std::vector<int> expected;
        QByteArray text;
        for (const QByteArray &w : cut) {
            expected.push_back(int(std::find(words.begin(), words.end(), w) - words.begin()));
            QVERIFY(expected.back() < int(words.size()));
            text += w;
        }
        QCOMPARE(tokenizer->encodeIds(QString::fromUtf8(text)), expected);
        // Part of a word, or a word the task never had, needs a token the model does not know.
        for (const char *outside : {" bo", " boxes", "the", " dog"}) {
            const std::vector<int> ids = tokenizer->encodeIds(QString::fromLatin1(outside));
            QVERIFY2(*std::max_element(ids.begin(), ids.end()) >= int(words.size()), outside);
        }
    }

    void unbuildableVocabulariesAreRefused_data()
    {
        QTest::addColumn<QList<QByteArray>>("symbols");
        QTest::addColumn<QString>("message");
        QTest::newRow("twice") << QList<QByteArray>{" a", "b", " a"} << "the task's token \"Ġa\" is empty or appears twice";
        QTest::newRow("space inside") << QList<QByteArray>{" a b"} << "the task's token \"ĠaĠb\" has a space inside";
        QTest::newRow("start inside") << QList<QByteArray>{"Ab", "bA"}
                                      << "the task's words cannot be merged back: \"A\" starts a word and occurs inside one";
    }

    void unbuildableVocabulariesAreRefused()
    {
        QFETCH(QList<QByteArray>, symbols);
        QFETCH(QString, message);
        QString error;
        QVERIFY(!byteLevelTokenizerFiles(std::vector<QByteArray>(symbols.begin(), symbols.end()), &error));
        QCOMPARE(error, message);
    }

    // A small model, a few hundred steps: well above chance (1/14) on the verbs.
    void aShortRunLearnsIt()
    {
        int vocab = 0;
        TrainerSettings s = defaultSettings(TaskKind::Pronoun, &vocab);
        s.dModel = 32;
        s.heads = 2;
        s.batch = 16;
        s.context = 24;
        s.steps = 300;
        Trainer trainer(pronounTask(), s);
        double accuracy = 0;
        for (int i = 0; i < s.steps; ++i)
            QVERIFY(trainer.step(nullptr, &accuracy));
        QVERIFY2(accuracy > 0.5, qPrintable(QString::number(accuracy)));
    }
};

QTEST_GUILESS_MAIN(TestPronounTask)
#include "tst_pronountask.moc"
