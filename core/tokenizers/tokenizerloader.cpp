#include "tokenizerloader.h"

#include "bpetokenizer.h"
#include "tokenizerparsing.h"
#include "wordpiecetokenizer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringDecoder>

namespace attn {

using namespace tokenizerparsing;

namespace {

const QString kEndOfText = QStringLiteral("<|endoftext|>");

// Calls `line(number, text)` for each line of a text file, without its "\n"
// or "\r\n" (the empty string after a final newline is not a line), one at a
// time so that a file of newlines cannot fill the memory. At most `maxLines`.
template<typename LineFn>
bool forEachLine(const QByteArray &bytes, const QString &name, qsizetype maxLines, QString *error, LineFn line)
{
    qsizetype start = 0;
    for (qsizetype number = 1; start < bytes.size(); ++number) {
        if (number > maxLines) {
            *error = QStringLiteral("%1: more than %2 lines").arg(name).arg(maxLines);
            return false;
        }
        qsizetype end = bytes.indexOf('\n', start);
        if (end < 0)
            end = bytes.size();
        const qsizetype length = end - start - (end > start && bytes[end - 1] == '\r' ? 1 : 0);
        QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        const QString text = decoder(QByteArrayView(bytes.constData() + start, length));
        if (decoder.hasError()) {
            *error = QStringLiteral("%1: line %2: not valid UTF-8").arg(name).arg(number);
            return false;
        }
        if (!line(number, text))
            return false;
        start = end + 1;
    }
    return true;
}

// A special token's name in tokenizer_config.json: a string, or an
// AddedToken object with "content".
bool specialName(const QJsonObject &config, const QString &key, const QString &name, QString *value, QString *error)
{
    const QJsonValue v = config.value(key);
    if (v.isUndefined() || v.isNull())
        return true;
    const QJsonValue content = v.isObject() ? v.toObject().value(QStringLiteral("content")) : v;
    if (!content.isString() || content.toString().isEmpty()) {
        *error = QStringLiteral("%1: %2: expected a token such as \"[UNK]\", got %3").arg(name, key, typeName(content));
        return false;
    }
    *value = content.toString();
    return true;
}

bool boolField(const QJsonObject &config, const QString &key, const QString &name, bool *value, QString *error)
{
    const QJsonValue v = config.value(key);
    if (v.isUndefined())
        return true;
    if (!v.isBool()) {
        *error = QStringLiteral("%1: %2: expected true/false, got %3").arg(name, key, typeName(v));
        return false;
    }
    *value = v.toBool();
    return true;
}

} // namespace

TokenizerPtr parseGpt2Tokenizer(const QByteArray &vocabJson, const QByteArray &mergesTxt, QString *error,
                                const QString &vocabName, const QString &mergesName)
{
    QJsonObject object;
    QStringList vocab;
    if (!parseJsonObject(vocabJson, vocabName, &object, error) || !idTable(entriesOf(object), vocabName, &vocab, error))
        return nullptr;

    std::vector<MergeText> merges;
    const bool linesOk = forEachLine(mergesTxt, mergesName, kMaxMerges, error, [&](qsizetype number, const QString &line) {
        if ((number == 1 && line.startsWith(QLatin1String("#version"))) || line.trimmed().isEmpty())
            return true;
        const QStringList parts = line.split(QLatin1Char(' '));
        const QString where = QStringLiteral("%1: line %2").arg(mergesName).arg(number);
        if (parts.size() != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
            *error = QStringLiteral("%1: expected two symbols separated by one space, got %2").arg(where, quoted(line));
            return false;
        }
        merges.push_back({parts[0], parts[1], number});
        return true;
    });
    if (!linesOk)
        return nullptr;
    std::array<int, 256> byteIds{};
    std::vector<BpeTokenizer::Merge> resolved;
    if (!buildBpe(vocab, merges, mergesName + QStringLiteral(": line %1"), vocabName, &byteIds, &resolved, error))
        return nullptr;

    AddedTokens added;
    SpecialTokenIds special;
    if (const int id = int(vocab.indexOf(kEndOfText)); id >= 0) {
        added.add({kEndOfText, id});
        special.bos = special.eos = id;
    }
    return std::make_shared<BpeTokenizer>(vocab, byteIds, resolved, added, special);
}

TokenizerPtr parseBertTokenizer(const QByteArray &vocabTxt, const QByteArray &configJson, QString *error,
                                const QString &vocabName, const QString &configName)
{
    BasicTokenizerOptions options;
    QString names[5] = {QStringLiteral("[UNK]"), QStringLiteral("[CLS]"), QStringLiteral("[SEP]"),
                        QStringLiteral("[MASK]"), QStringLiteral("[PAD]")};
    const QString keys[5] = {QStringLiteral("unk_token"), QStringLiteral("cls_token"), QStringLiteral("sep_token"),
                             QStringLiteral("mask_token"), QStringLiteral("pad_token")};
    if (!configJson.isNull()) {
        QJsonObject config;
        if (!parseJsonObject(configJson, configName, &config, error)
            || !boolField(config, QStringLiteral("do_lower_case"), configName, &options.lowerCase, error)
            || !boolField(config, QStringLiteral("tokenize_chinese_chars"), configName, &options.spaceOutChinese, error))
            return nullptr;
        const QJsonValue accents = config.value(QStringLiteral("strip_accents"));
        if (accents.isBool()) {
            options.accents = accents.toBool() ? BasicTokenizerOptions::Accents::Strip : BasicTokenizerOptions::Accents::Keep;
        } else if (!accents.isUndefined() && !accents.isNull()) {
            *error = QStringLiteral("%1: strip_accents: expected true/false or null, got %2").arg(configName, typeName(accents));
            return nullptr;
        }
        for (int k = 0; k < 5; ++k)
            if (!specialName(config, keys[k], configName, &names[k], error))
                return nullptr;
    }

    QStringList vocab;
    if (!forEachLine(vocabTxt, vocabName, kMaxVocabulary, error, [&](qsizetype, const QString &line) {
            vocab.append(line);
            return true;
        }))
        return nullptr;
    if (vocab.isEmpty()) {
        *error = vocabName + QStringLiteral(": empty");
        return nullptr;
    }
    const QHash<QString, int> ids = lookupTable(vocab);
    int found[5];
    for (int k = 0; k < 5; ++k) {
        found[k] = ids.value(names[k], -1);
        if (found[k] < 0 && k < 3) {
            *error = QStringLiteral("%1: no %2 token").arg(vocabName, quoted(names[k]));
            return nullptr;
        }
    }
    SpecialTokenIds special;
    special.unk = found[0];
    special.cls = found[1];
    special.sep = found[2];
    special.mask = found[3];
    special.pad = found[4];
    AddedTokens added;
    for (int k = 0; k < 5; ++k)
        if (found[k] >= 0)
            added.add({names[k], found[k]});
    return std::make_shared<WordPieceTokenizer>(vocab, options, added, special);
}

bool readTokenizerFile(const QString &path, QByteArray *bytes, QString *error)
{
    const QFileInfo info(path);
    const QString name = info.fileName();
    if (!info.exists()) {
        *error = name + QStringLiteral(": no such file");
        return false;
    }
    if (info.isDir()) {
        *error = name + QStringLiteral(": is a folder, not a file");
        return false;
    }
    if (info.size() > kMaxTokenizerFileBytes) {
        *error = QStringLiteral("%1: larger than %2 MiB").arg(name).arg(kMaxTokenizerFileBytes / (1024 * 1024));
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot read: %2").arg(name, file.errorString());
        return false;
    }
    // Read one byte past the cap: a file that grew since stat() is still refused.
    *bytes = file.read(kMaxTokenizerFileBytes + 1);
    if (bytes->size() > kMaxTokenizerFileBytes) {
        *error = QStringLiteral("%1: larger than %2 MiB").arg(name).arg(kMaxTokenizerFileBytes / (1024 * 1024));
        return false;
    }
    if (file.error() != QFileDevice::NoError) {
        *error = QStringLiteral("%1: cannot read: %2").arg(name, file.errorString());
        return false;
    }
    if (bytes->isNull())
        *bytes = QByteArray(""); // an empty file is "empty", not "no config"
    return true;
}

TokenizerPtr loadGpt2Tokenizer(const QString &vocabJsonPath, const QString &mergesTxtPath, QString *error)
{
    QByteArray vocab, merges;
    if (!readTokenizerFile(vocabJsonPath, &vocab, error) || !readTokenizerFile(mergesTxtPath, &merges, error))
        return nullptr;
    return parseGpt2Tokenizer(vocab, merges, error, QFileInfo(vocabJsonPath).fileName(), QFileInfo(mergesTxtPath).fileName());
}

TokenizerPtr loadBertTokenizer(const QString &vocabTxtPath, const QString &configJsonPath, QString *error)
{
    QByteArray vocab, config;
    if (!readTokenizerFile(vocabTxtPath, &vocab, error))
        return nullptr;
    if (!configJsonPath.isEmpty() && !readTokenizerFile(configJsonPath, &config, error))
        return nullptr;
    return parseBertTokenizer(vocab, config, error, QFileInfo(vocabTxtPath).fileName(), QFileInfo(configJsonPath).fileName());
}

TokenizerPtr loadTokenizerJson(const QString &path, QString *error, const QString &configPath)
{
    QByteArray json, config;
    if (!readTokenizerFile(path, &json, error))
        return nullptr;
    if (!configPath.isEmpty() && !readTokenizerFile(configPath, &config, error))
        return nullptr;
    return parseTokenizerJson(json, error, QFileInfo(path).fileName(), config, QFileInfo(configPath).fileName());
}

const QStringList kTokenizerJsonModelTypes = {
    QStringLiteral("llama"), QStringLiteral("mistral"), QStringLiteral("qwen2"), QStringLiteral("qwen3"), QStringLiteral("gemma"),
    QStringLiteral("gemma2"), QStringLiteral("gemma3_text"), QStringLiteral("gemma3"), QStringLiteral("phi3")};

TokenizerPtr loadTokenizerFromFolder(const QString &dir, const QString &modelType, QString *error)
{
    const QDir folder(dir);
    const auto has = [&](const char *file) { return QFileInfo(folder.filePath(QLatin1String(file))).isFile(); };
    const auto path = [&](const char *file) { return folder.filePath(QLatin1String(file)); };
    const QString folderName = QFileInfo(dir).fileName().isEmpty() ? dir : QFileInfo(dir).fileName();
    TokenizerPtr tokenizer;
    ModelTokenizer::Kind expected;
    if (modelType == QLatin1String("gpt2")) {
        expected = ModelTokenizer::Kind::BytePairEncoding;
        if (has("vocab.json") && has("merges.txt"))
            return loadGpt2Tokenizer(path("vocab.json"), path("merges.txt"), error);
        if (!has("tokenizer.json")) {
            *error = folderName + QStringLiteral(": no tokenizer: expected vocab.json and merges.txt, or tokenizer.json");
            return nullptr;
        }
    } else if (modelType == QLatin1String("bert")) {
        expected = ModelTokenizer::Kind::WordPiece;
        if (has("vocab.txt"))
            return loadBertTokenizer(path("vocab.txt"), has("tokenizer_config.json") ? path("tokenizer_config.json") : QString(), error);
        if (!has("tokenizer.json")) {
            *error = folderName + QStringLiteral(": no tokenizer: expected vocab.txt or tokenizer.json");
            return nullptr;
        }
    } else if (kTokenizerJsonModelTypes.contains(modelType)) {
        expected = ModelTokenizer::Kind::BytePairEncoding;
        if (!has("tokenizer.json")) {
            *error = folderName + QStringLiteral(": no tokenizer: expected tokenizer.json");
            return nullptr;
        }
    } else {
        *error = QStringLiteral("%1: no tokenizer for model_type %2 (expected \"gpt2\", \"bert\" or one of %3)")
                     .arg(folderName, quoted(modelType), kTokenizerJsonModelTypes.join(QStringLiteral(", ")));
        return nullptr;
    }
    tokenizer = loadTokenizerJson(path("tokenizer.json"), error,
                                  has("tokenizer_config.json") ? path("tokenizer_config.json") : QString());
    if (tokenizer && tokenizer->kind() != expected) {
        *error = QStringLiteral("tokenizer.json: model.type: expected %1 for a %2 model")
                     .arg(expected == ModelTokenizer::Kind::WordPiece ? QStringLiteral("\"WordPiece\"") : QStringLiteral("\"BPE\""), modelType);
        return nullptr;
    }
    return tokenizer;
}

} // namespace attn
