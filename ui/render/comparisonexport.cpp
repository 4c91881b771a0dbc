#include "comparisonexport.h"

#include "exporter.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace {

QString tr(const char *text) { return QCoreApplication::translate("ComparisonExport", text); }

// A CSV field: quoted when it holds a comma, quote or line break.
QString field(const QString &s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
        return s;
    return QLatin1Char('"') + QString(s).replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

void appendMatrix(QString &out, const QString &heading, const attn::RowMatrix<float> &m, const QStringList &labels)
{
    out += QStringLiteral("# ") + heading + QLatin1Char('\n');
    out += QStringLiteral("query\\key");
    for (int c = 0; c < int(m.cols()); ++c)
        out += QLatin1Char(',') + field(c < labels.size() ? labels[c] : QString::number(c));
    out += QLatin1Char('\n');
    for (int r = 0; r < int(m.rows()); ++r) {
        out += field(r < labels.size() ? labels[r] : QString::number(r));
        for (int c = 0; c < int(m.cols()); ++c)
            out += QLatin1Char(',') + QString::number(double(m(r, c)), 'g', 9);
        out += QLatin1Char('\n');
    }
    out += QLatin1Char('\n');
}

} // namespace

QSize defaultComparisonSize() { return QSize(1500, 900); }

QByteArray comparisonCsv(const ComparisonData &data)
{
    QString out;
    appendMatrix(out, QStringLiteral("A: ") + data.a.title, data.a.weights, data.a.labels);
    appendMatrix(out, QStringLiteral("B: ") + data.b.title + QStringLiteral(" (") + data.description
                          + QLatin1Char(')'), data.b.weights, data.b.labels);
    if (data.cellwise)
        appendMatrix(out, QStringLiteral("B - A"), data.difference, data.a.labels);
    if (!data.headChange.empty()) {
        out += QStringLiteral("# change of every head: ") + data.changeName + QLatin1Char('\n');
        out += QStringLiteral("layer\\head");
        for (std::size_t h = 0; h < data.headChange.front().size(); ++h)
            out += QStringLiteral(",H%1").arg(h);
        out += QLatin1Char('\n');
        for (std::size_t l = 0; l < data.headChange.size(); ++l) {
            out += QStringLiteral("L%1").arg(l);
            for (float v : data.headChange[l])
                out += QLatin1Char(',') + QString::number(double(v), 'g', 9);
            out += QLatin1Char('\n');
        }
    }
    return out.toUtf8();
}

QString writeComparison(const QString &path, const ComparisonPainter &painter, const QSize &size)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QStringList known{QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"), QStringLiteral("csv")};
    if (!known.contains(suffix))
        return tr("%1: unknown file type (use .png, .svg, .pdf or .csv)").arg(QFileInfo(path).fileName());
    if (!painter.data() || painter.data()->isEmpty())
        return tr("%1: there is no comparison to export yet").arg(QFileInfo(path).fileName());
    if (size.width() < 16 || size.height() < 16 || size.width() > 16384 || size.height() > 16384)
        return tr("%1: a picture of %2 x %3 pixels is out of range").arg(path).arg(size.width()).arg(size.height());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return tr("%1: cannot write (%2)").arg(path, file.errorString());
    const QRectF bounds(QPointF(0, 0), QSizeF(size));
    const QRectF content = bounds.adjusted(16, 16, -16, -16);
    const QPalette palette = lightExportPalette();
    const QFont font = defaultExportFont();
    bool ok = false;
    if (suffix == QLatin1String("csv")) {
        const QByteArray bytes = comparisonCsv(*painter.data());
        ok = file.write(bytes) == bytes.size();
    } else if (suffix == QLatin1String("png")) {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(palette.color(QPalette::Base));
        QPainter p(&image);
        painter.paint(p, content, palette, font);
        p.end();
        ok = image.save(&file, "PNG");
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setResolution(96);
        generator.setTitle(tr("Attention Explorer — comparison"));
        generator.setDescription(painter.data()->description);
        QPainter p;
        ok = p.begin(&generator);
        if (ok) {
            p.fillRect(bounds, palette.color(QPalette::Base));
            painter.paint(p, content, palette, font);
            ok = p.end();
        }
    } else {
        QPdfWriter writer(&file);
        writer.setCreator(QStringLiteral("Attention Explorer"));
        writer.setTitle(tr("Attention Explorer — comparison"));
        // One point per picture pixel, as the other exports do.
        const QPageSize page(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch);
        ok = writer.setPageLayout(QPageLayout(page, QPageLayout::Portrait, QMarginsF(), QPageLayout::Point));
        writer.setResolution(72);
        QPainter p;
        ok = ok && p.begin(&writer);
        if (ok) {
            painter.paint(p, content, palette, font);
            ok = p.end();
        }
    }
    if (!ok || !file.commit())
        return tr("%1: cannot write (%2)").arg(path, file.errorString());
    return {};
}
