#pragma once
// Side-by-side columns of labelled horizontal bars: one row per token, the
// number beside each bar. The demos use it to put two versions of the same
// query's numbers next to each other (scores vs weights, scaled vs not,
// self vs cross-attention). It only draws what it is given.

#include <QColor>
#include <QPalette>
#include <QStringList>
#include <QWidget>
#include <vector>

class QFontMetricsF;
class QPainter;

struct BarColumn
{
    QString title;
    QStringList labels;
    std::vector<double> values;
    std::vector<bool> masked; // empty, or one per value: drawn as "masked", no bar
    int highlight = -1;       // a row drawn in bold (the query's own token, the largest weight)
    QString footer;           // one line under the bars
};

// Where a column's rows go across its width: labels, then bars, then numbers.
// The numbers always fit whole (the bold row's too); in a narrow column the
// labels are elided to keep a short bar, and the bars shrink.
struct BarColumnLayout
{
    double labelWidth = 0;
    double barLeft = 0, barWidth = 0;
    double numberLeft = 0, numberWidth = 0;
};

class BarColumnsView : public QWidget
{
    Q_OBJECT
public:
    explicit BarColumnsView(QWidget *parent = nullptr);

    // `between` are the labels of the arrows between neighbouring columns
    // ("softmax"); missing or empty ones draw a plain gap.
    void setColumns(const std::vector<BarColumn> &columns, const QStringList &between = {});
    const std::vector<BarColumn> &columns() const { return m_columns; }
    // Message shown instead of the columns (an error, or nothing to compare).
    void setMessage(const QString &message);
    QString message() const { return m_message; }

    void paint(QPainter &painter, const QRectF &rect, const QPalette &palette) const;
    // The layout of `column` in `rect`, for painting and for tests.
    static BarColumnLayout columnLayout(const BarColumn &column, const QRectF &rect, const QFontMetricsF &normal,
                                        const QFontMetricsF &bold);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {240, 120}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void paintColumn(QPainter &painter, const BarColumn &column, const QRectF &rect, double titleHeight,
                     const QPalette &palette) const;

    std::vector<BarColumn> m_columns;
    QStringList m_between;
    QString m_message;
};
