#pragma once
// The widget around ContributionPainter: fed through setters, draws only.

#include "contributionpainter.h"

#include <QWidget>

class ContributionView : public QWidget
{
    Q_OBJECT
public:
    explicit ContributionView(QWidget *parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setQuery(int query);
    void setHead(int head);

    const ContributionPainter &chartPainter() const { return m_painter; }
    const ContributionModel &model() const { return m_painter.model(); }

    QSize sizeHint() const override { return {480, 300}; }
    QSize minimumSizeHint() const override { return {240, 180}; }

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    ContributionPainter m_painter;
};
