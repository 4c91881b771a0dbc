#pragma once
// The Compare dock's document: run A is what the window shows (the model
// document's trace, layer and head), variant B another head, another
// sentence, a replaced token or a moved embedding. B's forward pass and the
// comparison run on a worker thread; a newer request makes an older result be
// dropped, as ModelDocument does. Widgets only set the variant and paint data().

#include "comparisondata.h"

#include <QFutureWatcher>
#include <QObject>
#include <memory>
#include <vector>

class ModelDocument;
namespace attn {
struct ModelTrace;
}

struct ComparisonVariant
{
    enum class Kind { OtherHead, OtherSentence, ReplaceToken, MoveEmbedding, EditDimensions };
    Kind kind = Kind::OtherHead;
    int layer = 0, head = 0;        // OtherHead: B's head (-1: the layer's mean)
    QString sentence;               // OtherSentence
    int position = 0;               // ReplaceToken, MoveEmbedding, EditDimensions: the token changed
    QString word;                   // ReplaceToken: the new token; MoveEmbedding: the token moved towards
    double fraction = 0.3;          // MoveEmbedding: 0.3 is 30 % of the way
    std::vector<float> dimensions;  // EditDimensions: new values of the first dimensions
};

class Comparison : public QObject
{
    Q_OBJECT
public:
    explicit Comparison(ModelDocument *document, QObject *parent = nullptr);
    ~Comparison() override;

    // Compares run A with this variant. False when it cannot be made (no
    // model, a replacement word of several tokens, a position outside the
    // text): message() says why in one line and the old comparison stays.
    bool setVariant(const ComparisonVariant &variant);
    const ComparisonVariant &variant() const { return m_variant; }
    // What the dock paints; null until the first comparison is done.
    std::shared_ptr<const ComparisonData> data() const { return m_data; }
    bool isComputing() const { return m_running; }
    QString message() const { return m_message; }
    ModelDocument *document() const { return m_document; }
    // While inactive (the dock hidden) nothing runs; a change made meanwhile runs on activation.
    void setActive(bool active);
    // A tile of the change grid: B's head when B is another head, else the
    // head the window (and so both runs) shows.
    void selectHead(int layer, int head);

signals:
    void dataChanged();
    void messageChanged(const QString &message);
    void busyChanged(bool busy);

private:
    struct Job;
    std::shared_ptr<Job> prepare(const ComparisonVariant &variant, QString *error) const;
    void request();
    void start();
    void onFinished();
    void setMessage(const QString &message);

    ModelDocument *m_document;
    ComparisonVariant m_variant;
    bool m_hasVariant = false;
    std::shared_ptr<const ComparisonData> m_data;
    QString m_message;
    bool m_messageFromRun = false; // m_message says why the last run could not start or finish
    // B's trace for the variant and the A it was made from, kept while only the head shown changes.
    std::shared_ptr<const attn::ModelTrace> m_traceB;
    std::shared_ptr<const attn::ModelTrace> m_traceBFrom;
    quint64 m_traceBSerial = 0;
    quint64 m_variantSerial = 0;
    QFutureWatcher<std::shared_ptr<Job>> *m_watcher;
    bool m_running = false;
    bool m_active = true;
    bool m_pending = false; // a request made while inactive
    bool m_stale = false;
};
