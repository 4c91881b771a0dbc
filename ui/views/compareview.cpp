#include "compareview.h"

#include "model/denseops.h"

#include "comparecanvas.h"
#include "comparisonexport.h"
#include "model/denseops.h"
#include "modeldocument.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace {
using Kind = ComparisonVariant::Kind;
constexpr int kEditedDims = 4;     // sliders for the first dimensions
constexpr double kDimStep = 0.01;  // a slider step, in embedding units
constexpr int kDimRange = 300;     // ±3 in steps of kDimStep
} // namespace

CompareView::CompareView(Comparison *comparison, QWidget *parent) : QWidget(parent), m_comparison(comparison)
{
    buildControls();
    connect(m_comparison, &Comparison::dataChanged, this, [this] { m_canvas->setData(m_comparison->data()); });
    connect(m_comparison, &Comparison::messageChanged, m_message, &QLabel::setText);
    connect(m_comparison, &Comparison::busyChanged, this, [this](bool busy) {
        m_export->setEnabled(!busy && m_comparison->data());
    });
    connect(m_canvas, &CompareCanvas::tileClicked, m_comparison, &Comparison::selectHead);
    connect(m_canvas, &CompareCanvas::exportRequested, this, &CompareView::onExportClicked);
    ModelDocument *doc = m_comparison->document();
    connect(doc, &ModelDocument::tokensChanged, this, &CompareView::onModelChanged);
    connect(doc, &ModelDocument::opened, this, &CompareView::onModelChanged);
    m_comparison->setActive(isVisible());
    onModelChanged();
}

void CompareView::buildControls()
{
    auto *layout = new QVBoxLayout(this);
    auto *row = new QHBoxLayout;
    m_kind = new QComboBox;
    m_kind->addItem(tr("another head"), int(Kind::OtherHead));
    m_kind->addItem(tr("another sentence"), int(Kind::OtherSentence));
    m_kind->addItem(tr("one token replaced"), int(Kind::ReplaceToken));
    m_kind->addItem(tr("an embedding moved towards another token"), int(Kind::MoveEmbedding));
    m_kind->addItem(tr("an embedding's first dimensions set"), int(Kind::EditDimensions));
    m_kind->setAccessibleName(tr("What variant B changes"));
    // Its longest entry would set the panel's least width; the list still opens wide.
    m_kind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_kind->setMinimumContentsLength(18);
    m_kind->view()->setAccessibleName(tr("Kinds of variant"));
    auto *kindLabel = new QLabel(tr("B is A with:"));
    kindLabel->setBuddy(m_kind);
    row->addWidget(kindLabel);
    row->addWidget(m_kind);
    m_positionLabel = new QLabel(tr("Token:"));
    m_position = new QComboBox;
    m_position->setAccessibleName(tr("The token B changes"));
    m_positionLabel->setBuddy(m_position);
    row->addWidget(m_positionLabel);
    row->addWidget(m_position);

    m_pages = new QStackedWidget;
    auto page = [this](QList<QWidget *> widgets) {
        auto *w = new QWidget;
        auto *l = new QHBoxLayout(w);
        l->setContentsMargins(0, 0, 0, 0);
        for (QWidget *x : widgets)
            l->addWidget(x);
        l->addStretch();
        m_pages->addWidget(w);
    };
    m_layer = new QSpinBox;
    m_layer->setPrefix(tr("layer "));
    m_head = new QSpinBox;
    m_head->setPrefix(tr("head "));
    m_layer->setAccessibleName(tr("Layer variant B shows"));
    m_head->setAccessibleName(tr("Head variant B shows"));
    page({new QLabel(tr("B shows")), m_layer, m_head});
    m_sentence = new QLineEdit;
    m_sentence->setPlaceholderText(tr("the other sentence, then Enter"));
    m_sentence->setMinimumWidth(160);
    m_sentence->setAccessibleName(tr("The sentence variant B runs on"));
    page({m_sentence});
    m_replacement = new QLineEdit;
    m_replacement->setPlaceholderText(tr("the new token, then Enter"));
    m_replacement->setAccessibleName(tr("The token that replaces the chosen one"));
    page({new QLabel(tr("replaced by")), m_replacement});
    m_target = new QLineEdit;
    m_target->setPlaceholderText(tr("another token, then Enter"));
    m_target->setAccessibleName(tr("The token whose embedding the chosen one moves towards"));
    m_fraction = new QSlider(Qt::Horizontal);
    m_fraction->setRange(0, 100);
    m_fraction->setValue(30);
    m_fraction->setAccessibleName(tr("How far the embedding moves, in percent"));
    m_fractionLabel = new QLabel;
    page({new QLabel(tr("moved")), m_fraction, m_fractionLabel, new QLabel(tr("towards")), m_target});
    auto *dims = new QWidget;
    auto *dimsLayout = new QHBoxLayout(dims);
    dimsLayout->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < kEditedDims; ++i) {
        auto *s = new QSlider(Qt::Horizontal);
        s->setRange(-kDimRange, kDimRange);
        s->setAccessibleName(tr("Dimension %1 of the token's embedding").arg(i));
        auto *label = new QLabel;
        dimsLayout->addWidget(label);
        dimsLayout->addWidget(s);
        m_dims.push_back(s);
        m_dimLabels.push_back(label);
        connect(s, &QSlider::valueChanged, this, [this, label, i](int v) {
            label->setText(tr("d%1 = %2").arg(i).arg(v * kDimStep, 0, 'f', 2));
            apply();
        });
    }
    m_pages->addWidget(dims);
    row->addWidget(m_pages, 1);
    m_export = new QPushButton(tr("Export…"));
    m_export->setToolTip(tr("Export this comparison as PNG, SVG, PDF or CSV"));
    m_export->setEnabled(false);
    row->addWidget(m_export);
    layout->addLayout(row);
    m_message = new QLabel;
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #b00020"));
    layout->addWidget(m_message);
    m_canvas = new CompareCanvas;
    layout->addWidget(m_canvas, 1);

    connect(m_kind, qOverload<int>(&QComboBox::activated), this, [this] {
        m_pages->setCurrentIndex(m_kind->currentIndex());
        const bool token = m_kind->currentIndex() >= 2;
        m_positionLabel->setVisible(token);
        m_position->setVisible(token);
        refreshDimensions();
        apply();
    });
    m_positionLabel->hide();
    m_position->hide();
    for (QSpinBox *box : {m_layer, m_head})
        connect(box, qOverload<int>(&QSpinBox::valueChanged), this, [this] { apply(); });
    for (QLineEdit *edit : {m_sentence, m_replacement, m_target})
        connect(edit, &QLineEdit::returnPressed, this, [this] { apply(); });
    connect(m_position, qOverload<int>(&QComboBox::activated), this, [this] {
        refreshDimensions();
        if (m_kind->currentIndex() == int(Kind::EditDimensions) || !m_replacement->text().isEmpty()
            || !m_target->text().isEmpty())
            apply();
    });
    connect(m_fraction, &QSlider::valueChanged, this, [this](int v) {
        m_fractionLabel->setText(tr("%1 %").arg(v));
        if (!m_target->text().isEmpty())
            apply();
    });
    m_fractionLabel->setText(tr("%1 %").arg(m_fraction->value()));
    connect(m_export, &QPushButton::clicked, this, &CompareView::onExportClicked);
}

void CompareView::onModelChanged()
{
    ModelDocument *doc = m_comparison->document();
    if (const attn::ModelConfig *c = doc->config()) {
        const QSignalBlocker a(m_layer), b(m_head);
        m_layer->setRange(0, c->layers - 1);
        m_head->setRange(0, c->heads - 1);
        if (m_comparison->variant().kind == Kind::OtherHead && !m_comparison->data())
            m_head->setValue(std::min(1, c->heads - 1)); // B starts as the next head
    }
    const int keep = m_position->currentIndex();
    m_position->clear();
    const std::vector<attn::ModelToken> &tokens = doc->tokens();
    for (std::size_t i = 0; i < tokens.size(); ++i)
        m_position->addItem(tr("%1 “%2”").arg(i).arg(tokens[i].text));
    m_position->setCurrentIndex(std::clamp(keep, 0, m_position->count() - 1));
    refreshDimensions();
    if (doc->trace())
        apply();
}

// The sliders start at the token's own values: moving one changes only that dimension.
void CompareView::refreshDimensions()
{
    ModelDocument *doc = m_comparison->document();
    const attn::SharedModelParameters model = doc->model();
    const int position = m_position->currentIndex();
    // A text the model cannot read keeps its tokens (with the reason shown):
    // an id past the model's vocabulary has no embedding to read.
    const bool valid = model && position >= 0 && position < int(doc->tokens().size())
        && doc->tokens()[std::size_t(position)].id >= 0
        && doc->tokens()[std::size_t(position)].id < model->tokenEmbedding.rowCount();
    const attn::RowVector<float> embedding = valid ? attn::weightRow(model->tokenEmbedding, doc->tokens()[std::size_t(position)].id)
                                                   : attn::RowVector<float>();
    for (int i = 0; i < kEditedDims; ++i) {
        const bool exists = valid && i < model->config.dModel;
        m_dims[std::size_t(i)]->setVisible(exists);
        m_dimLabels[std::size_t(i)]->setVisible(exists);
        if (!exists)
            continue;
        const double value = embedding[i];
        const QSignalBlocker block(m_dims[std::size_t(i)]);
        // Wide enough for the token's own value, so that starting there changes nothing.
        const int range = std::max(kDimRange, int(std::ceil(std::fabs(value) / kDimStep)) + 100);
        m_dims[std::size_t(i)]->setRange(-range, range);
        m_dims[std::size_t(i)]->setValue(int(std::lround(value / kDimStep)));
        m_dimLabels[std::size_t(i)]->setText(tr("d%1 = %2").arg(i).arg(value, 0, 'f', 2));
    }
}

ComparisonVariant CompareView::variantFromControls() const
{
    ComparisonVariant v;
    v.kind = Kind(m_kind->currentData().toInt());
    v.layer = m_layer->value();
    v.head = m_head->value();
    v.sentence = m_sentence->text();
    v.position = m_position->currentIndex();
    v.word = v.kind == Kind::ReplaceToken ? m_replacement->text() : m_target->text();
    v.fraction = m_fraction->value() / 100.0;
    for (const QSlider *s : m_dims)
        if (s->isVisibleTo(this))
            v.dimensions.push_back(float(s->value() * kDimStep));
    return v;
}

bool CompareView::apply()
{
    const ComparisonVariant v = variantFromControls();
    const bool needsWord = v.kind == Kind::ReplaceToken || v.kind == Kind::MoveEmbedding;
    if ((needsWord && v.word.trimmed().isEmpty()) || (v.kind == Kind::OtherSentence && v.sentence.trimmed().isEmpty()))
        return false; // nothing typed yet: the old comparison stays, without a complaint
    return m_comparison->setVariant(v);
}

void CompareView::showEvent(QShowEvent *event)
{
    if (m_comparison)
        m_comparison->setActive(true);
    QWidget::showEvent(event);
}

void CompareView::hideEvent(QHideEvent *event)
{
    if (m_comparison)
        m_comparison->setActive(false); // a hidden dock runs no second forward pass
    QWidget::hideEvent(event);
}

QString CompareView::messageText() const { return m_message->text(); }

QString CompareView::exportTo(const QString &path)
{
    const QString error = writeComparison(path, m_canvas->painter(), defaultComparisonSize());
    m_message->setText(error.isEmpty() ? tr("Exported to %1").arg(path) : error);
    return error;
}

void CompareView::onExportClicked()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export this comparison"), QStringLiteral("comparison.png"),
                                                      tr("PNG picture (*.png);;SVG picture (*.svg);;PDF document (*.pdf);;"
                                                         "CSV numbers (*.csv)"));
    if (!path.isEmpty())
        exportTo(path);
}
