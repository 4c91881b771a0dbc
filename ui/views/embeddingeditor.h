#pragma once
// Sliders with exact number boxes for every dimension of one token's embedding;
// while a model is open, what the model's query token is (its embedding
// comes from the model's weights: nothing here edits it).

#include "snapshot.h"

#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;
class QVBoxLayout;

// A model's token as the panel names it; the numbers come from the model (attn::tokenEmbeddingNorm).
struct ModelTokenInfo
{
    int position = 0;
    QString text;
    int id = -1;
    std::optional<double> norm; // of its embedding row; none for an id the model lacks
    int dModel = 0;
};

class EmbeddingEditor : public QWidget
{
    Q_OBJECT
public:
    explicit EmbeddingEditor(QWidget *parent = nullptr);

    // The editor shows at most this many dimensions; larger embeddings come from files.
    static constexpr int kMaxEditableDims = 64;

    void setEmbeddings(const QStringList &tokens, const Eigen::MatrixXd &embeddings);
    void setQuery(int query);
    int editedToken() const { return m_token; }
    void setEditedToken(int token);
    double sliderRange() const { return m_range; }
    void setSliderRange(double range);

    // While a model is open: its token instead of the sliders, and why they are gone.
    void showModelToken(const ModelTokenInfo &token);
    // The hand-made session's sliders again (the model closed).
    void showSessionTokens();
    bool showsModelToken() const;
    QString modelTokenText() const;

    // For tests: the controls of dimension `dim`.
    QSlider *slider(int dim) const;
    QDoubleSpinBox *spinBox(int dim) const;

signals:
    // dragId is the same for every move of one slider drag (one undo step), -1 otherwise.
    void valueEdited(int token, int dim, double value, int dragId);
    void dModelEdited(int dModel);

private:
    struct Row
    {
        QWidget *widget;
        QLabel *label;
        QSlider *slider;
        QDoubleSpinBox *spin;
        // The value the slider and the box were last set to, NaN when unknown
        // (a user moved them since): a refresh leaves a row that already
        // shows its value alone. A drag at 2000 tokens refreshes 64 rows a
        // step, and setting each again was most of the editor's 1.6 ms.
        double shown;
    };
    void rebuildRows(int dims);
    void refreshValues();
    void onSliderMoved(int dim, int position);
    int toSlider(double value) const;
    double fromSlider(int position) const;

    QStringList m_tokens;
    Eigen::MatrixXd m_embeddings;
    int m_token = 0;
    bool m_followQuery = true;
    double m_range = 2.0;
    // What the rows show (refreshValues): the token and the range they were set for.
    int m_shownToken = -1;
    double m_shownRange = 0.0;
    int m_dragId = -1;
    int m_nextDragId = 0;
    bool m_updating = false;

    QComboBox *m_tokenBox;
    QCheckBox *m_followBox;
    QSpinBox *m_dModelBox;
    QDoubleSpinBox *m_rangeBox;
    QLabel *m_note;
    QWidget *m_editing;    // everything that edits the session's embeddings
    QLabel *m_modelToken;  // shown instead while a model is open
    QVBoxLayout *m_rowsLayout;
    std::vector<Row> m_rows;
};
