// Build-time helper: renders the app icon's SVG to the hicolor PNG sizes, so
// the SVG stays the one source; also checks that a PNG decodes to its size.
//
//   attn-iconrender render ICON.svg OUTDIR NAME SIZE...  writes OUTDIR/SIZExSIZE/apps/NAME.png
//   attn-iconrender check FILE.png SIZE                  exit 0 if FILE decodes to SIZExSIZE

#include <QDir>
#include <QImage>
#include <QImageReader>
#include <QPainter>
#include <QString>
#include <QSvgRenderer>
#include <QTextStream>

namespace {

int fail(const QString &message)
{
    QTextStream(stderr) << "attn-iconrender: " << message << Qt::endl;
    return 1;
}

int render(const QString &svgPath, const QString &outDir, const QString &name, const QStringList &sizes)
{
    QSvgRenderer renderer(svgPath);
    if (!renderer.isValid())
        return fail(svgPath + QStringLiteral(": not a valid SVG"));
    for (const QString &text : sizes) {
        bool ok = false;
        const int size = text.toInt(&ok);
        if (!ok || size <= 0 || size > 4096)
            return fail(QStringLiteral("bad size \"%1\"").arg(text));
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        renderer.render(&painter, QRectF(0, 0, size, size));
        painter.end();
        const QString dir = QStringLiteral("%1/%2x%2/apps").arg(outDir).arg(size);
        if (!QDir().mkpath(dir))
            return fail(dir + QStringLiteral(": cannot create"));
        const QString path = dir + QLatin1Char('/') + name + QStringLiteral(".png");
        if (!image.save(path, "PNG"))
            return fail(path + QStringLiteral(": cannot write"));
    }
    return 0;
}

int check(const QString &path, const QString &sizeText)
{
    QImageReader reader(path);
    const QImage image = reader.read();
    if (image.isNull())
        return fail(path + QStringLiteral(": ") + reader.errorString());
    const QString actual = QStringLiteral("%1x%2").arg(image.width()).arg(image.height());
    const QString expected = QStringLiteral("%1x%1").arg(sizeText);
    if (actual != expected)
        return fail(QStringLiteral("%1: %2, expected %3").arg(path, actual, expected));
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    // No QGuiApplication: rendering a text-free SVG into a QImage needs none,
    // and the build must not need a display.
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (args.size() >= 5 && args[0] == QLatin1String("render"))
        return render(args[1], args[2], args[3], args.mid(4));
    if (args.size() == 3 && args[0] == QLatin1String("check"))
        return check(args[1], args[2]);
    return fail(QStringLiteral("usage: attn-iconrender render ICON.svg OUTDIR NAME SIZE... | check FILE.png SIZE"));
}
