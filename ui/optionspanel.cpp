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
    m_colorMap = new QComboBox;
    for (ColorMap map : allColorMaps())
        m_colorMap->addItem(colorMapName(map), int(map));

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
    m_positional->setText(tr("Positional encoding"));
    m_projection->setText(tr("Output projection"));
    m_projection->setToolTip(tr("Multiply the joined heads by Wo, back to d_model numbers per token"));
    auto *form = new QFormLayout(this);
    form->addRow(tr("&Mode:"), m_mode);
    auto *headsLabel = new QLabel(tr("&Heads:"));
    headsLabel->setBuddy(m_heads);
    form->addRow(headsLabel, sizes);
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

void OptionsPanel::setConfig(const attn::AttentionConfig &config, int dModel)
{
    m_updating = true;
    m_config = config;
    m_mode->setCurrentIndex(m_mode->findData(int(config.mode)));
    m_heads->setValue(config.heads);
    m_headDim->setValue(attn::effectiveHeadDim(config, dModel));
    m_causal->setChecked(config.causal);
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
    m_seed->setEnabled(scaled || m_config.outputProjection);
    m_newWeights->setEnabled(scaled || m_config.outputProjection);
}

void OptionsPanel::readControls()
{
    if (m_updating)
        return;
    attn::AttentionConfig c = m_config;
    c.mode = attn::Mode(m_mode->currentData().toInt());
    c.heads = m_heads->value();
    c.headDim = m_headDim->value();
    c.causal = m_causal->isChecked();
    c.scale = m_scale->isChecked();
    if (c.mode != m_config.mode) // each mode starts with its textbook default
        c.scale = c.mode == attn::Mode::ScaledDotProduct;
    c.positionalEncoding = m_positional->isChecked() ? attn::PositionalEncoding::Sinusoidal
                                                     : attn::PositionalEncoding::None;
    c.outputProjection = m_projection->isChecked();
    if (m_seed->value() != int(std::clamp<std::int64_t>(m_config.seed, 0, std::numeric_limits<int>::max())))
        c.seed = m_seed->value();
    m_config = c;
    updateEnabled();
    emit configEdited(c);
}
