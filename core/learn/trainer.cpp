#include "learn/trainer.h"

#include <QElapsedTimer>
#include <cmath>
#include <stdexcept>

namespace attn {

// Limits that keep a run to what a laptop can do in minutes, and every
// allocation far below what the model loader would refuse.
constexpr int kMaxTrainLayers = 12, kMaxTrainDModel = 1024, kMaxTrainContext = 1024, kMaxTrainBatch = 1024;

// Small batches and contexts cost least per step (models.md: the work to the
// induction phase change grows only as sqrt(batch * context)). Induction:
// the loss falls abruptly near step 1,500-2,000 as the induction heads form,
// and again near 4,000-5,000 as layer 0's previous-token head sharpens; by
// step 8,000 (1-2 minutes here) both are clear on held-out repeats.
TrainerSettings defaultSettings(TaskKind kind, int *symbols)
{
    TrainerSettings s;
    switch (kind) {
    case TaskKind::Induction:
        s.layers = 2, s.heads = 4, s.dModel = 64, s.context = 64, s.batch = 8, s.steps = 8000, s.learningRate = 1e-3;
        *symbols = 32;
        break;
    case TaskKind::Copy:
    case TaskKind::Reverse:
    case TaskKind::Sort:
        s.layers = 2, s.heads = 2, s.dModel = 32, s.context = 16, s.batch = 16, s.steps = 600, s.learningRate = 3e-3;
        s.warmupSteps = 50;
        *symbols = 8;
        break;
    case TaskKind::Pronoun:
        // One verb per sentence counts, so batches are larger; a head at the
        // pronoun finds its noun within a few hundred steps. Two heads a
        // layer: with four, layer 0's heads share the job so widely that
        // switching off those that point at the noun barely moves the guess.
        s.layers = 2, s.heads = 2, s.dModel = 64, s.context = 32, s.batch = 32, s.steps = 1500, s.learningRate = 2e-3;
        *symbols = 0;
        break;
    case TaskKind::Text:
        s.layers = 2, s.heads = 4, s.dModel = 64, s.context = 64, s.batch = 8, s.steps = 2000, s.learningRate = 1e-3;
        *symbols = 0;
        break;
    }
    return s;
}

QString modelFamilyName(ModelFamily family)
{
    return family == ModelFamily::Llama ? QStringLiteral("llama") : QStringLiteral("gpt2");
}

std::optional<ModelFamily> modelFamilyFromName(const QString &name)
{
    for (const ModelFamily f : {ModelFamily::Gpt2, ModelFamily::Llama})
        if (modelFamilyName(f) == name)
            return f;
    return std::nullopt;
}

// The SwiGLU's inner width: two thirds of GPT-2's 4 * d_model (its three
// matrices then hold as many weights as GPT-2's two), rounded up to a multiple
// of 16 as Llama rounds to 256.
static int gatedInnerWidth(int dModel)
{
    return (8 * dModel + 3 * 16 - 1) / (3 * 16) * 16;
}

QString Trainer::checkSettings(const TrainerSettings &s, const TrainingTask &task)
{
    if (s.layers < 1 || s.layers > kMaxTrainLayers)
        return QStringLiteral("--layers %1: must be 1 to %2").arg(s.layers).arg(kMaxTrainLayers);
    if (s.dModel < 1 || s.dModel > kMaxTrainDModel)
        return QStringLiteral("--d-model %1: must be 1 to %2").arg(s.dModel).arg(kMaxTrainDModel);
    if (s.heads < 1 || s.dModel % s.heads != 0)
        return QStringLiteral("--heads %1: must divide --d-model %2").arg(s.heads).arg(s.dModel);
    const int kvHeads = s.kvHeads > 0 ? s.kvHeads : s.heads;
    if (s.family == ModelFamily::Gpt2 && kvHeads != s.heads)
        return QStringLiteral("--kv-heads %1: GPT-2 has one key/value head per query head; "
                              "shared key/value heads need --family llama").arg(s.kvHeads);
    if (s.kvHeads < 0 || s.heads % kvHeads != 0)
        return QStringLiteral("--kv-heads %1: must divide --heads %2").arg(s.kvHeads).arg(s.heads);
    if (s.family == ModelFamily::Llama && (s.dModel / s.heads) % 2 != 0)
        return QStringLiteral("--heads %1: rotary positions turn q and k in pairs, so d_model / heads must be even "
                              "(%2 / %1 = %3)").arg(s.heads).arg(s.dModel).arg(s.dModel / s.heads);
    if (s.context < 2 || s.context > kMaxTrainContext)
        return QStringLiteral("--context %1: must be 2 to %2").arg(s.context).arg(kMaxTrainContext);
    if (s.context > task.maxLength())
        return QStringLiteral("--context %1: the text has only %2 bytes; use a shorter context")
            .arg(s.context).arg(task.maxLength() + 1);
    if (s.batch < 1 || s.batch > kMaxTrainBatch)
        return QStringLiteral("--batch %1: must be 1 to %2").arg(s.batch).arg(kMaxTrainBatch);
    if (s.steps < 1)
        return QStringLiteral("--steps %1: must be at least 1").arg(s.steps);
    if (!(s.learningRate > 0) || !std::isfinite(s.learningRate))
        return QStringLiteral("--lr %1: must be a positive number").arg(s.learningRate);
    return {};
}

ModelConfig Trainer::configFor(const TrainerSettings &s, int vocab)
{
    ModelConfig c;
    c.modelType = modelFamilyName(s.family);
    c.layers = s.layers;
    c.heads = s.heads;
    c.keyValueHeads = s.heads;
    c.dModel = s.dModel;
    c.headDimension = s.dModel / s.heads;
    c.dFF = 4 * s.dModel;
    c.positions = s.context;
    c.vocab = vocab;
    if (s.family == ModelFamily::Llama) {
        // Llama's recipe as model/families/llamacommon.cpp reads it from config.json.
        c.keyValueHeads = s.kvHeads > 0 ? s.kvHeads : s.heads;
        c.dFF = gatedInnerWidth(s.dModel);
        c.norm = NormKind::RmsNorm;
        c.normEpsilon = 1e-5; // Llama 2's and 3's rms_norm_eps
        c.positionKind = PositionKind::Rotary;
        c.rotary.theta = 10000.0;
        c.rotary.dimensions = c.headDimension;
        c.mlp = MlpKind::Gated;
        c.activation = Activation::Silu;
        c.queryKeyValueBias = c.outputBias = c.mlpBias = false;
        c.tiedUnembedding = s.tiedEmbeddings;
    }
    return c;
}

ModelParameters Trainer::initialModel(const ModelConfig &c, std::uint64_t seed)
{
    // GPT-2's N(0, 0.02) is tuned for d_model 768; in a 64-wide model it
    // makes every score and logit nearly zero, and induction heads have been
    // reported to form late or not at all from it. Instead: dense weights
    // uniform in +-1/sqrt(fan_in) (PyTorch's nn.Linear default), the residual
    // projections scaled by 1/sqrt(2 layers) as GPT-2 does, embeddings (and a
    // separate unembedding) of standard deviation 1/sqrt(d_model) so the
    // logits start near unit size, biases 0, norms 1.
    ModelParameters m = zeroModel(c);
    SplitMix64 rng(seed);
    auto fill = [&](WeightMatrix &weight, double limit) {
        RowMatrix<float> &w = weight.writable();
        for (Eigen::Index i = 0; i < w.size(); ++i)
            w.data()[i] = float(rng.nextSymmetric(limit));
    };
    auto fillDense = [&](DenseParameters &d, double scale) {
        fill(d.weight, scale / std::sqrt(double(d.inputs())));
    };
    const double uniformForStd = std::sqrt(3.0); // a uniform in +-a has std a / sqrt 3
    const double embedding = uniformForStd / std::sqrt(double(c.dModel));
    fill(m.tokenEmbedding, embedding);
    if (c.positionKind == PositionKind::Learned)
        fill(m.positionEmbedding, embedding);
    const double residual = 1.0 / std::sqrt(2.0 * c.layers);
    for (BlockParameters &b : m.blocks) {
        b.norm1.weight.writable().setOnes();
        b.norm2.weight.writable().setOnes();
        for (DenseParameters *d : {&b.query, &b.key, &b.value, &b.mlpGate, &b.mlpIn})
            if (d->weight.rowCount() > 0)
                fillDense(*d, 1.0);
        fillDense(b.attentionOutput, residual);
        fillDense(b.mlpOut, residual);
    }
    m.finalNorm.weight.writable().setOnes();
    if (!c.tiedUnembedding)
        fill(m.untiedUnembedding, embedding);
    return m;
}

// The task as the settings train it: with the beginning token of a
// Llama-style run, every token counted if asked.
static TrainingTask taskFor(TrainingTask task, const TrainerSettings &settings)
{
    if (settings.family == ModelFamily::Llama)
        task = task.startingWith(kBeginningOfText);
    return settings.everyToken ? task.countingEveryToken() : task;
}

Trainer::Trainer(TrainingTask task, const TrainerSettings &settings)
    : m_task(taskFor(std::move(task), settings)),
      m_settings(settings), m_optimiser(configFor(settings, m_task.vocab()), settings.adamw),
      m_data(settings.seed ^ 0x5DEECE66Dull)
{
    const QString bad = checkSettings(settings, m_task);
    if (!bad.isEmpty())
        throw std::invalid_argument(bad.toStdString());
    m_model = initialModel(configFor(settings, m_task.vocab()), settings.seed);
    m_lastGood = m_model;
}

double Trainer::learningRate() const
{
    const int next = m_optimiser.steps() + 1;
    if (m_settings.warmupSteps > 0 && next < m_settings.warmupSteps)
        return m_settings.learningRate * double(next) / double(m_settings.warmupSteps);
    return m_settings.learningRate;
}

bool Trainer::step(double *loss, double *accuracy)
{
    const TrainingBatch batch = m_task.batch(m_data, m_settings.batch, m_settings.context);
    const double value = trainingForward<float>(m_model, batch, m_activations);
    if (!m_firstLoss)
        m_firstLoss = value;
    // "Exploding": far above where an untrained model starts.
    // The weights of this loss are bad themselves: go back to those of the
    // step before, the last whose loss was fine.
    if (!std::isfinite(value) || value > 4.0 * *m_firstLoss + 10.0) {
        const int bad = stepsDone();
        m_model = m_lastGood;
        m_rolledBack = bad > 0 ? 1 : 0;
        m_problem = QStringLiteral("the loss became %1 at step %2; stopped with the weights of step %3, "
                                   "the last good ones (try a smaller --lr)").arg(value).arg(bad + 1).arg(stepsDone());
        return false;
    }
    m_lastGood = m_model;
    if (loss)
        *loss = value;
    if (accuracy)
        *accuracy = m_activations.loss.counted ? double(m_activations.loss.correct) / m_activations.loss.counted : 0.0;
    const double norm = descend(m_model, batch, m_activations, m_gradients, m_optimiser, learningRate(),
                                m_settings.gradientClip);
    if (!std::isfinite(norm)) {
        m_problem = QStringLiteral("the gradients became %1 at step %2; stopped with the weights of step %3")
                        .arg(norm).arg(stepsDone() + 1).arg(stepsDone());
        return false;
    }
    return true;
}

double Trainer::descend(ModelParameters &model, const TrainingBatch &batch, const TrainingActivations<float> &keep,
                        ModelParameters &gradients, AdamW &optimiser, double learningRate, double clip)
{
    trainingBackward<float>(model, batch, keep, gradients);
    double squares = 0;
    const std::vector<ParameterTensor> grads = parameterTensors(gradients);
    for (const ParameterTensor &g : grads)
        squares += double(g.values().squaredNorm());
    const double norm = std::sqrt(squares);
    if (!std::isfinite(norm))
        return norm;
    if (clip > 0 && norm > clip)
        for (const ParameterTensor &g : grads)
            g.values() *= float(clip / norm);
    optimiser.step(model, gradients, learningRate);
    return norm;
}

TrainingOutcome Trainer::run(const std::atomic<bool> *stop, const std::function<void(const TrainingReport &)> &report)
{
    TrainingOutcome outcome;
    QElapsedTimer clock;
    clock.start();
    double lossSum = 0, accuracySum = 0;
    int window = 0;
    auto flush = [&] {
        if (window == 0 || !report)
            return;
        report(TrainingReport{stepsDone(), lossSum / window, accuracySum / window, learningRate(),
                              double(clock.nsecsElapsed()) * 1e-9});
        lossSum = accuracySum = 0;
        window = 0;
    };
    while (stepsDone() < m_settings.steps) {
        if (stop && stop->load(std::memory_order_relaxed)) {
            outcome.stopped = true;
            break;
        }
        double loss = 0, accuracy = 0;
        if (!step(&loss, &accuracy)) {
            outcome.diverged = true;
            outcome.message = m_problem;
            break;
        }
        ++outcome.steps;
        lossSum += loss;
        accuracySum += accuracy;
        ++window;
        if (stepsDone() % std::max(1, m_settings.reportEvery) == 0)
            flush();
    }
    flush();
    const double seconds = double(clock.nsecsElapsed()) * 1e-9;
    outcome.stepsPerSecond = seconds > 0 ? outcome.steps / seconds : 0.0;
    return outcome;
}

} // namespace attn
