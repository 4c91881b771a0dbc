#include "io/fileidentity.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

namespace attn {

QString fileIdentity(const QString &path, QString *error)
{
    constexpr qint64 kHead = 1 << 20;
    constexpr qint64 kSample = 4096;
    constexpr int kSamples = 64;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot open: %2").arg(QFileInfo(path).fileName(), file.errorString());
        return {};
    }
    const qint64 size = file.size();
    QCryptographicHash hash(QCryptographicHash::Sha256);
    const auto take = [&](qint64 at, qint64 length) {
        if (!file.seek(at))
            return false;
        const QByteArray bytes = file.read(length);
        hash.addData(bytes);
        return bytes.size() == length;
    };
    bool ok = true;
    if (size <= kHead + (kSamples + 1) * kSample) {
        ok = take(0, size);
    } else {
        ok = take(0, kHead);
        const qint64 span = size - kHead - kSample; // where samples may start
        for (int i = 0; ok && i < kSamples; ++i)
            ok = take(kHead + span * i / kSamples, kSample);
        ok = ok && take(size - kSample, kSample);
    }
    if (!ok) {
        *error = QStringLiteral("%1: cannot read: %2").arg(QFileInfo(path).fileName(), file.errorString());
        return {};
    }
    return QStringLiteral("size:%1 sha256:%2").arg(size).arg(QString::fromLatin1(hash.result().toHex()));
}

} // namespace attn
