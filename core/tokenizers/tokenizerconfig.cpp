// tokenizer_config.json and the tokens put around a text.
//
// transformers (tokenization_llama_fast.py, tokenization_gemma_fast.py,
// tokenization_code_llama_fast.py) rebuilds the post-processor of its Llama,
// Gemma and CodeLlama classes from add_bos_token (default true) and
// add_eos_token (default false); its generic fast tokenizer
// (tokenization_utils_fast.py) rebuilds it only when the config names
// add_bos_token or add_eos_token (then each defaults to false), and
// otherwise keeps tokenizer.json's post_processor. So: Llama 2, Mistral,
// TinyLlama and Gemma add their BOS; Llama 3 adds the one its template
// names; Qwen (add_bos_token false, a ByteLevel post-processor) adds none.

#include "tokenizerjsonsteps.h"

#include <QJsonObject>

namespace attn::tokenizerparsing {
namespace {

bool tokenName(const JsonContext &c, const QJsonObject &config, const char *key, QString *out)
{
    const QJsonValue v = config.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return true;
    const QJsonValue content = v.isObject() ? v.toObject().value(QStringLiteral("content")) : v;
    if (!content.isString())
        return c.wrongType(QLatin1String(key), "a token such as \"<s>\", or null", v);
    *out = content.toString();
    return true;
}

bool rebuildsTemplate(const QString &tokenizerClass)
{
    static const QStringList classes = {QStringLiteral("LlamaTokenizer"), QStringLiteral("LlamaTokenizerFast"),
                                        QStringLiteral("GemmaTokenizer"), QStringLiteral("GemmaTokenizerFast"),
                                        QStringLiteral("CodeLlamaTokenizer"), QStringLiteral("CodeLlamaTokenizerFast")};
    return classes.contains(tokenizerClass);
}

} // namespace

bool readTokenizerConfig(const QByteArray &json, const QString &name, TokenizerConfigFile *out, QString *error)
{
    QJsonObject config;
    if (!parseJsonObject(json, name, &config, error))
        return false;
    const JsonContext c{name, error};
    out->present = true;
    out->name = name;
    for (const auto &[key, field] : {std::pair{"add_bos_token", &out->addBos}, std::pair{"add_eos_token", &out->addEos}}) {
        const QJsonValue v = config.value(QLatin1String(key));
        if (v.isBool())
            *field = v.toBool();
        else if (!v.isUndefined() && !v.isNull())
            return c.wrongType(QLatin1String(key), "true/false", v);
    }
    return tokenName(c, config, "bos_token", &out->bos) && tokenName(c, config, "eos_token", &out->eos)
        && tokenName(c, config, "pad_token", &out->pad) && c.optionalString(config, QString(), "tokenizer_class", &out->tokenizerClass);
}

bool applyTokenizerConfig(const TokenizerConfigFile &config, const QHash<QString, int> &ids, const PostTemplate &fromJson,
                          TokenizerSteps *steps, QString *error)
{
    const JsonContext c{config.name, error};
    int found[3] = {-1, -1, -1};
    const QString names[3] = {config.bos, config.eos, config.pad};
    const char *keys[3] = {"bos_token", "eos_token", "pad_token"};
    for (int k = 0; k < 3; ++k) {
        if (names[k].isEmpty())
            continue;
        found[k] = ids.value(names[k], -1);
        if (found[k] < 0)
            return c.fail(QLatin1String(keys[k]), QStringLiteral("%1 is not a token of tokenizer.json").arg(quoted(names[k])));
    }
    const bool classRebuilds = rebuildsTemplate(config.tokenizerClass);
    if (config.present && (classRebuilds || config.addBos || config.addEos)) {
        const bool addBos = config.addBos.value_or(classRebuilds);
        const bool addEos = config.addEos.value_or(false);
        if (addBos && found[0] < 0)
            return c.fail(QStringLiteral("add_bos_token"), QStringLiteral("true, but there is no bos_token"));
        if (addEos && found[1] < 0)
            return c.fail(QStringLiteral("add_eos_token"), QStringLiteral("true, but there is no eos_token"));
        steps->prefix = addBos ? std::vector<int>{found[0]} : std::vector<int>{};
        steps->suffix = addEos ? std::vector<int>{found[1]} : std::vector<int>{};
    } else {
        steps->prefix = fromJson.prefix;
        steps->suffix = fromJson.suffix;
    }
    steps->special.bos = found[0] >= 0 ? found[0] : !steps->prefix.empty() ? steps->prefix.front() : -1;
    steps->special.eos = found[1] >= 0 ? found[1] : !steps->suffix.empty() ? steps->suffix.back() : -1;
    steps->special.pad = found[2];
    if (steps->special.bos < 0 && steps->special.eos < 0) {
        // GPT-2's files name neither: <|endoftext|> is both.
        const int end = ids.value(QStringLiteral("<|endoftext|>"), -1);
        steps->special.bos = steps->special.eos = end;
    }
    return true;
}

} // namespace attn::tokenizerparsing
