#include "comparison.h"

#include "comparisonbuild.h"
#include "model/inputedit.h"
#include "modeldocument.h"

#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <utility>

struct Comparison::Job
{
    // In: what B is made from.
    attn::SharedModelParameters model;
    ComparisonInput input;
    bool needsForward = false;
    std::vector<int> idsB;
    attn::ForwardOptions optionsB;
    quint64 serial = 0;
    // Out.
    std::shared_ptr<const ComparisonData> data;
    QString error;
};

namespace {

using Kind = ComparisonVariant::Kind;

QStringList texts(const std::vector<attn::ModelToken> &tokens)
{
    QStringList out;
    for (const attn::ModelToken &t : tokens)
        out << t.text;
    return out;
}

// The one id `word` stands for. GPT-2 words carry their leading space: one
// typed without it takes the space of the token it goes in place of.
int singleToken(const attn::ModelTokenizer &tokenizer, QString word, const QString &replaced, QString *error)
{
    const bool bpe = tokenizer.kind() == attn::ModelTokenizer::Kind::BytePairEncoding;
    if (bpe && replaced.startsWith(QLatin1Char(' ')) && !word.startsWith(QLatin1Char(' ')))
        word.prepend(QLatin1Char(' '));
    std::vector<attn::ModelToken> tokens = tokenizer.encode(word);
    const attn::SpecialTokenIds &special = tokenizer.specialIds();
    if (!bpe)
        tokens.erase(std::remove_if(tokens.begin(), tokens.end(),
                                    [&](const attn::ModelToken &t) { return t.id == special.cls || t.id == special.sep; }),
                     tokens.end());
    if (tokens.size() != 1) {
        *error = Comparison::tr("“%1” is %2 tokens for this model; the replacement must be a single token")
                     .arg(word.trimmed()).arg(tokens.size());
        return -1;
    }
    return tokens.front().id;
}

} // namespace

Comparison::Comparison(ModelDocument *document, QObject *parent)
    : QObject(parent), m_document(document), m_watcher(new QFutureWatcher<std::shared_ptr<Job>>(this))
{
    connect(m_watcher, &QFutureWatcher<std::shared_ptr<Job>>::finished, this, &Comparison::onFinished);
    connect(m_document, &ModelDocument::resultChanged, this, &Comparison::request);
    connect(m_document, &ModelDocument::headChanged, this, &Comparison::request);
    connect(m_document->selection(), &ViewSelection::firstTokenAsideChanged, this, &Comparison::request);
    connect(m_document, &ModelDocument::closed, this, [this] {
        m_data.reset();
        m_traceB.reset();
        m_traceBFrom.reset();
        emit dataChanged();
    });
}

Comparison::~Comparison() { m_watcher->waitForFinished(); }

std::shared_ptr<Comparison::Job> Comparison::prepare(const ComparisonVariant &v, QString *error) const
{
    const std::shared_ptr<const attn::ModelTrace> traceA = m_document->trace();
    if (!m_document->isOpen() || !traceA || traceA->layers.empty()) {
        *error = tr("Open a model and run it on a text first");
        return nullptr;
    }
    const attn::ModelConfig &c = *m_document->config();
    const std::vector<attn::ModelToken> &tokens = m_document->tokens();
    auto job = std::make_shared<Job>();
    job->model = m_document->model();
    ComparisonInput &in = job->input;
    in.a = traceA;
    in.tokensA = texts(tokens);
    in.tokensB = in.tokensA;
    in.layerA = in.layerB = m_document->layer();
    in.headA = in.headB = m_document->head();
    in.causal = c.causal;
    in.firstTokenAside = m_document->selection()->firstTokenAside();
    for (int l = 0; l < c.layers; ++l)
        in.windows.push_back(c.windowOf(l));
    in.tokenizer = m_document->tokenizer();
    job->idsB = traceA->tokenIds;
    job->optionsB = traceA->options;
    job->optionsB.embeddingEdits.clear();
    const int n = int(job->idsB.size());
    const bool changesAToken = v.kind == Kind::ReplaceToken || v.kind == Kind::MoveEmbedding
                            || v.kind == Kind::EditDimensions;
    if (changesAToken && (v.position < 0 || v.position >= n || std::size_t(n) != tokens.size())) {
        *error = tr("Position %1 is outside the text's %2 tokens").arg(v.position).arg(n);
        return nullptr;
    }
    const QString at = changesAToken ? tr("position %1 “%2”").arg(v.position).arg(tokens[std::size_t(v.position)].text)
                                     : QString();
    try {
        switch (v.kind) {
        case Kind::OtherHead:
            if (v.layer < 0 || v.layer >= c.layers || v.head < -1 || v.head >= c.heads) {
                *error = tr("Head %1 of layer %2 does not exist (%3 layers of %4 heads)")
                             .arg(v.head).arg(v.layer).arg(c.layers).arg(c.heads);
                return nullptr;
            }
            in.otherHead = true;
            in.b = traceA;
            in.layerB = v.layer;
            in.headB = v.head;
            in.description = tr("another head of the same run");
            return job;
        case Kind::OtherSentence: {
            const std::vector<attn::ModelToken> other = in.tokenizer->encode(v.sentence);
            if (other.empty() || int(other.size()) > c.positions) {
                *error = other.empty() ? tr("The other sentence has no tokens")
                                       : tr("The other sentence has %1 tokens; the model reads at most %2")
                                             .arg(other.size()).arg(c.positions);
                return nullptr;
            }
            job->idsB.clear();
            for (const attn::ModelToken &t : other)
                job->idsB.push_back(t.id);
            in.tokensB = texts(other);
            in.description = tr("the sentence “%1”").arg(v.sentence);
            break;
        }
        case Kind::ReplaceToken: {
            const int id = singleToken(*in.tokenizer, v.word, tokens[std::size_t(v.position)].text, error);
            if (id < 0)
                return nullptr;
            job->idsB[std::size_t(v.position)] = id;
            in.tokensB[v.position] = in.tokenizer->idToText(id);
            in.description = tr("%1 replaced by “%2”").arg(at, in.tokenizer->idToText(id));
            break;
        }
        case Kind::MoveEmbedding: {
            const int id = singleToken(*in.tokenizer, v.word, tokens[std::size_t(v.position)].text, error);
            if (id < 0)
                return nullptr;
            job->optionsB.embeddingEdits.push_back(
                {v.position, attn::deltaTowards(*job->model, job->idsB[std::size_t(v.position)], id, v.fraction)});
            in.description = tr("%1 moved %2 % towards “%3”")
                                 .arg(at).arg(100.0 * v.fraction, 0, 'f', 0).arg(in.tokenizer->idToText(id));
            break;
        }
        case Kind::EditDimensions: {
            job->optionsB.embeddingEdits.push_back(
                {v.position, attn::deltaSettingFirstDims(*job->model, job->idsB[std::size_t(v.position)], v.dimensions)});
            QStringList values;
            for (float x : v.dimensions)
                values << QString::number(double(x), 'f', 2);
            in.description = tr("%1 with dimensions 0–%2 set to %3")
                                 .arg(at).arg(int(v.dimensions.size()) - 1).arg(values.join(QStringLiteral(", ")));
            break;
        }
        }
    } catch (const attn::ModelInputError &e) {
        *error = QString::fromStdString(e.what());
        return nullptr;
    }
    job->needsForward = true;
    return job;
}

bool Comparison::setVariant(const ComparisonVariant &variant)
{
    QString error;
    if (!prepare(variant, &error)) {
        setMessage(error);
        m_messageFromRun = false; // the user's attempt: stays until the next one
        return false;
    }
    m_variant = variant;
    m_hasVariant = true;
    ++m_variantSerial;
    setMessage({});
    m_messageFromRun = false;
    request();
    return true;
}

void Comparison::selectHead(int layer, int head)
{
    if (m_variant.kind == Kind::OtherHead) {
        ComparisonVariant v = m_variant;
        v.layer = layer;
        v.head = head;
        setVariant(v);
        return;
    }
    m_document->setLayer(layer); // the window's selection; its resultChanged brings a new comparison
    m_document->setHead(head);
}

void Comparison::setActive(bool active)
{
    m_active = active;
    if (active && std::exchange(m_pending, false))
        request();
}

void Comparison::request()
{
    if (!m_hasVariant)
        return;
    if (!m_active) {
        m_pending = true;
        return;
    }
    if (m_running) {
        m_stale = true; // one more run, for the newest state, when this one ends
        return;
    }
    start();
}

void Comparison::start()
{
    m_stale = false;
    QString error;
    std::shared_ptr<Job> job = prepare(m_variant, &error);
    if (!job) {
        setMessage(error);
        m_messageFromRun = true;
        return;
    }
    job->serial = m_variantSerial;
    if (job->needsForward && m_traceB && m_traceBFrom == job->input.a && m_traceBSerial == m_variantSerial) {
        job->input.b = m_traceB; // only the head shown changed
        job->needsForward = false;
    }
    m_running = true;
    emit busyChanged(true);
    m_watcher->setFuture(QtConcurrent::run([job] {
        try {
            if (job->needsForward)
                job->input.b = std::make_shared<const attn::ModelTrace>(
                    attn::forward(*job->model, job->idsB, job->optionsB));
            job->data = std::make_shared<const ComparisonData>(buildComparison(job->input));
        } catch (const attn::ModelInputError &e) {
            job->error = QString::fromStdString(e.what());
        } catch (const std::bad_alloc &) {
            job->error = tr("not enough memory to run the model on variant B");
        }
        return job;
    }));
}

void Comparison::onFinished()
{
    const std::shared_ptr<Job> job = m_watcher->result();
    m_running = false;
    if (m_stale) {
        start(); // this result is of an older state: drop it
        return;
    }
    emit busyChanged(false);
    if (!job->error.isEmpty()) {
        setMessage(tr("Variant B cannot be computed: %1").arg(job->error));
        m_messageFromRun = true;
        return;
    }
    if (std::exchange(m_messageFromRun, false))
        setMessage({});
    if (!job->input.otherHead) {
        m_traceB = job->input.b;
        m_traceBFrom = job->input.a;
        m_traceBSerial = job->serial;
    }
    m_data = job->data;
    emit dataChanged();
}

void Comparison::setMessage(const QString &message)
{
    if (message == m_message)
        return;
    m_message = message;
    emit messageChanged(message);
}
