#include "formats/csvexport.h"

#include <QLocale>

namespace attn {

QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n'))
        && !text.contains(QLatin1Char('\r')) && text.trimmed() == text)
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QByteArray matrixToCsv(const Eigen::Ref<const Eigen::MatrixXd> &matrix, const QStringList &rowLabels,
                       const QStringList &columnLabels, const QString &corner)
{
    QByteArray out;
    out += csvField(corner).toUtf8();
    for (Eigen::Index c = 0; c < matrix.cols(); ++c)
        out += ',' + csvField(columnLabels.value(int(c))).toUtf8();
    out += "\r\n";
    for (Eigen::Index r = 0; r < matrix.rows(); ++r) {
        out += csvField(rowLabels.value(int(r))).toUtf8();
        for (Eigen::Index c = 0; c < matrix.cols(); ++c) {
            out += ',';
            // The shortest text that reads back as the same double (0.43, not 0.42999999999999999).
            out += QByteArray::number(matrix(r, c), 'g', QLocale::FloatingPointShortest);
        }
        out += "\r\n";
    }
    return out;
}

} // namespace attn
