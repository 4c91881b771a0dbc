#include "democolumns.h"

#include "lessons/lessons.h"
#include "lessons/notation.h"

#include <QCoreApplication>
#include <algorithm>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("DemoColumns", text);
}

const attn::HeadResult *headOf(const AttentionSnapshot &snapshot, int head)
{
    if (!snapshot.result || snapshot.result->heads.empty())
        return nullptr;
    const auto &heads = snapshot.result->heads;
    return &heads[std::size_t(std::clamp(head, 0, int(heads.size()) - 1))];
}

int argmax(const std::vector<double> &values)
{
    return values.empty() ? -1 : int(std::max_element(values.begin(), values.end()) - values.begin());
}

} // namespace

BarColumn demoColumn(const QString &title, const AttentionSnapshot &snapshot, int query, int head, DemoRow row)
{
    BarColumn column;
    column.title = title;
    const attn::HeadResult *h = headOf(snapshot, head);
    if (!h)
        return column;
    query = std::clamp(query, 0, int(h->weights.rows()) - 1);
    column.labels = snapshot.columnTokens;
    const double scale = row == DemoRow::ScaledScores ? snapshot.result->scoreScale : 1.0;
    for (Eigen::Index j = 0; j < h->weights.cols(); ++j) {
        column.values.push_back(row == DemoRow::Weights ? h->weights(query, j) : h->scores(query, j) * scale);
        column.masked.push_back(row == DemoRow::Weights && snapshot.result->isMasked(query, int(j)));
    }
    column.highlight = argmax(column.values);
    return column;
}

BarColumn unshuffledWeightsColumn(const QString &title, const AttentionSnapshot &shuffled,
                                  const std::vector<int> &order, const QStringList &originalTokens, int originalQuery,
                                  int head)
{
    BarColumn column;
    column.title = title;
    const attn::HeadResult *h = headOf(shuffled, head);
    if (!h || h->weights.rows() != Eigen::Index(order.size()))
        return column;
    const Eigen::MatrixXd back = attn::unshuffle(h->weights.toDouble(), order);
    column.labels = originalTokens;
    for (Eigen::Index j = 0; j < back.cols(); ++j)
        column.values.push_back(back(originalQuery, j));
    column.highlight = argmax(column.values);
    return column;
}

QString largestWeightText(const BarColumn &column)
{
    const int best = argmax(column.values);
    if (best < 0)
        return QString();
    return tr("largest weight %1 (“%2”)").arg(attn::formatFixed(column.values[std::size_t(best)]),
                                              column.labels.value(best));
}
