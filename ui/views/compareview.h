#pragma once
// The Compare dock: what variant B changes (another head, another sentence,
// a replaced token, a token's embedding moved towards another's or its first
// dimensions set), the picture of A beside B, and its export. The controls
// only describe B; the Comparison object computes it.

#include "comparison.h"

#include <QPointer>
#include <QWidget>
#include <vector>

class CompareCanvas;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QStackedWidget;

class CompareView : public QWidget
{
    Q_OBJECT
public:
    explicit CompareView(Comparison *comparison, QWidget *parent = nullptr);

    Comparison *comparison() const { return m_comparison; }
    CompareCanvas *canvas() const { return m_canvas; }
    // Writes the comparison to `path` (.png, .svg, .pdf, .csv); empty, or why not.
    QString exportTo(const QString &path);
    // The line under the controls: what went wrong with the last variant, if anything.
    QString messageText() const;

    // For tests: the controls.
    QComboBox *kindBox() const { return m_kind; }
    QComboBox *positionBox() const { return m_position; }
    QLineEdit *sentenceEdit() const { return m_sentence; }
    QLineEdit *replacementEdit() const { return m_replacement; }
    QLineEdit *targetEdit() const { return m_target; }
    QSlider *fractionSlider() const { return m_fraction; }
    // Makes the variant the controls describe; false (and the message) when it cannot.
    bool apply();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void buildControls();
    void onModelChanged();
    void onExportClicked();
    void refreshDimensions();
    ComparisonVariant variantFromControls() const;

    // Guarded: the window may destroy the comparison before this widget, whose hiding then touches it.
    QPointer<Comparison> m_comparison;
    CompareCanvas *m_canvas;
    QComboBox *m_kind;
    QStackedWidget *m_pages;
    QSpinBox *m_layer, *m_head;
    QLineEdit *m_sentence, *m_replacement, *m_target;
    QComboBox *m_position;
    QLabel *m_positionLabel;
    QSlider *m_fraction;
    QLabel *m_fractionLabel;
    std::vector<QSlider *> m_dims;
    std::vector<QLabel *> m_dimLabels;
    QLabel *m_message;
    QPushButton *m_export;
};
