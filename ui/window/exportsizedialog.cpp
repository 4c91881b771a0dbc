#include "exportsizedialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

ExportSizeDialog::ExportSizeDialog(const QSize &viewSize, bool pixelRatio, QWidget *parent, bool preferDouble)
    : QDialog(parent), m_viewSize(viewSize)
{
    setWindowTitle(pixelRatio ? tr("PNG Size") : tr("SVG Size"));
    auto *layout = new QVBoxLayout(this);
    const auto pixels = [](const QSize &s) { return tr("%1 × %2 pixels").arg(s.width()).arg(s.height()); };
    m_single = new QRadioButton(tr("&1× (%1)").arg(pixels(viewSize)));
    m_double = new QRadioButton(tr("&2× (%1), sharper on slides and high-resolution screens").arg(pixels(viewSize * 2)));
    m_custom = new QRadioButton(tr("&Custom size:"));
    (pixelRatio && preferDouble ? m_double : m_single)->setChecked(true);
    layout->addWidget(m_single);
    layout->addWidget(m_double);
    m_double->setVisible(pixelRatio);

    auto *custom = new QHBoxLayout;
    custom->addWidget(m_custom);
    const auto spin = [this](int value, const QString &name) {
        auto *box = new QSpinBox;
        box->setRange(16, 16384);
        box->setValue(value);
        box->setSuffix(tr(" px"));
        box->setAccessibleName(name);
        box->setEnabled(false);
        connect(m_custom, &QRadioButton::toggled, box, &QWidget::setEnabled);
        return box;
    };
    m_width = spin(viewSize.width(), tr("Width"));
    m_height = spin(viewSize.height(), tr("Height"));
    custom->addWidget(m_width);
    custom->addWidget(new QLabel(QStringLiteral("×")));
    custom->addWidget(m_height);
    custom->addStretch(1);
    layout->addLayout(custom);

    m_transparent = new QCheckBox(tr("&Transparent background"));
    m_transparent->setToolTip(tr("No background fill, so the picture sits on a slide's own colour; "
                                 "cells, text and bars stay opaque"));
    layout->addWidget(m_transparent);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

QSize ExportSizeDialog::exportSize() const
{
    return m_custom->isChecked() ? QSize(m_width->value(), m_height->value()) : m_viewSize;
}

double ExportSizeDialog::exportScale() const
{
    return m_double->isChecked() ? 2.0 : 1.0;
}

bool ExportSizeDialog::isTransparent() const
{
    return m_transparent->isChecked();
}
