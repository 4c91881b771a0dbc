#include "session/embedding.h"

#include "runtime/prng.h"

#include <QHash>
#include <cmath>

namespace attn {

double defaultEmbeddingValue(const QString &word, int dim)
{
    const QByteArray utf8 = word.toUtf8();
    const std::uint64_t wordHash = stableHash(utf8.constData(), std::size_t(utf8.size()));
    SplitMix64 rng(wordHash ^ (0xD1B54A32D192ED03ull * std::uint64_t(dim + 1)));
    rng.next(); // let nearby seeds drift apart
    // "+ 0.0" turns a rounded -0.0 into 0.0, so no chip ever shows "-0.00".
    return std::round(rng.nextSymmetric(1.0) * 100.0) / 100.0 + 0.0;
}

Eigen::VectorXd defaultEmbedding(const QString &word, int dModel)
{
    Eigen::VectorXd v(dModel);
    for (int k = 0; k < dModel; ++k)
        v(k) = defaultEmbeddingValue(word, k);
    return v;
}

Eigen::MatrixXd carryOverEmbeddings(const QStringList &oldTokens, const Eigen::MatrixXd &oldEmbeddings,
                                    const QStringList &newTokens)
{
    const int dModel = int(oldEmbeddings.cols());
    QHash<QString, QVector<int>> oldRows;
    for (int i = 0; i < oldTokens.size() && i < oldEmbeddings.rows(); ++i)
        oldRows[oldTokens[i]].append(i);

    Eigen::MatrixXd out(newTokens.size(), dModel);
    QHash<QString, int> seen;
    for (int i = 0; i < newTokens.size(); ++i) {
        const QString &word = newTokens[i];
        const int occurrence = seen[word]++;
        const auto it = oldRows.constFind(word);
        if (it != oldRows.constEnd()) {
            const QVector<int> &rows = *it;
            out.row(i) = oldEmbeddings.row(rows[std::min(occurrence, int(rows.size()) - 1)]);
        } else {
            out.row(i) = defaultEmbedding(word, dModel).transpose();
        }
    }
    return out;
}

Eigen::MatrixXd resizeEmbeddings(const QStringList &tokens, const Eigen::MatrixXd &embeddings, int dModel)
{
    const int keep = std::min<int>(dModel, int(embeddings.cols()));
    Eigen::MatrixXd out(embeddings.rows(), dModel);
    out.leftCols(keep) = embeddings.leftCols(keep);
    for (int i = 0; i < out.rows(); ++i)
        for (int k = keep; k < dModel; ++k)
            out(i, k) = defaultEmbeddingValue(tokens.value(i), k);
    return out;
}

} // namespace attn
