#pragma once
// Asks how big a PNG should be: the view's size at 1x or 2x, or a custom size.

#include <QDialog>
#include <QSize>

class QRadioButton;
class QSpinBox;

class ExportSizeDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ExportSizeDialog(const QSize &viewSize, QWidget *parent = nullptr);

    // The layout size in logical pixels and the pixel ratio to render it at.
    QSize exportSize() const;
    double exportScale() const;

private:
    QSize m_viewSize;
    QRadioButton *m_single = nullptr;
    QRadioButton *m_double = nullptr;
    QRadioButton *m_custom = nullptr;
    QSpinBox *m_width = nullptr;
    QSpinBox *m_height = nullptr;
};
