#include "formats/jsonconvert.h"

namespace attn {

QJsonArray vectorToJson(const Eigen::Ref<const Eigen::VectorXd> &v)
{
    QJsonArray a;
    for (Eigen::Index i = 0; i < v.size(); ++i)
        a.append(v(i));
    return a;
}

QJsonArray matrixToJson(const Eigen::Ref<const Eigen::MatrixXd> &m)
{
    QJsonArray rows;
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        QJsonArray row;
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            row.append(m(r, c));
        rows.append(row);
    }
    return rows;
}

} // namespace attn
