#pragma once
// Eigen matrices to and from JSON arrays of rows.

#include <Eigen/Dense>
#include <QJsonArray>

namespace attn {

QJsonArray matrixToJson(const Eigen::Ref<const Eigen::MatrixXd> &m);
QJsonArray vectorToJson(const Eigen::Ref<const Eigen::VectorXd> &v);

} // namespace attn
