#include "optionspanel.h"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <cmath>

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
    m_positional = new QComboBox;
    m_positional->addItem(tr("None"), int(attn::PositionalEncoding::None));
    m_positional->addItem(tr("Sinusoidal, added to x"), int(attn::PositionalEncoding::Sinusoidal));
    m_positional->addItem(tr("Rotary, turns q and k"), int(attn::PositionalEncoding::Rotary));
    m_positional->setItemData(1, tr("Adds each position's sine and cosine pattern to the embeddings, so q, k and v "
                                    "all change with where a word stands"),
                              Qt::ToolTipRole);
    m_positional->setItemData(2, tr("Turns each head's q and k pair by pair by an angle that grows with the "
                                    "position, so a score depends on how far apart two words are; v is not turned"),
                              Qt::ToolTipRole);
    m_positional->setToolTip(tr("How attention learns word order: nothing, a pattern added to the embeddings, or "
                                "rotary positions, which turn q and k"));
    m_ropeTheta = new QDoubleSpinBox;
    m_ropeTheta->setRange(1.0, 1e7);
    m_ropeTheta->setDecimals(0);
    m_ropeTheta->setMaximumWidth(m_ropeTheta->fontMetrics().horizontalAdvance(QStringLiteral("0000000")) + 30);
    m_ropeTheta->setValue(attn::kDefaultRopeTheta);
    m_ropeTheta->setToolTip(tr("θ, the base of rotary positions: pair i of a head turns by position × θ^(−2i/d) "
                               "radians. A smaller θ turns the later pairs faster."));
    // Both combo boxes may be narrower than their longest item (elided), so
    // the panel keeps the width it had and the heatmap its room.
    m_positional->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_positional->setMinimumContentsLength(5);
    m_kvHeads = new QComboBox;
    m_kvHeads->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_kvHeads->setMinimumContentsLength(2);
    m_kvHeads->setToolTip(tr("Key/value heads: each group of query heads shares one key and one value matrix "
                             "(grouped-query attention), so a text generator keeps fewer keys and values per token"));
    m_projection = new QCheckBox(tr("Output projection (Wo)"));
    m_seed = new QSpinBox;
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setToolTip(tr("Weights not fixed by the session are generated from this number"));
    // Narrower than ten digits when space is short (the labels column is wider
    // since the key/value and positions rows): the panel keeps its 310 pixels.
    m_seed->setMinimumWidth(m_seed->fontMetrics().horizontalAdvance(QStringLiteral("0000000")) + 30);
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
    auto *positions = new QHBoxLayout;
    positions->addWidget(m_positional, 2);
    auto *thetaLabel = new QLabel(tr("θ:")); // reached by Tab: every letter is taken near it
    thetaLabel->setBuddy(m_ropeTheta);
    positions->addWidget(thetaLabel);
    positions->addWidget(m_ropeTheta, 1);
    // Two columns of switches keep the panel short, leaving room for the sliders.
    auto *switches = new QGridLayout;
    switches->addWidget(m_scale, 0, 0);
    switches->addWidget(m_causal, 0, 1);
    switches->addWidget(m_projection, 1, 0);
    m_scale->setText(tr("Scale by 1/√d_k"));
    m_scale->setToolTip(tr("Divide the scores by √d_k before the softmax, so wide heads do not saturate"));
    m_projection->setText(tr("Output projection"));
    m_projection->setToolTip(tr("Multiply the joined heads by Wo, back to d_model numbers per token"));
    auto *form = new QFormLayout(this);
    form->addRow(tr("&Mode:"), m_mode);
    auto *headsLabel = new QLabel(tr("&Heads:"));
    headsLabel->setBuddy(m_heads);
    form->addRow(headsLabel, sizes);
    auto *kvLabel = new QLabel(tr("&K/V heads:"));
    kvLabel->setBuddy(m_kvHeads);
    form->addRow(kvLabel, m_kvHeads);
    form->addRow(m_headsNote);
    auto *positionsLabel = new QLabel(tr("&Positions:"));
    positionsLabel->setBuddy(m_positional);
    form->addRow(positionsLabel, positions);
    form->addRow(switches);
    auto *seedLabel = new QLabel(tr("S&eed:"));
    seedLabel->setBuddy(m_seed);
    form->addRow(seedLabel, seedRow);
    form->addRow(tr("&Colours:"), m_colorMap);

    m_mode->setAccessibleName(tr("Attention mode"));
    m_heads->setAccessibleName(tr("Number of heads"));
    m_headDim->setAccessibleName(tr("Head dimension"));
    m_kvHeads->setAccessibleName(tr("Key/value heads"));
    m_positional->setAccessibleName(tr("Positions"));
    // Their lists exist already (items are disabled in them): screen readers name those too.
    m_kvHeads->view()->setAccessibleName(tr("Key/value heads"));
    m_positional->view()->setAccessibleName(tr("Positions"));
    m_ropeTheta->setAccessibleName(tr("Rotary base theta"));
    m_seed->setAccessibleName(tr("Random seed"));
    m_colorMap->setAccessibleName(tr("Colour map for weights"));

    const auto changed = [this] { readControls(); };
    connect(m_mode, qOverload<int>(&QComboBox::currentIndexChanged), this, changed);
    connect(m_heads, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(m_headDim, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(m_seed, qOverload<int>(&QSpinBox::valueChanged), this, changed);
    connect(m_positional, qOverload<int>(&QComboBox::currentIndexChanged), this, changed);
    connect(m_kvHeads, qOverload<int>(&QComboBox::currentIndexChanged), this, changed);
    connect(m_ropeTheta, qOverload<double>(&QDoubleSpinBox::valueChanged), this, changed);
    for (QCheckBox *box : {m_causal, m_scale, m_projection})
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
    fillKeyValueHeads();
    // Rotary positions turn pairs: head_dim steps by 2 while they are on.
    m_headDim->setSingleStep(config.rotary() ? 2 : 1);
    m_headDim->setValue(attn::effectiveHeadDim(config, dModel));
    m_causal->setChecked(config.causal && !crossAttention); // the session keeps its choice for self-attention
    m_scale->setChecked(config.scale);
    m_positional->setCurrentIndex(m_positional->findData(int(config.positionalEncoding)));
    // A base beyond the box's range (from a file) shows clamped until edited.
    m_ropeTheta->setValue(config.ropeTheta);
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

void OptionsPanel::fillKeyValueHeads()
{
    m_kvHeads->clear();
    const int heads = m_config.heads;
    for (int kv = heads; kv >= 1; --kv) {
        if (heads % kv != 0)
            continue;
        m_kvHeads->addItem(kv == heads && heads > 1 ? tr("%1 (one per head)").arg(kv) : QString::number(kv), kv);
    }
    m_kvHeads->setCurrentIndex(m_kvHeads->findData(m_config.keyValueHeads()));
}

void OptionsPanel::updateEnabled()
{
    const bool scaled = m_config.mode == attn::Mode::ScaledDotProduct;
    m_headDim->setEnabled(scaled);
    // Simplified attention has no weights: every head would compute the same pattern.
    m_heads->setEnabled(scaled || m_config.heads > 1);
    m_heads->setToolTip(scaled ? tr("Each head has its own query, key and value matrices and learns its own pattern")
                               : tr("Simplified attention has no weights of its own, so every head would compute "
                                    "the same pattern: it uses one head"));
    // Key/value heads are shared projections: simplified attention has none.
    m_kvHeads->setEnabled(scaled && m_config.heads > 1);
    // Rotary positions turn pairs of numbers: an odd head width cannot have them.
    const int width = attn::effectiveHeadDim(m_config, m_dModel);
    if (auto *items = qobject_cast<QStandardItemModel *>(m_positional->model()))
        items->item(2)->setEnabled(width % 2 == 0 || m_config.rotary());
    m_positional->setItemData(2, width % 2 == 0
                                     ? tr("Turns each head's q and k pair by pair by an angle that grows with the "
                                          "position, so a score depends on how far apart two words are; v is not "
                                          "turned")
                                     : tr("Needs an even head width (heads are %1 wide): rotary positions turn "
                                          "pairs of numbers")
                                           .arg(width),
                              Qt::ToolTipRole);
    m_ropeTheta->setEnabled(m_config.rotary());
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
    if (note.isEmpty() && scaled && m_config.keyValueHeads() < m_config.heads)
        note = tr("Heads %1 at a time share keys and values: %2 key/value heads.")
                   .arg(m_config.heads / m_config.keyValueHeads())
                   .arg(m_config.keyValueHeads());
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
    if (m_kvHeads->currentIndex() >= 0 && m_heads->value() == m_config.heads)
        c = attn::withKeyValueHeads(c, m_kvHeads->currentData().toInt());
    const auto positions = attn::PositionalEncoding(m_positional->currentData().toInt());
    if (positions != c.positionalEncoding)
        c = attn::withPositions(c, positions, m_dModel);
    // A head_dim typed odd while rotary positions are on becomes the next even number.
    if (c.rotary() && c.mode == attn::Mode::ScaledDotProduct && c.headDim % 2 != 0)
        c.headDim = c.headDim + 1 <= attn::kMaxHeadDim ? c.headDim + 1 : c.headDim - 1;
    if (m_ropeTheta->value() != std::clamp(m_config.ropeTheta, m_ropeTheta->minimum(), m_ropeTheta->maximum()))
        c.ropeTheta = m_ropeTheta->value();
    if (m_seed->value() != int(std::clamp<std::int64_t>(m_config.seed, 0, std::numeric_limits<int>::max())))
        c.seed = m_seed->value();
    setConfig(c, m_dModel, m_crossAttention); // the controls show the defaults just applied
    emit configEdited(c);
}
