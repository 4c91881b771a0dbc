#include "embeddingeditor.h"

#include "lessons/notation.h"

#include "attention/attention.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <cmath>
#include <limits>

namespace {
constexpr int kSliderSteps = 400; // positions across the range: 0.01 at the default ±2
}

EmbeddingEditor::EmbeddingEditor(QWidget *parent) : QWidget(parent)
{
    auto *form = new QFormLayout;
    m_tokenBox = new QComboBox;
    m_tokenBox->setAccessibleName(tr("Token to edit"));
    m_followBox = new QCheckBox(tr("Follow the query"));
    m_followBox->setChecked(true);
    m_followBox->setToolTip(tr("Edit the query's embedding, whichever token it is; untick to keep editing one token"));
    m_tokenBox->setToolTip(tr("The token whose embedding the sliders edit (positions from 0)"));
    auto *tokenRow = new QHBoxLayout;
    tokenRow->addWidget(m_tokenBox, 1);
    tokenRow->addWidget(m_followBox);
    form->addRow(tr("Token:"), tokenRow);

    m_dModelBox = new QSpinBox;
    m_dModelBox->setRange(1, kMaxEditableDims);
    m_dModelBox->setAccessibleName(tr("Embedding size d_model"));
    m_dModelBox->setToolTip(tr("Number of dimensions of every embedding. Growing adds dimensions with each word's "
                               "default values; shrinking drops the last ones."));
    m_rangeBox = new QDoubleSpinBox;
    m_rangeBox->setRange(0.1, 1000.0);
    m_rangeBox->setValue(m_range);
    m_rangeBox->setPrefix(QStringLiteral("± "));
    m_rangeBox->setAccessibleName(tr("Slider range"));
    m_rangeBox->setToolTip(tr("How far the sliders reach either side of 0; the number boxes accept any value"));
    auto *sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_dModelBox);
    sizeRow->addWidget(new QLabel(tr("Slider range:")));
    sizeRow->addWidget(m_rangeBox);
    form->addRow(tr("d_model:"), sizeRow);

    m_note = new QLabel;
    m_note->setWordWrap(true);
    m_note->hide();

    auto *rowsHost = new QWidget;
    m_rowsLayout = new QVBoxLayout(rowsHost);
    m_rowsLayout->setContentsMargins(0, 0, 0, 0);
    m_rowsLayout->setSpacing(2);
    m_rowsLayout->addStretch(1);
    auto *scroll = new QScrollArea;
    scroll->setAccessibleName(tr("Embedding values"));
    scroll->setWidget(rowsHost);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    m_editing = new QWidget;
    auto *editing = new QVBoxLayout(m_editing);
    editing->setContentsMargins(0, 0, 0, 0);
    editing->addLayout(form);
    editing->addWidget(m_note);
    editing->addWidget(scroll, 1);
    m_modelToken = new QLabel;
    m_modelToken->setWordWrap(true);
    m_modelToken->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_modelToken->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_modelToken->setAccessibleName(tr("The model's token"));
    m_modelToken->hide();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_editing, 1);
    layout->addWidget(m_modelToken, 1);

    connect(m_tokenBox, qOverload<int>(&QComboBox::activated), this, [this](int index) {
        m_followBox->setChecked(false);
        setEditedToken(index);
    });
    connect(m_followBox, &QCheckBox::toggled, this, [this](bool on) { m_followQuery = on; });
    connect(m_dModelBox, qOverload<int>(&QSpinBox::valueChanged), this, [this](int d) {
        if (!m_updating)
            emit dModelEdited(d);
    });
    connect(m_rangeBox, qOverload<double>(&QDoubleSpinBox::valueChanged), this, &EmbeddingEditor::setSliderRange);
}

void EmbeddingEditor::setEmbeddings(const QStringList &tokens, const Eigen::MatrixXd &embeddings)
{
    m_updating = true;
    if (tokens != m_tokens) {
        // Typing changes a token or two of thousands: only their entries are
        // written again, not the whole list on every keystroke.
        const QSignalBlocker block(m_tokenBox);
        const QStringList labels = attn::tokenLabels(tokens);
        if (labels.size() < m_tokenBox->count() / 2)
            m_tokenBox->clear();
        while (m_tokenBox->count() > labels.size())
            m_tokenBox->removeItem(m_tokenBox->count() - 1);
        for (int i = 0; i < labels.size(); ++i) {
            const QString text = QStringLiteral("%1 · %2").arg(i).arg(labels[i]); // positions from 0
            if (i >= m_tokenBox->count())
                m_tokenBox->addItem(text);
            else if (m_tokenBox->itemText(i) != text)
                m_tokenBox->setItemText(i, text);
        }
    }
    m_tokens = tokens;
    m_embeddings = embeddings;
    m_token = std::clamp(m_token, 0, std::max(0, int(tokens.size()) - 1));
    const int dModel = int(embeddings.cols());
    m_dModelBox->setMaximum(std::max(kMaxEditableDims, dModel));
    m_dModelBox->setValue(dModel);
    const int shown = std::min(dModel, kMaxEditableDims);
    m_note->setVisible(dModel > shown);
    m_note->setText(tr("Showing the first %1 of %2 dimensions.").arg(shown).arg(dModel));
    if (int(m_rows.size()) != shown)
        rebuildRows(shown);
    m_updating = false;
    refreshValues();
}

void EmbeddingEditor::showModelToken(const ModelTokenInfo &token)
{
    const QString norm = token.norm ? attn::formatFixed(*token.norm, attn::kShownDecimals) : tr("unknown");
    m_modelToken->setText(tr("Token %1 \u201c%2\u201d · id %3\nEmbedding: %4 numbers, length %5\n\n"
                             "A model's embeddings are part of its trained weights, so they cannot be edited "
                             "here (File › Close Model goes back to the hand-made session).")
                              .arg(token.position)
                              .arg(token.text)
                              .arg(token.id)
                              .arg(token.dModel)
                              .arg(norm));
    m_editing->hide();
    m_modelToken->show();
}

void EmbeddingEditor::showSessionTokens()
{
    m_modelToken->hide();
    m_modelToken->clear();
    m_editing->show();
}

bool EmbeddingEditor::showsModelToken() const { return !m_modelToken->isHidden(); }

QString EmbeddingEditor::modelTokenText() const { return m_modelToken->text(); }

void EmbeddingEditor::setQuery(int query)
{
    if (m_followQuery)
        setEditedToken(query);
}

void EmbeddingEditor::setEditedToken(int token)
{
    if (token < 0 || token >= m_tokens.size())
        return;
    m_token = token;
    refreshValues();
}

void EmbeddingEditor::setSliderRange(double range)
{
    if (!(range > 0))
        return;
    m_range = range;
    const QSignalBlocker block(m_rangeBox);
    m_rangeBox->setValue(range);
    refreshValues();
}

QSlider *EmbeddingEditor::slider(int dim) const
{
    return dim >= 0 && std::size_t(dim) < m_rows.size() ? m_rows[std::size_t(dim)].slider : nullptr;
}

QDoubleSpinBox *EmbeddingEditor::spinBox(int dim) const
{
    return dim >= 0 && std::size_t(dim) < m_rows.size() ? m_rows[std::size_t(dim)].spin : nullptr;
}

int EmbeddingEditor::toSlider(double value) const
{
    const double t = std::clamp(value / m_range, -1.0, 1.0);
    return int(std::lround(t * kSliderSteps / 2));
}

double EmbeddingEditor::fromSlider(int position) const
{
    // Round away the binary noise of position * step (0.55, not 0.5500000000000001).
    const double step = 2.0 * m_range / kSliderSteps;
    return std::round(position * step * 1e9) / 1e9;
}

void EmbeddingEditor::rebuildRows(int dims)
{
    for (Row &row : m_rows)
        delete row.widget;
    m_rows.clear();
    for (int d = 0; d < dims; ++d) {
        Row row;
        row.shown = std::numeric_limits<double>::quiet_NaN();
        row.widget = new QWidget;
        auto *h = new QHBoxLayout(row.widget);
        h->setContentsMargins(0, 0, 0, 0);
        row.label = new QLabel(QStringLiteral("d%1").arg(d));
        row.label->setMinimumWidth(row.label->fontMetrics().horizontalAdvance(QStringLiteral("d000")));
        row.slider = new QSlider(Qt::Horizontal);
        row.slider->setRange(-kSliderSteps / 2, kSliderSteps / 2);
        row.slider->setAccessibleName(tr("Dimension %1").arg(d));
        row.spin = new QDoubleSpinBox;
        row.spin->setDecimals(4);
        row.spin->setRange(-1e6, 1e6);
        row.spin->setSingleStep(0.01);
        row.spin->setKeyboardTracking(false);
        row.spin->setAccessibleName(tr("Dimension %1 value").arg(d));
        h->addWidget(row.label);
        h->addWidget(row.slider, 1);
        h->addWidget(row.spin);
        m_rowsLayout->insertWidget(d, row.widget);

        connect(row.slider, &QSlider::sliderPressed, this, [this] { m_dragId = m_nextDragId++; });
        connect(row.slider, &QSlider::sliderReleased, this, [this] { m_dragId = -1; });
        connect(row.slider, &QSlider::valueChanged, this, [this, d](int pos) { onSliderMoved(d, pos); });
        connect(row.spin, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this, d](double v) {
            if (m_updating)
                return;
            m_rows[std::size_t(d)].shown = std::numeric_limits<double>::quiet_NaN();
            emit valueEdited(m_token, d, v, -1);
        });
        m_rows.push_back(row);
    }
}

void EmbeddingEditor::onSliderMoved(int dim, int position)
{
    if (m_updating)
        return;
    m_rows[std::size_t(dim)].shown = std::numeric_limits<double>::quiet_NaN();
    emit valueEdited(m_token, dim, fromSlider(position), m_dragId);
}

void EmbeddingEditor::refreshValues()
{
    if (m_token >= m_embeddings.rows())
        return;
    m_updating = true;
    {
        const QSignalBlocker block(m_tokenBox);
        m_tokenBox->setCurrentIndex(m_token);
    }
    const bool sameRows = m_token == m_shownToken && m_range == m_shownRange;
    for (std::size_t d = 0; d < m_rows.size(); ++d) {
        Row &row = m_rows[d];
        const double v = m_embeddings(m_token, Eigen::Index(d));
        if (sameRows && row.shown == v)
            continue;
        row.slider->setValue(toSlider(v));
        row.spin->setValue(v);
        row.slider->setToolTip(QString::number(v, 'g', 6));
        row.shown = v;
    }
    m_shownToken = m_token;
    m_shownRange = m_range;
    m_updating = false;
}
