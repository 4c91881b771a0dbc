#pragma once
// The attention options: mode, heads, key/value heads, head_dim, causal
// mask, scaling, positions (sinusoidal or rotary, with rotary's base),
// output projection, seed, and the colour map.

#include "attention/attention.h"
#include "colormap.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

class OptionsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit OptionsPanel(QWidget *parent = nullptr);

    // `crossAttention`: a source is set, so the causal mask does not apply (the box says why).
    void setConfig(const attn::AttentionConfig &config, int dModel, bool crossAttention = false);
    attn::AttentionConfig config() const { return m_config; }
    void setColorMap(ColorMap map);
    ColorMap colorMap() const;

    // For tests and keyboard users.
    QComboBox *modeBox() const { return m_mode; }
    QSpinBox *headsBox() const { return m_heads; }
    QSpinBox *headDimBox() const { return m_headDim; }
    QCheckBox *causalBox() const { return m_causal; }
    QCheckBox *scaleBox() const { return m_scale; }
    // Positions: none, sinusoidal (added to x) or rotary (q and k turned); item data is the PositionalEncoding.
    QComboBox *positionalBox() const { return m_positional; }
    QDoubleSpinBox *ropeThetaBox() const { return m_ropeTheta; }
    // Key/value heads: the divisors of heads, largest (one per head) first; item data is the count.
    QComboBox *kvHeadsBox() const { return m_kvHeads; }
    QCheckBox *projectionBox() const { return m_projection; }
    QPushButton *newWeightsButton() const { return m_newWeights; }
    QLabel *headsNote() const { return m_headsNote; }

signals:
    void configEdited(const attn::AttentionConfig &config);
    void colorMapEdited(ColorMap map);

private:
    void readControls();
    void updateEnabled();
    void fillKeyValueHeads();

    attn::AttentionConfig m_config;
    int m_dModel = 1;
    bool m_crossAttention = false;
    bool m_updating = false;
    QLabel *m_headsNote;
    QComboBox *m_mode;
    QSpinBox *m_heads;
    QSpinBox *m_headDim;
    QCheckBox *m_causal;
    QCheckBox *m_scale;
    QComboBox *m_positional;
    QDoubleSpinBox *m_ropeTheta;
    QComboBox *m_kvHeads;
    QCheckBox *m_projection;
    QSpinBox *m_seed;
    QPushButton *m_newWeights;
    QComboBox *m_colorMap;
};
