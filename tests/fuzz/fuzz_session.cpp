// libFuzzer target: the session reader. Any bytes must give either a session
// that survives a write/read round trip unchanged and computes finite
// numbers, or a one-line error naming the file. Never a crash or a hang.

#include "session/session.h"
#include "session/sessionio.h"

#include <QByteArray>
#include <cmath>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    QString error;
    const std::optional<attn::Session> session = attn::parseSession(bytes, QStringLiteral("fuzz.attn.json"), &error);
    if (!session) {
        if (!error.startsWith(QLatin1String("fuzz.attn.json: ")) || error.contains(QLatin1Char('\n')))
            std::abort();
        return 0;
    }
    QString again;
    const std::optional<attn::Session> reread = attn::parseSession(attn::sessionToJson(*session), QStringLiteral("x"), &again);
    if (!reread || *reread != *session)
        std::abort();
    // Keep the work per input small: the maths is fuzzed on small sessions only.
    if (session->tokenCount() * session->dModel() * session->attention.heads <= 4096) {
        // Both precisions: the float path must stay finite (or fall back to double).
        for (const attn::Precision precision : {attn::Precision::Double, attn::Precision::Single}) {
            try {
                const attn::AttentionResult result = attn::computeSession(*session, precision);
                for (const attn::HeadResult &head : result.heads) {
                    if (!head.weights.allFinite() || !head.scores.allFinite())
                        std::abort();
                    for (Eigen::Index i = 0; i < head.weights.rows(); ++i)
                        if (std::abs(head.weights.row(i).sum() - 1.0) > 1e-4)
                            std::abort();
                }
            } catch (const attn::InputError &) {
                // A refusal with a message is a valid outcome (e.g. overflow).
            }
        }
    }
    return 0;
}
