#pragma once
// A tiny byte-level BPE tokenizer for the tiny GPT-2 fixture (vocabulary 29),
// written into a model folder by the window tests, and file helpers.

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace tinygpt2 {

// Ids chosen so that "the cats<|endoftext|> a a!" encodes to the fixture's
// reference ids [3, 17, 0, 28, 9, 9, 21]: "the", " cat" (Ġcat), "s",
// <|endoftext|>, " a", " a", "!". The merges build "the" and " cat".
inline const char *kVocab = R"({"s": 0, "t": 1, "h": 2, "the": 3, "e": 4, "\u0120": 5, "c": 6, "a": 7, "th": 8,
 "\u0120a": 9, "\u0120c": 10, "\u0120ca": 11, "b": 12, "d": 13, "f": 14, "g": 15, "i": 16, "\u0120cat": 17,
 "j": 18, "k": 19, "l": 20, "!": 21, "m": 22, "n": 23, "o": 24, "p": 25, "r": 26, "u": 27, "<|endoftext|>": 28})";
// "\xC4\xA0" is "Ġ" (the space byte's stand-in) in UTF-8.
#define G "\xC4\xA0"
inline const char *kMerges = "#version: 0.2\nt h\nth e\n" G " c\n" G "c a\n" G "ca t\n" G " a\n";
#undef G
inline const QString kText = QStringLiteral("the cats<|endoftext|> a a!");

// GPT-2's byte-to-unicode table (openai/gpt-2 encoder.py bytes_to_unicode):
// printable bytes stand for themselves, the others for 256, 257, ...
inline QString byteChar(int byte)
{
    auto printable = [](int b) { return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF); };
    if (printable(byte))
        return QString(QChar(byte));
    int n = 0;
    for (int b = 0; b < byte; ++b)
        n += printable(b) ? 0 : 1;
    return QString(QChar(256 + n));
}

// The 29 tokens above, then every other byte (byte-level BPE needs all 256)
// from id 29 on: outside the model's vocabulary, so a text using them is refused.
inline QByteArray vocabJson()
{
    QJsonObject vocab = QJsonDocument::fromJson(kVocab).object();
    int next = 29;
    for (int b = 0; b < 256; ++b)
        if (!vocab.contains(byteChar(b)))
            vocab.insert(byteChar(b), next++);
    return QJsonDocument(vocab).toJson(QJsonDocument::Compact);
}

inline bool copyFile(const QString &from, const QString &to) { return QFile::copy(from, to); }

inline bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace tinygpt2
