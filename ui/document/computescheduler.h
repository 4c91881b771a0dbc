#pragma once
// Where every computation of the window runs: the document's session, the
// variants the demos compare and the open model's passes. A request names a channel (one per view that
// asks); within a channel the latest request wins: the run still going for an
// older one is cancelled (the forward pass stops at its next head) and its
// result never shown. Requests whose forward passes are small enough to
// finish well within a frame are answered at once, on the calling thread;
// the others on a worker thread, while the window stays live.

#include "snapshot.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QString>
#include <any>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class ComputeScheduler : public QObject
{
    Q_OBJECT
public:
    using Snapshots = std::vector<SnapshotPtr>;
    using Done = std::function<void(const Snapshots &)>;

    // Below this many floating-point operations in all (attn::sessionFlops),
    // a request is computed at once: a few milliseconds at most.
    static constexpr double kSyncFlops = 5e7;

    explicit ComputeScheduler(QObject *parent = nullptr);
    ~ComputeScheduler() override; // cancels what runs and waits for it

    void setSyncFlopLimit(double flops) { m_syncFlops = flops; }
    double syncFlopLimit() const { return m_syncFlops; }

    // Computes `sessions` (one snapshot each, in order) and gives them to
    // `done`, on the GUI thread, unless `receiver` is gone by then or a newer
    // request of the channel came first. Returns true when `done` has
    // already been called (a small request). `kept`: the heads the views
    // show in full (attn::HeadsKept).
    bool request(const QString &channel, std::vector<attn::Session> sessions, QObject *receiver, Done done,
                 const attn::HeadsKept &kept = attn::HeadsKept::all());
    // Any other work, always on a worker: `job` gets the channel's cancel
    // flag (raised when a newer request of the channel comes, or cancel());
    // its answer reaches `done` on the GUI thread unless the flag was raised
    // or `receiver` is gone. A job that sees the flag may stop and return
    // anything: nobody looks at it.
    template<typename T>
    void requestJob(const QString &channel, std::function<T(const attn::CancelFlag &)> job, QObject *receiver,
                    std::function<void(const T &)> done)
    {
        start(channel, Request{[job = std::move(job)](const attn::CancelFlag &flag, const Report &) {
                                   return std::any(job(flag));
                               },
                               receiver, [done = std::move(done)](const std::any &a) { done(std::any_cast<const T &>(a)); },
                               {}});
    }
    // As requestJob(), and the job reports as it goes (a long pass, layer by
    // layer): each report reaches `progress` on the GUI thread, in order and
    // before `done`, while the run is still wanted. Once the channel's flag
    // is raised, no report of the run reaches it any more, however early it
    // was sent: what `progress` has seen is exactly what came before the cancel.
    template<typename T, typename P>
    void requestJobWithProgress(const QString &channel,
                                std::function<T(const attn::CancelFlag &, const std::function<void(P)> &)> job,
                                QObject *receiver, std::function<void(const P &)> progress,
                                std::function<void(const T &)> done)
    {
        start(channel, Request{[job = std::move(job)](const attn::CancelFlag &flag, const Report &report) {
                                   const std::function<void(P)> typed = [&report](P p) { report(std::any(std::move(p))); };
                                   return std::any(job(flag, typed));
                               },
                               receiver, [done = std::move(done)](const std::any &a) { done(std::any_cast<const T &>(a)); },
                               [progress = std::move(progress)](const std::any &a) {
                                   progress(std::any_cast<const P &>(a));
                               }});
    }
    // Drops the channel's running and waiting requests (the running one is cancelled).
    void cancel(const QString &channel);

    // From a worker request until its answer is handled (or dropped).
    bool isBusy(const QString &channel) const;
    // Worker runs cancelled before they finished, since the start (for tests).
    int cancelledRuns() const { return m_cancelledRuns; }

signals:
    void busyChanged(const QString &channel, bool busy);

private:
    using Report = std::function<void(std::any)>; // called on the worker
    struct Request
    {
        std::function<std::any(const attn::CancelFlag &, const Report &)> job;
        QPointer<QObject> receiver;
        std::function<void(const std::any &)> done;
        std::function<void(const std::any &)> progress; // empty: the job reports nothing
    };
    struct Channel
    {
        QFutureWatcher<std::any> *watcher = nullptr;
        std::shared_ptr<attn::CancelFlag> cancel; // the running request's
        std::optional<Request> running, waiting;
    };
    // Runs `request` now, or after the channel's running one (which is cancelled).
    void start(const QString &name, Request request);
    void run(const QString &name, Channel &channel, Request request);
    void onFinished(const QString &name);
    void onProgress(const QString &name, const std::shared_ptr<attn::CancelFlag> &flag, const std::any &value);

    std::map<QString, Channel> m_channels;
    double m_syncFlops = kSyncFlops;
    int m_cancelledRuns = 0;
};
