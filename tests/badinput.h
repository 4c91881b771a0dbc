#pragma once
// What tst_badinput and tst_badinput_document share: small session files and
// the edits a user made before a bad input arrives.

#include "document.h"

#include <QByteArray>
#include <QFile>
#include <QIODevice>
#include <QString>
#include <QUndoStack>

// A session file's text with the given fields after format and version.
inline QByteArray session(const QByteArray &fields)
{
    return R"({"format": "attention-explorer-session", "version": 1, )" + fields + '}';
}

inline QByteArray valid(const QByteArray &more = {})
{
    return session(R"("tokens": ["a", "b", "c"], "embeddings": [[1, 0, 0], [0, 1, 0], [0, 0, 1]])"
                   + (more.isEmpty() ? QByteArray() : ", " + more));
}

inline QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

inline bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// What the user did to the document before a bad input arrives: edits to undo.
inline void makeHistory(Document &doc)
{
    doc.setQuery(3); // navigation: no undo step
    doc.setEmbeddingValue(0, 0, 0.125);
    doc.setEmbeddingValue(2, 1, -0.75);
    doc.setSentence(QStringLiteral("Your journey starts with one small step"));
    doc.undoStack()->undo(); // something to redo as well
}
