#include "textnormalizer.h"

namespace attn {

QString TextNormalizer::apply(const QString &text) const
{
    QString out = text;
    for (const Step &step : m_steps) {
        switch (step.kind) {
        case Step::Kind::Nfc: out = out.normalized(QString::NormalizationForm_C); break;
        case Step::Kind::Nfd: out = out.normalized(QString::NormalizationForm_D); break;
        case Step::Kind::Nfkc: out = out.normalized(QString::NormalizationForm_KC); break;
        case Step::Kind::Nfkd: out = out.normalized(QString::NormalizationForm_KD); break;
        case Step::Kind::Prepend:
            if (!out.isEmpty())
                out.prepend(step.text);
            break;
        case Step::Kind::Replace:
            if (!step.text.isEmpty())
                out.replace(step.text, step.replacement);
            break;
        }
    }
    return out;
}

} // namespace attn
