#include "learn/pronountask.h"

#include <algorithm>

namespace attn::pronoun {
namespace {

struct Noun
{
    const char *word, *verb, *pronoun;
};

// Each noun has a verb no other noun has: the verb after the pronoun names
// the noun it stands for.
constexpr Noun kPeople[] = {
    {" boy", " laughed", " he"}, {" man", " smiled", " he"},   {" king", " nodded", " he"},
    {" girl", " waved", " she"}, {" woman", " sighed", " she"}, {" queen", " frowned", " she"},
};
constexpr Noun kThings[] = {
    {" box", " fell", " it"},    {" ball", " rolled", " it"}, {" cup", " broke", " it"},
    {" door", " opened", " it"}, {" bell", " rang", " it"},   {" robot", " beeped", " it"},
    {" lamp", " flickered", " it"}, {" car", " stopped", " it"},
};
constexpr const char *kActions[] = {" saw", " passed", " reached", " followed", " hit", " found"};
constexpr const char *kAdjectives[] = {" big", " small", " red", " old", " new", " little"};
constexpr const char *kStarts[] = {"Today", "Later", "Then"};
constexpr const char *kTails[] = {" again", " slowly", " twice"};

class Grammar
{
public:
    Grammar()
    {
        for (const char *s : kStarts) {
            add(s);
            add(QByteArray(" ") + s);
        }
        add("The");
        add(" The");
        for (const char *w : {",", ".", " the", " and", " it", " he", " she"})
            add(w);
        for (const char *w : kAdjectives)
            add(w);
        for (const char *w : kActions)
            add(w);
        for (const char *w : kTails)
            add(w);
        for (const Noun &n : kPeople)
            add(n.word);
        for (const Noun &n : kThings)
            add(n.word);
        for (const Noun &n : kPeople)
            add(n.verb);
        for (const Noun &n : kThings)
            add(n.verb);
    }

    int id(const QByteArray &word) const
    {
        return int(std::find(words.begin(), words.end(), word) - words.begin());
    }

    std::vector<QByteArray> words;

private:
    void add(const QByteArray &word) { words.push_back(word); }
};

const Grammar &grammar()
{
    static const Grammar g;
    return g;
}

int pick(SplitMix64 &rng, int n) { return int(rng.nextUnit() * n); }

template<typename T, std::size_t N>
const T &pickFrom(SplitMix64 &rng, const T (&items)[N])
{
    return items[pick(rng, int(N))];
}

// One sentence: its tokens, and for each whether it is a counted target.
void sentence(SplitMix64 &rng, bool first, std::vector<int> &tokens, std::vector<float> &counts)
{
    const Grammar &g = grammar();
    auto say = [&](const QByteArray &word, bool counted = false) {
        tokens.push_back(g.id(word));
        counts.push_back(counted ? 1.0f : 0.0f);
    };
    const QByteArray space = first ? QByteArray() : QByteArray(" ");
    const bool opener = pick(rng, 3) == 0;
    if (opener) {
        say(space + pickFrom(rng, kStarts));
        say(",");
        say(" the");
    } else {
        say(space + "The");
    }
    const Noun &person = pickFrom(rng, kPeople), &thing = pickFrom(rng, kThings);
    const bool personFirst = pick(rng, 2) == 0;
    auto nounPhrase = [&](const Noun &noun) {
        for (int a = pick(rng, 3); a > 0; --a)
            say(pickFrom(rng, kAdjectives));
        say(noun.word);
    };
    nounPhrase(personFirst ? person : thing);
    say(pickFrom(rng, kActions));
    say(" the");
    nounPhrase(personFirst ? thing : person);
    if (pick(rng, 2) == 0)
        say(pickFrom(rng, kTails));
    say(" and");
    const Noun &referent = pick(rng, 2) == 0 ? person : thing;
    say(referent.pronoun);
    say(referent.verb, true);
    say(".");
}

} // namespace

const std::vector<QByteArray> &vocabulary() { return grammar().words; }

int ownVerbCount() { return int(std::size(kPeople) + std::size(kThings)); }

void fillSentences(SplitMix64 &rng, std::vector<int> &sequence, std::vector<float> &counts)
{
    std::vector<int> tokens;
    std::vector<float> counted;
    tokens.reserve(sequence.size() + 32);
    counted.reserve(sequence.size() + 32);
    while (tokens.size() < sequence.size())
        sentence(rng, tokens.empty(), tokens, counted);
    std::copy_n(tokens.begin(), sequence.size(), sequence.begin());
    std::copy_n(counted.begin(), counts.size(), counts.begin());
}

} // namespace attn::pronoun
