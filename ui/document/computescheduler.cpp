#include "computescheduler.h"

#include <QtConcurrent/QtConcurrentRun>
#include <utility>

namespace {

double totalFlops(const std::vector<attn::Session> &sessions)
{
    double flops = 0;
    for (const attn::Session &s : sessions)
        flops += attn::sessionFlops(s);
    return flops;
}

ComputeScheduler::Snapshots computeAll(const std::vector<attn::Session> &sessions, const attn::CancelFlag *cancel,
                                       const attn::HeadsKept &kept)
{
    ComputeScheduler::Snapshots out;
    out.reserve(sessions.size());
    for (const attn::Session &s : sessions) {
        if (cancel && cancel->load())
            return {};
        out.push_back(makeSnapshot(s, attn::Precision::Auto, cancel, kept));
    }
    return out;
}

} // namespace

ComputeScheduler::ComputeScheduler(QObject *parent) : QObject(parent) {}

ComputeScheduler::~ComputeScheduler()
{
    for (auto &[name, channel] : m_channels) {
        if (channel.cancel)
            channel.cancel->store(true);
        if (channel.watcher)
            channel.watcher->waitForFinished();
    }
}

bool ComputeScheduler::request(const QString &name, std::vector<attn::Session> sessions, QObject *receiver, Done done,
                               const attn::HeadsKept &kept)
{
    if (totalFlops(sessions) <= m_syncFlops) {
        cancel(name); // an older, larger request must not overwrite this answer later
        done(computeAll(sessions, nullptr, kept));
        return true;
    }
    requestJob<Snapshots>(
        name,
        [sessions = std::move(sessions), kept](const attn::CancelFlag &flag) {
            return computeAll(sessions, &flag, kept);
        },
        receiver, std::move(done));
    return false;
}

void ComputeScheduler::start(const QString &name, Request request)
{
    Channel &channel = m_channels[name];
    if (channel.running) {
        channel.cancel->store(true); // the run in progress computes what nobody wants any more
        channel.waiting = std::move(request);
        return;
    }
    run(name, channel, std::move(request));
    emit busyChanged(name, true);
}

void ComputeScheduler::run(const QString &name, Channel &channel, Request request)
{
    if (!channel.watcher) {
        channel.watcher = new QFutureWatcher<std::any>(this);
        connect(channel.watcher, &QFutureWatcherBase::finished, this, [this, name] { onFinished(name); });
    }
    channel.cancel = std::make_shared<attn::CancelFlag>(false);
    std::shared_ptr<attn::CancelFlag> flag = channel.cancel;
    // The worker owns the job: what it captured (a model's trace of the text
    // before, say) is freed there when it ends, not on the GUI thread.
    auto job = std::move(request.job);
    channel.running = std::move(request);
    // Reports go through this object's event queue, behind nothing the
    // worker sends later (its answer included); the destructor waits for the
    // worker, and Qt drops events still queued for a deleted object.
    Report report = [this, name, flag](std::any value) {
        QMetaObject::invokeMethod(
            this, [this, name, flag, value = std::move(value)] { onProgress(name, flag, value); },
            Qt::QueuedConnection);
    };
    channel.watcher->setFuture(QtConcurrent::run([job = std::move(job), flag, report = std::move(report)] {
        try {
            return job(*flag, report);
        } catch (const attn::Cancelled &) {
            return std::any(); // the flag is raised: nobody looks at it
        }
    }));
}

void ComputeScheduler::onFinished(const QString &name)
{
    Channel &channel = m_channels[name];
    Request finished = std::move(*channel.running);
    channel.running.reset();
    const bool cancelled = channel.cancel->load();
    if (cancelled)
        ++m_cancelledRuns;
    else if (finished.receiver && channel.watcher->result().has_value())
        finished.done(channel.watcher->result());
    if (channel.waiting) {
        Request next = std::move(*channel.waiting);
        channel.waiting.reset();
        run(name, channel, std::move(next));
        return;
    }
    emit busyChanged(name, false);
}

void ComputeScheduler::onProgress(const QString &name, const std::shared_ptr<attn::CancelFlag> &flag,
                                  const std::any &value)
{
    auto it = m_channels.find(name);
    if (it == m_channels.end())
        return;
    Channel &channel = it->second;
    // Only the run still going and wanted: a cancelled one's reports are dropped.
    if (channel.cancel != flag || flag->load() || !channel.running || !channel.running->receiver
        || !channel.running->progress)
        return;
    const std::function<void(const std::any &)> progress = channel.running->progress;
    progress(value);
}

void ComputeScheduler::cancel(const QString &name)
{
    auto it = m_channels.find(name);
    if (it == m_channels.end())
        return;
    it->second.waiting.reset();
    if (it->second.running)
        it->second.cancel->store(true); // its answer is dropped when it ends
}

bool ComputeScheduler::isBusy(const QString &name) const
{
    auto it = m_channels.find(name);
    return it != m_channels.end() && (it->second.running || it->second.waiting);
}
