#include "snapshot.h"

#include "model/firsttokenaside.h"
#include "lessons/notation.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <new>

SnapshotPtr makeSnapshot(const attn::Session &session, attn::Precision precision, const attn::CancelFlag *cancel,
                         const attn::HeadsKept &kept)
{
    auto snapshot = std::make_shared<AttentionSnapshot>();
    // Every view names tokens the same way: a repeated word with its position.
    snapshot->rowTokens = attn::tokenLabels(session.tokens);
    snapshot->columnTokens = session.source ? attn::tokenLabels(session.source->tokens) : snapshot->rowTokens;
    snapshot->embeddings = session.embeddings;
    QElapsedTimer timer;
    timer.start();
    try {
        snapshot->result = std::make_shared<const attn::AttentionResult>(attn::computeSession(session, precision, cancel, kept));
    } catch (const attn::InputError &e) {
        // No stale numbers on screen: the views show the problem instead.
        snapshot->error = QString::fromStdString(e.what());
    } catch (const attn::Cancelled &) {
        snapshot->error = QCoreApplication::translate("Document", "cancelled: a newer change replaced it");
    } catch (const std::bad_alloc &) {
        snapshot->error = QCoreApplication::translate("Document", "not enough memory to compute this session");
    }
    snapshot->milliseconds = timer.nsecsElapsed() / 1e6;
    return snapshot;
}

std::shared_ptr<AttentionSnapshot> modelLayerSnapshot(const QStringList &tokenTexts,
                                                      std::shared_ptr<const attn::AttentionResult> result, int layer)
{
    auto snapshot = std::make_shared<AttentionSnapshot>();
    snapshot->rowTokens = attn::tokenLabels(tokenTexts);
    snapshot->columnTokens = snapshot->rowTokens;
    snapshot->modelLayer = layer;
    snapshot->result = std::move(result);
    if (snapshot->result)
        snapshot->embeddings = snapshot->result->inputs;
    return snapshot;
}

SnapshotPtr firstTokenAsideSnapshot(const SnapshotPtr &snapshot)
{
    if (!snapshot || !snapshot->result || snapshot->firstTokenAside)
        return snapshot;
    auto aside = std::make_shared<AttentionSnapshot>(*snapshot);
    aside->realResult = snapshot->result;
    aside->result = std::make_shared<const attn::AttentionResult>(attn::firstTokenAside(*snapshot->result));
    aside->firstTokenAside = true;
    return aside;
}
