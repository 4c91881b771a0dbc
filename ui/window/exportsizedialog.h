#pragma once
// Asks how a picture should be exported: the view's size at 1x or 2x (PNG
// only), or a custom size, and whether its background is transparent.

#include <QDialog>
#include <QSize>

class QCheckBox;
class QRadioButton;
class QSpinBox;

class ExportSizeDialog : public QDialog
{
    Q_OBJECT
public:
    // `pixelRatio`: offer 2x (PNG), chosen at first when `preferDouble`; an SVG has no pixels to double.
    explicit ExportSizeDialog(const QSize &viewSize, bool pixelRatio = true, QWidget *parent = nullptr,
                              bool preferDouble = false);

    // The layout size in logical pixels and the pixel ratio to render it at.
    QSize exportSize() const;
    double exportScale() const;
    bool isTransparent() const;

private:
    QSize m_viewSize;
    QRadioButton *m_single = nullptr;
    QRadioButton *m_double = nullptr;
    QRadioButton *m_custom = nullptr;
    QSpinBox *m_width = nullptr;
    QSpinBox *m_height = nullptr;
    QCheckBox *m_transparent = nullptr;
};
