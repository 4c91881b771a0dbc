#include "optionspanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSignalBlocker>
#include <QSpinBox>

OptionsPanel::OptionsPanel(QWidget *parent) : QWidget(parent)
{
    m_mode = new QComboBox;
    m_mode->addItem(tr("Scaled dot-product (Q, K, V)"), int(attn::Mode::ScaledDotProduct));
    m_mode->addItem(tr("Simplified (no weights)"), int(attn::Mode::Simplified));
    m_mode->setToolTip(tr("Simplified: queries, keys and values are the embeddings themselves.\n"
                          "Scaled dot-product: each head projects the embeddings with its own matrices."));
    m_heads = new QSpinBox;
    m_heads->setRange(1, attn::kMaxHeads);
    m_headsNote = new QLabel;
    m_headsNote->setWordWrap(true);
    m_headsNote->setVisible(false);
    m_headDim = new QSpinBox;
    m_headDim->setRange(1, attn::kMaxHeadDim);
    m_headDim->setToolTip(tr("Width of each head's queries, keys and values (d_k)"));
    m_causal = new QCheckBox(tr("Causal mask"));
    m_causal->setToolTip(tr("A query sees only itself and the tokens before it, as in a text generator"));
    m_scale = new QCheckBox(tr("Scale scores by 1/√d_k"));
    m_positional = new QCheckBox(tr("Sinusoidal positional encoding"));
    m_positional->setToolTip(tr("Adds each position's sine and cosine pattern to the embeddings, "
                                "so word order matters"));
    m_projection = new QCheckBox(tr("Output projection (Wo)"));
    m_seed = new QSpinBox;
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setToolTip(tr("Weights not fixed by the session are generated from this number"));
    m_newWeights = new QPushButton(tr("New random weights"));
    m_newWeights->setToolTip(tr("Draw a new seed: every query, key, value and output matrix not fixed by the "
                                "session is generated again"));
    m_colorMap = new QComboBox;
    for (ColorMap map : allColorMaps())
        m_colorMap->addItem(colorMapName(map), int(map));
    m_colorMap->setToolTip(tr("Colour map of the weights heatmaps (scores always use a blue–red map centred on 0)"));

    auto *seedRow = new QHBoxLayout;
    seedRow->addWidget(m_seed, 1);
    seedRow->addWidget(m_newWeights);
    auto *sizes = new QHBoxLayout;
    sizes->addWidget(m_heads, 1);
    auto *headDimLabel = new QLabel(tr("head_dim:"));
    headDimLabel->setBuddy(m_headDim);
    sizes->addWidget(headDimLabel);
    sizes->addWidget(m_headDim, 1);
    // Two columns of switches keep the panel short, leaving room for the sliders.
    auto *switches = new QGridLayout;
    switches->addWidget(m_scale, 0, 0);
    switches->addWidget(m_causal, 0, 1);
    switches->addWidget(m_positional, 1, 0);
    switches->addWidget(m_projection, 1, 1);
    m_scale->setText(tr("Scale by 1/√d_k"));
    m_scale->setToolTip(tr("Divide the scores by √d_k before the softmax, so wide heads do not saturate"));
    m_positional->setText(tr("Positional encoding"));
    m_projection->setText(tr("Output projection"));
    m_projection->setToolTip(tr("Multiply the joined heads by Wo, back to d_model numbers per token"));
    auto *form = new QFormLayout(this);
    form->addRow(tr("&Mode:"), m_mode);
    auto *headsLabel = new QLabel(tr("&Heads:"));
    headsLabel->setBuddy(m_heads);
    form->addRow(headsLabel, sizes);
    form->addRow(m_headsNote);
    form->addRow(switches);
    auto *seedLabel = new QLabel(tr("S&eed:"));
    seedLabel->setBuddy(m_seed);
    form->addRow(seedLabel, seedRow);
    form->addRow(tr("&Colours:"), m_colorMap);

    m_mode->setAccessibleName(tr("Attention mode"));
    m_heads->setAccessibleName(tr("Number of heads"));
    m_headDim->setAccessibleName(tr("Head dimension"));
    m_seed->setAccessibleName(tr("Random seed"));
    m_colorMap->setAccessibleName(tr("Colour map for weights"));

    const auto changed = [this] { readControls(); };
    connect(m_mode, qOverload<int>(&QComboBox::currentIndexChanged), this, changed);
    connect(m_heads, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(m_headDim, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(m_seed, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    for (QCheckBox *box : {m_causal, m_scale, m_positional, m_projection})
        connect(box, &QCheckBox::toggled, this, changed);
    connect(m_newWeights, &QPushButton::clicked, this, [this] {
        m_seed->setValue(int(QRandomGenerator::global()->bounded(1, std::numeric_limits<int>::max())));
    });
    connect(m_colorMap, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this] { emit colorMapEdited(colorMap()); });
}

void OptionsPanel::setConfig(const attn::AttentionConfig &config, int dModel, bool crossAttention)
{
    m_updating = true;
    m_config = config;
    m_dModel = dModel;
    m_crossAttention = crossAttention;
    m_mode->setCurrentIndex(m_mode->findData(int(config.mode)));
    m_heads->setValue(config.heads);
    m_headDim->setValue(attn::effectiveHeadDim(config, dModel));
    m_causal->setChecked(config.causal && !crossAttention); // the session keeps its choice for self-attention
    m_scale->setChecked(config.scale);
    m_positional->setChecked(config.positionalEncoding == attn::PositionalEncoding::Sinusoidal);
    m_projection->setChecked(config.outputProjection);
    // Seeds beyond the spin box's range (from files) show as its maximum until edited.
    m_seed->setValue(int(std::clamp<std::int64_t>(config.seed, 0, std::numeric_limits<int>::max())));
    updateEnabled();
    m_updating = false;
}

void OptionsPanel::setColorMap(ColorMap map)
{
    const QSignalBlocker block(m_colorMap);
    m_colorMap->setCurrentIndex(m_colorMap->findData(int(map)));
}

ColorMap OptionsPanel::colorMap() const { return ColorMap(m_colorMap->currentData().toInt()); }

void OptionsPanel::updateEnabled()
{
    const bool scaled = m_config.mode == attn::Mode::ScaledDotProduct;
    m_headDim->setEnabled(scaled);
    // Simplified attention has no weights: every head would compute the same pattern.
    m_heads->setEnabled(scaled || m_config.heads > 1);
    m_heads->setToolTip(scaled ? tr("Each head has its own query, key and value matrices and learns its own pattern")
                               : tr("Simplified attention has no weights of its own, so every head would compute "
                                    "the same pattern: it uses one head"));
    // A causal mask orders one sequence against itself; cross-attention sees every source token.
    m_causal->setEnabled(!m_crossAttention);
    m_causal->setToolTip(m_crossAttention
                             ? tr("Does not apply to cross-attention: the sentence sees every token of the source, "
                                  "which is complete before decoding starts")
                             : tr("A query sees only itself and the tokens before it, as in a text generator"));
    QString note;
    if (!scaled && m_config.heads > 1)
        note = tr("In simplified mode all %1 heads are identical.").arg(m_config.heads);
    else if (scaled && m_config.heads > 1 && m_dModel % m_config.heads != 0)
        note = tr("d_model %1 does not split into %2 heads: head_dim stays %3.")
                   .arg(m_dModel)
                   .arg(m_config.heads)
                   .arg(m_config.headDim);
    m_headsNote->setText(note);
    m_headsNote->setVisible(!note.isEmpty());
    m_seed->setEnabled(scaled || m_config.outputProjection);
    m_newWeights->setEnabled(scaled || m_config.outputProjection);
}

void OptionsPanel::readControls()
{
    if (m_updating)
        return;
    attn::AttentionConfig c = m_config;
    c.headDim = m_headDim->value();
    if (!m_crossAttention)
        c.causal = m_causal->isChecked();
    c.scale = m_scale->isChecked();
    c.outputProjection = m_projection->isChecked();
    // A new mode or head count brings the defaults a session file would get.
    c = attn::withMode(c, attn::Mode(m_mode->currentData().toInt()), m_dModel);
    if (m_heads->value() != c.heads)
        c = attn::withHeadCount(c, m_heads->value(), m_dModel);
    c.positionalEncoding = m_positional->isChecked() ? attn::PositionalEncoding::Sinusoidal
                                                     : attn::PositionalEncoding::None;
    if (m_seed->value() != int(std::clamp<std::int64_t>(m_config.seed, 0, std::numeric_limits<int>::max())))
        c.seed = m_seed->value();
    setConfig(c, m_dModel, m_crossAttention); // the controls show the defaults just applied
    emit configEdited(c);
}
