#pragma once
// The models trained by this program itself that ship inside the binary, so
// every user has trained models with no download: the induction task's and
// the pronoun task's with GPT-2's block, and the pronoun task's with the
// Llama family's. Reproduced by scripts/train_example_model.sh;
// tests/tst_shippedmodel, tst_shippedpronoun and tst_shippedllama check that
// their heads still do what the lessons say.

#include <QString>
#include <optional>

namespace attn {

struct ShippedModel
{
    QString folder;      // a real folder (memory-mapping needs a file): unpacked into the cache
    QString exampleText; // the text its lesson opens with
    // Where the lesson points first (-1: nowhere): the query token, and the
    // token whose weight from it the grid shows under each head.
    int exampleQuery = -1, exampleKey = -1;
};

enum class ShippedLesson {
    InductionHeads, // induction: a stretch of symbols written twice, the induction head's cue
    Pronouns,       // pronoun: a sentence ending in "it", whose heads find "box"
    // pronoun-llama: the same task with the Llama block, every word scored;
    // "it" finds "lamp" through the heads of one key/value group
    LlamaPronouns,
};

// Unpacks the embedded model into `cacheRoot` (the user's cache when empty)
// once, atomically (a half-written copy is never used), and gives its folder.
// Nothing, with one line in `error`, when the cache cannot be written.
std::optional<ShippedModel> shippedModel(ShippedLesson lesson, QString *error, const QString &cacheRoot = QString());

} // namespace attn
