#pragma once
// The model trained by this program itself (the induction task) that ships
// inside the binary, so every user has a trained model with no download.
// Reproduced by scripts/train_example_model.sh; tests/tst_shippedmodel checks
// that its heads still do what the lesson says.

#include <QString>
#include <optional>

namespace attn {

struct ShippedModel
{
    QString folder;      // a real folder (memory-mapping needs a file): unpacked into the cache
    QString exampleText; // a stretch of symbols written twice: the induction head's cue
};

// Unpacks the embedded model into `cacheRoot` (the user's cache when empty)
// once, atomically (a half-written copy is never used), and gives its folder.
// Nothing, with one line in `error`, when the cache cannot be written.
std::optional<ShippedModel> shippedInductionModel(QString *error, const QString &cacheRoot = QString());

} // namespace attn
