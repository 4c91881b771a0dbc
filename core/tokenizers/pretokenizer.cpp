#include "pretokenizer.h"

#include "bytelevel.h"

#include <algorithm>

namespace attn {
namespace {

struct Span
{
    qsizetype start;
    qsizetype end;
    bool match;
};

// tokenizers' NormalizedString::split: the match and gap spans, combined as
// the behaviour says (normalizer.rs), removed ones dropped.
std::vector<Span> combine(const std::vector<Span> &spans, PreTokenizer::Behavior behavior)
{
    using B = PreTokenizer::Behavior;
    std::vector<Span> out;
    bool previous = false;
    switch (behavior) {
    case B::Isolated:
        for (const Span &s : spans)
            out.push_back({s.start, s.end, false});
        break;
    case B::Removed:
        for (const Span &s : spans)
            if (!s.match)
                out.push_back(s);
        break;
    case B::Contiguous:
        for (const Span &s : spans) {
            if (!out.empty() && s.match == previous)
                out.back().end = s.end;
            else
                out.push_back({s.start, s.end, false});
            previous = s.match;
        }
        break;
    case B::MergedWithPrevious:
        for (const Span &s : spans) {
            if (s.match && !previous && !out.empty())
                out.back().end = s.end;
            else
                out.push_back({s.start, s.end, false});
            previous = s.match;
        }
        break;
    case B::MergedWithNext:
        for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
            if (it->match && !previous && !out.empty())
                out.back().start = it->start;
            else
                out.push_back({it->start, it->end, false});
            previous = it->match;
        }
        std::reverse(out.begin(), out.end());
        break;
    }
    return out;
}

} // namespace

bool PreTokenizer::appendSplit(const QString &regex, Behavior behavior, bool invert, QString *error)
{
    Step step;
    step.pattern = QRegularExpression(regex, QRegularExpression::UseUnicodePropertiesOption);
    if (!step.pattern.isValid()) {
        *error = QStringLiteral("%1 at character %2").arg(step.pattern.errorString()).arg(step.pattern.patternErrorOffset());
        return false;
    }
    step.behavior = behavior;
    step.invert = invert;
    m_steps.push_back(step);
    return true;
}

void PreTokenizer::appendLiteralSplit(const QString &literal, Behavior behavior, bool invert)
{
    Step step;
    // An empty literal matches nothing (tokenizers' pattern.rs).
    step.pattern = QRegularExpression(literal.isEmpty() ? QStringLiteral("(?!)") : QRegularExpression::escape(literal));
    step.behavior = behavior;
    step.invert = invert;
    m_steps.push_back(step);
}

void PreTokenizer::appendByteLevel(bool addPrefixSpace, bool useRegex)
{
    Step step;
    step.kind = Step::Kind::ByteLevel;
    step.addPrefixSpace = addPrefixSpace;
    step.useRegex = useRegex;
    m_steps.push_back(step);
}

void PreTokenizer::appendMetaspace(const QString &replacement, Prepend prepend, bool split)
{
    Step step;
    step.kind = Step::Kind::Metaspace;
    step.replacement = replacement;
    step.prepend = prepend;
    step.split = split;
    step.pattern = QRegularExpression(QRegularExpression::escape(replacement));
    m_steps.push_back(step);
}

void PreTokenizer::appendDigits(bool individual)
{
    // char::is_numeric is \p{N}; "contiguous" single-digit matches are a run.
    QString unused;
    appendSplit(individual ? QStringLiteral("\\p{N}") : QStringLiteral("\\p{N}+"), Behavior::Isolated, false, &unused);
}

bool PreTokenizer::hasByteLevel() const
{
    for (const Step &s : m_steps)
        if (s.kind == Step::Kind::ByteLevel)
            return true;
    return false;
}

bool PreTokenizer::endsWithByteLevel() const
{
    return !m_steps.empty() && m_steps.back().kind == Step::Kind::ByteLevel;
}

void PreTokenizer::splitPiece(const Piece &piece, const QRegularExpression &pattern, Behavior behavior, bool invert,
                              std::vector<Piece> &out)
{
    // Matches and the gaps between them tile the piece (pattern.rs); empty
    // matches cut nothing.
    std::vector<Span> spans;
    qsizetype end = 0;
    QRegularExpressionMatchIterator it = pattern.globalMatch(piece.text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        if (m.capturedLength(0) == 0)
            continue;
        if (m.capturedStart(0) > end)
            spans.push_back({end, m.capturedStart(0), invert});
        spans.push_back({m.capturedStart(0), m.capturedEnd(0), !invert});
        end = m.capturedEnd(0);
    }
    if (end < piece.text.size())
        spans.push_back({end, piece.text.size(), invert});
    for (const Span &s : combine(spans, behavior))
        if (s.end > s.start)
            out.push_back({piece.text.mid(s.start, s.end - s.start), piece.atStart && s.start == 0});
}

std::vector<PreTokenizer::Piece> PreTokenizer::apply(const QString &text, bool atStart) const
{
    std::vector<Piece> pieces;
    if (!text.isEmpty())
        pieces.push_back({text, atStart});
    for (const Step &step : m_steps) {
        std::vector<Piece> next;
        next.reserve(pieces.size());
        for (Piece &piece : pieces) {
            switch (step.kind) {
            case Step::Kind::Split:
                splitPiece(piece, step.pattern, step.behavior, step.invert, next);
                break;
            case Step::Kind::ByteLevel:
                if (step.addPrefixSpace && !piece.text.startsWith(QLatin1Char(' ')))
                    piece.text.prepend(QLatin1Char(' '));
                if (!step.useRegex) {
                    next.push_back(piece);
                    break;
                }
                for (const QString &word : bytelevel::preTokenize(piece.text)) {
                    next.push_back({word, piece.atStart});
                    piece.atStart = false;
                }
                break;
            case Step::Kind::Metaspace: {
                piece.text.replace(QLatin1Char(' '), step.replacement);
                const bool wanted = step.prepend == Prepend::Always || (step.prepend == Prepend::First && piece.atStart);
                if (wanted && !piece.text.startsWith(step.replacement))
                    piece.text.prepend(step.replacement);
                if (step.split)
                    splitPiece(piece, step.pattern, Behavior::MergedWithNext, false, next);
                else
                    next.push_back(piece);
                break;
            }
            }
        }
        pieces = std::move(next);
    }
    return pieces;
}

} // namespace attn
