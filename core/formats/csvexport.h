#pragma once
// A matrix with token labels as CSV (RFC 4180): keys across the top,
// queries down the first column, numbers that read back as the same double.

#include <Eigen/Dense>
#include <QByteArray>
#include <QStringList>

namespace attn {

QByteArray matrixToCsv(const Eigen::Ref<const Eigen::MatrixXd> &matrix, const QStringList &rowLabels,
                       const QStringList &columnLabels, const QString &corner = QString());

// One CSV field, quoted when it holds a comma, a quote or a line break.
QString csvField(const QString &text);

} // namespace attn
