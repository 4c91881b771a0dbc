#include "trainingsession.h"

#include "io/appfolders.h"
#include "learn/modelwriter.h"
#include "model/headscores.h"
#include "trainingpresets.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QThread>
#include <cmath>

namespace {

// The example is drawn from its own generator, so it is the same for every
// run of a task and never one of the training batches.
constexpr std::uint64_t kExampleSeed = 0xE8A3F1E5ull;

// The four scores the sparklines draw. A score the example cannot show (NaN:
// no token repeats, so no query qualifies for induction) is drawn as 0, the
// bottom of the line, since a sparkline has no gap to draw instead.
PatternScores sparklineScores(const attn::HeadScores &h)
{
    const auto shown = [](double v) { return std::isnan(v) ? 0.0 : v; };
    PatternScores s{};
    s[int(AttentionPattern::PreviousToken)] = shown(h.previousToken);
    s[int(AttentionPattern::Induction)] = shown(h.induction);
    s[int(AttentionPattern::Diagonal)] = shown(h.self);
    s[int(AttentionPattern::FirstToken)] = shown(h.firstToken);
    return s;
}

} // namespace

TrainingSession::TrainingSession(QObject *parent) : QObject(parent) {}

TrainingSession::~TrainingSession()
{
    stop();
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
}

bool TrainingSession::start(attn::TrainingTask task, const attn::TrainerSettings &settings, QString *error,
                            int snapshotEvery)
{
    if (m_state == State::Running || m_state == State::Paused) {
        *error = tr("A run is already going: stop it first");
        return false;
    }
    const QString bad = attn::Trainer::checkSettings(settings, task);
    if (!bad.isEmpty()) {
        *error = bad;
        return false;
    }
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
    m_settings = settings;
    m_snapshotEvery = snapshotEvery > 0 ? snapshotEvery : snapshotEveryFor(settings);
    // The trainer's task: a Llama-style run's has the beginning token too.
    auto trainer = std::make_unique<attn::Trainer>(std::move(task), settings);
    m_kind = trainer->task().kind();
    m_symbols = trainer->task().symbols();
    m_chance = trainer->task().chance();
    attn::SplitMix64 exampleRng(kExampleSeed);
    m_example = trainer->task().batch(exampleRng, 1, settings.context).inputs;
    m_reports.clear();
    m_snapshots.clear();
    m_series.clear();
    m_final.reset();
    m_outcome = {};
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_pause = false;
    }
    m_stop.store(false);
    m_trainer = std::move(trainer);
    m_thread = QThread::create([this, run = m_trainer.get()] { runOnWorker(*run); });
    m_thread->setObjectName(QStringLiteral("training"));
    setState(State::Running);
    m_thread->start(QThread::LowPriority); // the window stays live on two cores
    return true;
}

void TrainingSession::pause()
{
    if (m_state != State::Running)
        return;
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_pause = true;
}

void TrainingSession::resume()
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_pause = false;
    }
    m_wake.notify_all();
}

void TrainingSession::stop()
{
    m_stop.store(true);
    m_wake.notify_all();
}

bool TrainingSession::pauseRequested() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_pause;
}

// Worker thread from here to takeSnapshot: results reach the GUI thread only
// through queued calls, which Qt drops if the session is gone.
void TrainingSession::runOnWorker(attn::Trainer &trainer)
{
    int lastSnapshot = 0;
    TrainingSnapshot first = takeSnapshot(trainer);
    QMetaObject::invokeMethod(this, [this, s = std::move(first)]() mutable { addSnapshot(std::move(s)); },
                              Qt::QueuedConnection);
    const attn::TrainingOutcome outcome = trainer.run(&m_stop, [&](const attn::TrainingReport &report) {
        QMetaObject::invokeMethod(this, [this, report] {
            m_reports.push_back(report);
            emit reported(report.step);
        }, Qt::QueuedConnection);
        if (report.step % m_snapshotEvery == 0 && report.step != lastSnapshot) {
            lastSnapshot = report.step;
            TrainingSnapshot s = takeSnapshot(trainer);
            QMetaObject::invokeMethod(this, [this, s = std::move(s)]() mutable { addSnapshot(std::move(s)); },
                                      Qt::QueuedConnection);
        }
        if (report.step < m_settings.steps) // the last report: nothing left to pause
            waitWhilePaused();
    });
    if (trainer.stepsDone() != lastSnapshot) {
        TrainingSnapshot s = takeSnapshot(trainer);
        QMetaObject::invokeMethod(this, [this, s = std::move(s)]() mutable { addSnapshot(std::move(s)); },
                                  Qt::QueuedConnection);
    }
    auto model = std::make_shared<const attn::ModelParameters>(trainer.model());
    QMetaObject::invokeMethod(this, [this, outcome, model] {
        m_outcome = outcome;
        m_final = model;
        setState(State::Finished);
        emit finished();
    }, Qt::QueuedConnection);
}

void TrainingSession::waitWhilePaused()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    if (!m_pause || m_stop.load())
        return;
    QMetaObject::invokeMethod(this, [this] { setState(State::Paused); }, Qt::QueuedConnection);
    m_wake.wait(lock, [this] { return !m_pause || m_stop.load(); });
    QMetaObject::invokeMethod(this, [this] { if (m_state == State::Paused) setState(State::Running); },
                              Qt::QueuedConnection);
}

TrainingSnapshot TrainingSession::takeSnapshot(const attn::Trainer &trainer) const
{
    // A copy taken between steps: the forward pass never reads weights the
    // next step is changing.
    const attn::ModelParameters model = trainer.model();
    attn::ForwardOptions options;
    options.keepScores = false;
    attn::ModelTrace trace = attn::forward(model, m_example, options);
    TrainingSnapshot s;
    s.step = trainer.stepsDone();
    for (const std::vector<attn::HeadScores> &layer : attn::traceHeadScores(trace, m_example))
        for (const attn::HeadScores &head : layer)
            s.scores.push_back(sparklineScores(head));
    trace.hidden.clear();
    for (attn::LayerTrace &layer : trace.layers) {
        layer.queries.resize(0, 0);
        layer.keys.resize(0, 0);
        layer.values.resize(0, 0);
        layer.context.resize(0, 0);
    }
    s.trace = std::make_shared<const attn::ModelTrace>(std::move(trace));
    return s;
}

void TrainingSession::addSnapshot(TrainingSnapshot snapshot)
{
    const int heads = snapshot.trace->layers.empty() ? 0 : int(snapshot.trace->layers.front().weights.size());
    if (m_series.empty())
        for (int l = 0; l < int(snapshot.trace->layers.size()); ++l)
            for (int h = 0; h < heads; ++h)
                m_series.push_back(HeadPatternSeries{l, h, {}});
    for (std::size_t i = 0; i < m_series.size() && i < snapshot.scores.size(); ++i)
        for (int p = 0; p < kAttentionPatterns; ++p)
            m_series[i].values[std::size_t(p)].push_back(snapshot.scores[i][std::size_t(p)]);
    m_snapshots.push_back(std::move(snapshot));
    emit snapshotTaken(int(m_snapshots.size()) - 1);
}

void TrainingSession::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    emit stateChanged(state);
}

TrainingCurves TrainingSession::curves(int markerStep) const
{
    TrainingCurves c;
    for (const attn::TrainingReport &r : m_reports) {
        c.loss.emplace_back(r.step, r.loss);
        c.accuracy.emplace_back(r.step, r.accuracy);
    }
    c.chance = m_chance;
    c.totalSteps = m_settings.steps;
    c.markerStep = markerStep;
    return c;
}

QStringList TrainingSession::exampleTexts() const
{
    QStringList texts;
    for (int id : m_example) {
        const QByteArray symbol = id >= 0 && id < int(m_symbols.size()) ? m_symbols[std::size_t(id)] : "?";
        const unsigned char byte = static_cast<unsigned char>(symbol.front());
        if (symbol.size() > 1)
            texts << QString::fromUtf8(symbol).trimmed(); // a word of the pronoun task
        else
            texts << (byte >= 0x20 && byte < 0x7f ? QString(QChar(byte))
                                                  : QStringLiteral("\\x%1").arg(byte, 2, 16, QLatin1Char('0')));
    }
    return texts;
}

bool TrainingSession::save(const QString &dir, QString *error) const
{
    if (!m_final) {
        *error = tr("No trained model yet");
        return false;
    }
    QDir().mkpath(QFileInfo(dir).absolutePath());
    const attn::TrainingReport last = m_reports.empty() ? attn::TrainingReport{} : m_reports.back();
    QJsonObject training{{"task", attn::TrainingTask::name(m_kind)},
                         {"family", attn::modelFamilyName(m_settings.family)},
                         {"steps", last.step},
                         {"batch", m_settings.batch},
                         {"learning_rate", m_settings.learningRate},
                         {"seed", QString::number(m_settings.seed)},
                         {"loss", last.loss},
                         {"accuracy", last.accuracy}};
    if (m_settings.everyToken)
        training.insert(QStringLiteral("every_token"), true);
    const QString bad = attn::checkOutputFolder(dir);
    if (!bad.isEmpty()) {
        *error = bad;
        return false;
    }
    return attn::saveModelFolder(*m_final, m_symbols, training, dir, error);
}

QString TrainingSession::defaultFolder() const
{
    const QString family = m_settings.family == attn::ModelFamily::Llama ? QStringLiteral("-llama") : QString();
    return QDir(modelsFolder()).filePath(QStringLiteral("%1%2-%3").arg(attn::TrainingTask::name(m_kind), family,
                                                                  QDateTime::currentDateTime().toString(
                                                                      QStringLiteral("yyyy-MM-dd-HHmmss"))));
}

QString TrainingSession::modelsFolder()
{
    return QDir(attn::appDataFolder()).filePath(QStringLiteral("models"));
}

QStringList TrainingSession::earlierModelsFolders()
{
    QStringList folders;
    for (const QString &earlier : attn::earlierAppDataFolders())
        folders << QDir(earlier).filePath(QStringLiteral("models"));
    return folders;
}
