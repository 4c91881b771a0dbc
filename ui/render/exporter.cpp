#include "exporter.h"
#include "formats/savefile.h"

#include "formats/csvexport.h"
#include "heatmappainter.h"
#include "formats/resultio.h"
#include "session/sessionio.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QRegularExpression>
#include <QFileInfo>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <cerrno>
#include <cmath>
#include <cstring>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Exporter", text);
}

// Pictures above this many pixels would need gigabytes; nobody needs one.
constexpr double kMaxPixels = 100e6;
constexpr int kMinSide = 16;
constexpr int kMaxSide = 16384;
constexpr double kMaxScale = 8.0;
// SVG and PDF say how big a picture is in physical units; at 96 dpi one
// picture pixel is one CSS pixel, as browsers and viewers expect.
constexpr int kSvgDpi = 96;

const char *const kViewNames[] = {"heatmap", "scores", "pipeline", "bars", "heads", "dashboard"};

// core/ numbers the average -1 (attn::headMatrixInDouble).
int coreHeadIndex(std::optional<int> head)
{
    return head.value_or(-1);
}

QByteArray csvFor(const SnapshotPtr &snapshot, const ExportOptions &options)
{
    const bool scores = options.view == ExportView::Scores;
    // Number files carry every digit: a matrix shown in single precision is
    // computed again in double (that one matrix only).
    if (snapshot->result->singlePrecision)
        return attn::matrixToCsv(attn::headMatrixInDouble(*snapshot->result, coreHeadIndex(options.head), scores),
                                 snapshot->rowTokens, snapshot->columnTokens);
    // The heatmap painter already picks the head, or averages, exactly as drawn.
    HeatmapPainter painter;
    painter.setSnapshot(snapshot);
    painter.setHead(options.head);
    painter.setShowScores(scores);
    return attn::matrixToCsv(painter.values()->toDouble(), snapshot->rowTokens, snapshot->columnTokens);
}

bool writeSvgTo(QIODevice *device, const SnapshotPtr &snapshot, const ExportOptions &options,
                const QString &description)
{
    const QSize size = exportSize(snapshot, options);
    QSvgGenerator generator;
    generator.setOutputDevice(device);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(kSvgDpi);
    generator.setTitle(tr("Attention Explorer — %1").arg(exportViewName(options.view)));
    generator.setDescription(description);
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    paintView(painter, QRectF(QPointF(0, 0), QSizeF(size)), snapshot, options, true);
    return painter.end();
}

// The views fill their background even on a transparent picture, with an
// invisible colour; QSvgGenerator writes those fills as rectangles that draw
// nothing but that a drawing program would still let one click and move.
// A group with neither fill nor stroke that holds only rectangles goes.
QByteArray withoutInvisibleFills(const QByteArray &svg)
{
    static const QRegularExpression invisible(QStringLiteral(
        "<g fill=\"#[0-9a-fA-F]{6}\" fill-opacity=\"0\" stroke=\"none\"[^>]*>\\s*(?:<rect [^>]*/>\\s*)+</g>\\s*"));
    return QString::fromUtf8(svg).remove(invisible).toUtf8();
}

bool writeSvg(QIODevice *device, const SnapshotPtr &snapshot, const ExportOptions &options,
              const QString &description)
{
    if (options.transparent) {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        if (!writeSvgTo(&buffer, snapshot, options, description))
            return false;
        const QByteArray bytes = withoutInvisibleFills(buffer.data());
        return device->write(bytes) == bytes.size();
    }
    return writeSvgTo(device, snapshot, options, description);
}

bool writePdf(QIODevice *device, const SnapshotPtr &snapshot, const ExportOptions &options)
{
    const QSize size = exportSize(snapshot, options);
    QPdfWriter writer(device);
    writer.setCreator(QStringLiteral("Attention Explorer"));
    writer.setTitle(tr("Attention Explorer — %1").arg(exportViewName(options.view)));
    // One point per picture pixel: the page is exactly the picture, and at
    // 72 dpi one painter unit is one point, so the layout matches the PNG.
    const QPageSize page(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch);
    if (!writer.setPageLayout(QPageLayout(page, QPageLayout::Portrait, QMarginsF(), QPageLayout::Point)))
        return false;
    writer.setResolution(72);
    QPainter painter;
    if (!painter.begin(&writer))
        return false;
    paintView(painter, QRectF(QPointF(0, 0), QSizeF(size)), snapshot, options, true);
    return painter.end();
}

// `title`: the picture's description (SVG), its lines joined.
bool writePicture(QIODevice *device, ExportFormat format, QString title, const SnapshotPtr &snapshot,
                  const ExportOptions &options)
{
    const QString description = title.replace(QLatin1Char('\n'), QStringLiteral(" · "));
    switch (format) {
    case ExportFormat::Png: {
        const QImage image = renderImage(snapshot, options);
        // zlib's fastest level: a heatmap's cells barely compress, and level 6
        // (the default) took two thirds of a whole `export` run for files 3 %
        // smaller. Qt maps quality q to level (100 - q) * 9 / 91.
        constexpr int kFastestPngQuality = 89;
        return !image.isNull() && image.save(device, "PNG", kFastestPngQuality);
    }
    case ExportFormat::Svg:
        return writeSvg(device, snapshot, options, description);
    case ExportFormat::Pdf:
        return writePdf(device, snapshot, options);
    case ExportFormat::Csv:
    case ExportFormat::Json:
        break;
    }
    return false;
}

} // namespace

QString exportViewName(ExportView view)
{
    return QString::fromLatin1(kViewNames[int(view)]);
}

std::optional<ExportView> exportViewFromName(const QString &name)
{
    for (ExportView view : allExportViews()) {
        if (name.compare(exportViewName(view), Qt::CaseInsensitive) == 0)
            return view;
    }
    return std::nullopt;
}

QList<ExportView> allExportViews()
{
    return {ExportView::Heatmap, ExportView::Scores, ExportView::Pipeline,
            ExportView::Bars,    ExportView::Heads,  ExportView::Dashboard};
}

std::optional<ExportFormat> exportFormatForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ExportFormat::Png;
    if (suffix == QLatin1String("svg"))
        return ExportFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    if (suffix == QLatin1String("csv"))
        return ExportFormat::Csv;
    if (suffix == QLatin1String("json"))
        return ExportFormat::Json;
    return std::nullopt;
}

bool isPictureFormat(ExportFormat format)
{
    return format == ExportFormat::Png || format == ExportFormat::Svg || format == ExportFormat::Pdf;
}

QSize defaultExportSize(ExportView view)
{
    switch (view) {
    case ExportView::Heatmap:
    case ExportView::Scores:
        return {800, 700};
    case ExportView::Pipeline:
    case ExportView::Bars:
        return {900, 420};
    case ExportView::Heads:
        return {900, 700};
    case ExportView::Dashboard:
        return {1600, 1000};
    }
    return {800, 600};
}

QPalette lightExportPalette()
{
    QPalette p(QColor(0xef, 0xef, 0xef), QColor(0xf4, 0xf4, 0xf4));
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::Text, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::WindowText, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Mid, QColor(0xa0, 0xa0, 0xa0));
    p.setColor(QPalette::Highlight, QColor(0xd9, 0x48, 0x01)); // orange: stands out on every colour map
    p.setColor(QPalette::HighlightedText, Qt::white);
    return p;
}

QPalette darkExportPalette()
{
    QPalette p(QColor(0x3a, 0x3a, 0x3a), QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    p.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    p.setColor(QPalette::Mid, QColor(0x70, 0x70, 0x70));
    p.setColor(QPalette::Highlight, QColor(0xff, 0x8c, 0x3a));
    p.setColor(QPalette::HighlightedText, Qt::black);
    return p;
}

QFont defaultExportFont()
{
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setStyleHint(QFont::SansSerif);
    font.setPixelSize(13);
    return font;
}

SnapshotPtr snapshotForSession(const attn::Session &session, attn::Precision precision, const attn::HeadsKept &kept)
{
    return makeSnapshot(session, precision, nullptr, kept);
}

QImage renderImage(const SnapshotPtr &snapshot, const ExportOptions &options)
{
    const QSize size = exportSize(snapshot, options);
    const double scale = options.scale > 0 ? options.scale : 1.0;
    // Opaque pictures without an alpha channel: a quarter less to encode and write.
    QImage image((QSizeF(size) * scale).toSize(),
                 options.transparent ? QImage::Format_ARGB32_Premultiplied : QImage::Format_RGB32);
    if (image.isNull())
        return image;
    // Recorded in the PNG: at 2x it prints at the size of 1x, only sharper.
    const int dotsPerMeter = int(std::lround(96.0 * scale / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    image.fill(options.transparent ? QColor(Qt::transparent) : options.palette.color(QPalette::Window));
    {
        // Our own transform rather than the image's pixel ratio, which QPainter
        // ignores below 1: every scale then lays out exactly like 1x.
        QPainter painter(&image);
        painter.scale(double(image.width()) / size.width(), double(image.height()) / size.height());
        paintView(painter, QRectF(QPointF(0, 0), QSizeF(size)), snapshot, options, false);
    }
    image.setDevicePixelRatio(scale);
    return image;
}

QString checkExport(const SnapshotPtr &snapshot, const ExportOptions &options, const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    const auto fail = [&name](const QString &what) { return name + QStringLiteral(": ") + what; };
    const std::optional<ExportFormat> format = exportFormatForPath(path);
    if (!format)
        return fail(tr("unknown file type; use .png, .svg, .pdf, .csv or .json"));
    if (!snapshot || !snapshot->result)
        return fail(tr("nothing to export: %1").arg(snapshot ? snapshot->error : tr("no session")));
    const int heads = int(snapshot->result->heads.size());
    if (options.head && (*options.head < 0 || *options.head >= heads))
        return fail(heads == 1 ? tr("head %1 does not exist; the session has one head, head 0").arg(*options.head)
                               : tr("head %1 does not exist; the session has heads 0 to %2").arg(*options.head).arg(heads - 1));
    const int queries = int(snapshot->rowTokens.size());
    if (options.query < 0 || options.query >= queries)
        return fail(tr("query %1 does not exist; the session has queries 0 to %2").arg(options.query).arg(queries - 1));
    if (options.transparent && *format != ExportFormat::Png && *format != ExportFormat::Svg)
        return fail(tr("a transparent background is for PNG and SVG pictures only"));
    if (!isPictureFormat(*format))
        return {};
    const QSize size = exportSize(snapshot, options);
    if (size.width() < kMinSide || size.height() < kMinSide || size.width() > kMaxSide || size.height() > kMaxSide)
        return fail(tr("size %1x%2 out of range; each side must be %3 to %4 pixels")
                        .arg(size.width()).arg(size.height()).arg(kMinSide).arg(kMaxSide));
    if (*format == ExportFormat::Png) {
        const double s = options.scale;
        if (!std::isfinite(s) || s < 0.1 || s > kMaxScale)
            return fail(tr("scale %1 out of range; use 0.1 to %2").arg(s).arg(kMaxScale));
        if (size.width() * s * size.height() * s > kMaxPixels)
            return fail(tr("picture too large: %1x%2 at scale %3 exceeds 100 megapixels")
                            .arg(size.width()).arg(size.height()).arg(s));
    }
    return {};
}

bool writeExport(QIODevice *device, const attn::Session &session, const SnapshotPtr &snapshot,
                 const ExportOptions &requested, ExportFormat format, const QString &name, QString *error)
{
    ExportOptions options = requested;
    if (options.title.isEmpty())
        options.title = dashboardTitle(session, options.query);
    try {
        if (isPictureFormat(format)) {
            if (writePicture(device, format, dashboardTitle(session, options.query), snapshot, options))
                return true;
            *error = tr("%1: cannot write: %2").arg(name, device->errorString().isEmpty() ? tr("painting failed")
                                                                                           : device->errorString());
            return false;
        }
        QByteArray bytes;
        if (format == ExportFormat::Csv) {
            bytes = csvFor(snapshot, options);
        } else {
            // The result file holds every head in double: a session shown in
            // single precision is computed again.
            const SnapshotPtr exact = snapshot->result->singlePrecision
                ? snapshotForSession(session, attn::Precision::Double) : snapshot;
            if (!exact->result) {
                *error = name + QStringLiteral(": ") + exact->error;
                return false;
            }
            bytes = attn::resultToJson(session, *exact->result);
        }
        if (device->write(bytes) == bytes.size())
            return true;
        *error = tr("%1: cannot write: %2").arg(name, device->errorString());
        return false;
    } catch (const std::bad_alloc &) {
        *error = isPictureFormat(format) ? tr("%1: not enough memory to paint this picture").arg(name)
                                         : tr("%1: not enough memory to write every number of this session").arg(name);
        return false;
    }
}

bool exportFile(const attn::Session &session, const SnapshotPtr &snapshot, const ExportOptions &options,
                const QString &path, QString *error)
{
    const QString problem = checkExport(snapshot, options, path);
    if (!problem.isEmpty()) {
        *error = problem;
        return false;
    }
    // Everything goes through QSaveFile: a failure never leaves half a file.
    QSaveFile file(path);
    const QString name = QFileInfo(path).fileName();
    if (!file.open(QIODevice::WriteOnly)) {
        *error = tr("%1: cannot write: %2").arg(name, file.errorString());
        return false;
    }
    if (!writeExport(&file, session, snapshot, options, *exportFormatForPath(path), name, error)) {
        file.cancelWriting();
        return false;
    }
    return attn::commitSaveFile(file, name, error);
}

bool exportSnapshot(const SnapshotPtr &snapshot, const ExportOptions &options, const QString &path, QString *error)
{
    const QString name = QFileInfo(path).fileName();
    QString problem = checkExport(snapshot, options, path);
    if (problem.isEmpty() && exportFormatForPath(path) == ExportFormat::Json)
        problem = tr("%1: a .json result needs the whole computation, not one view").arg(name);
    if (!problem.isEmpty()) {
        *error = problem;
        return false;
    }
    const ExportFormat format = *exportFormatForPath(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = tr("%1: cannot write: %2").arg(name, file.errorString());
        return false;
    }
    try {
        bool written = false;
        if (isPictureFormat(format)) {
            written = writePicture(&file, format, options.title, snapshot, options);
        } else {
            const QByteArray bytes = csvFor(snapshot, options);
            written = file.write(bytes) == bytes.size();
        }
        if (!written) {
            *error = tr("%1: cannot write: %2").arg(name, file.errorString().isEmpty() ? tr("painting failed")
                                                                                       : file.errorString());
            file.cancelWriting();
            return false;
        }
    } catch (const std::bad_alloc &) {
        *error = tr("%1: not enough memory to paint this picture").arg(name);
        file.cancelWriting();
        return false;
    }
    return attn::commitSaveFile(file, name, error);
}
