#include "guidewindow.h"

#include <QAction>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QScreen>
#include <QStatusBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QToolBar>
#include <QUrl>

// Made by CMake from guidepaths.cpp.in: the pages' folder relative to the
// installed program, and the source tree's docs/.
extern const char *const kGuideFromProgram;
extern const char *const kGuideInSource;

namespace {

const QString kStartPage = QStringLiteral("user-guide.md");

// Pictures are scaled down to this width (logical pixels): the screenshots are
// up to 1600 pixels wide, and a page wider than the screen reads badly.
constexpr int kMaxPictureWidth = 860;

bool isWebLink(const QUrl &url)
{
    const QString scheme = url.scheme();
    return scheme == QLatin1String("http") || scheme == QLatin1String("https") || scheme == QLatin1String("mailto");
}

bool isPage(const QUrl &url)
{
    const QString suffix = QFileInfo(url.path()).suffix().toLower();
    return suffix == QLatin1String("md") || suffix == QLatin1String("markdown");
}

} // namespace

QString guideFolder()
{
    const QStringList candidates = {
        QDir(QCoreApplication::applicationDirPath()).filePath(QString::fromUtf8(kGuideFromProgram)),
        QString::fromUtf8(kGuideInSource)};
    for (const QString &folder : candidates)
        if (QFileInfo(QDir(folder).filePath(kStartPage)).isFile())
            return QDir::cleanPath(folder);
    return {};
}

QString headingAnchor(const QString &heading)
{
    QString anchor;
    for (const QChar c : heading.toLower()) {
        if (c.isLetterOrNumber() || c.isMark() || c == u'-' || c == u'_')
            anchor += c;
        else if (c == u' ')
            anchor += u'-';
    }
    return anchor;
}

GuideBrowser::GuideBrowser(QWidget *parent) : QTextBrowser(parent)
{
    setOpenLinks(false); // follow() decides where each link goes
    document()->setDocumentMargin(16);
    setAccessibleName(tr("User guide page"));
    connect(this, &QTextBrowser::anchorClicked, this, &GuideBrowser::follow);
}

void GuideBrowser::follow(const QUrl &link)
{
    const QUrl target = source().resolved(link);
    if (isWebLink(target)) {
        QDesktopServices::openUrl(target);
        return;
    }
    if (!target.isLocalFile() || !QFileInfo::exists(target.toLocalFile())) {
        emit linkFailed(tr("%1 is missing").arg(target.toDisplayString()));
        return;
    }
    if (isPage(target))
        setSource(target);
    else
        QDesktopServices::openUrl(target);
}

void GuideBrowser::doSetSource(const QUrl &name, QTextDocument::ResourceType type)
{
    const bool samePage = name.adjusted(QUrl::RemoveFragment) == source().adjusted(QUrl::RemoveFragment);
    QTextBrowser::doSetSource(name, type);
    if (!samePage)
        addHeadingAnchors();
    // The base class scrolled before the anchors existed.
    if (name.hasFragment())
        scrollToAnchor(name.fragment());
}

void GuideBrowser::addHeadingAnchors()
{
    QHash<QString, int> seen; // GitHub numbers repeated headings: name, name-1, name-2
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0 || block.length() <= 1)
            continue;
        QString anchor = headingAnchor(block.text());
        const int count = seen.value(anchor, 0);
        seen.insert(anchor, count + 1);
        if (count > 0)
            anchor += QStringLiteral("-%1").arg(count);
        QTextCursor cursor(block);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        QTextCharFormat format;
        format.setAnchor(true);
        format.setAnchorNames({anchor});
        cursor.mergeCharFormat(format);
    }
    document()->setModified(false);
}

QVariant GuideBrowser::loadResource(int type, const QUrl &name)
{
    const QVariant data = QTextBrowser::loadResource(type, name);
    if (type != QTextDocument::ImageResource || data.typeId() != QMetaType::QByteArray)
        return data;
    QImage image = QImage::fromData(data.toByteArray());
    if (image.isNull())
        return data;
    const qreal ratio = devicePixelRatioF();
    if (image.width() > kMaxPictureWidth * ratio)
        image = image.scaledToWidth(qRound(kMaxPictureWidth * ratio), Qt::SmoothTransformation);
    image.setDevicePixelRatio(ratio);
    return image;
}

QString GuideBrowser::pageTitle() const
{
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next())
        if (block.blockFormat().headingLevel() > 0)
            return block.text();
    return {};
}

GuideWindow::GuideWindow(const QString &folder, QWidget *parent)
    : QMainWindow(parent, Qt::Window), m_folder(folder), m_browser(new GuideBrowser)
{
    setObjectName(QStringLiteral("guideWindow"));
    setCentralWidget(m_browser);
    QToolBar *tools = addToolBar(tr("Navigation"));
    tools->setObjectName(QStringLiteral("guideNavigation"));
    tools->setMovable(false);
    QAction *back = tools->addAction(tr("Back"), m_browser, &QTextBrowser::backward);
    back->setShortcut(QKeySequence::Back);
    back->setEnabled(false);
    QAction *forward = tools->addAction(tr("Forward"), m_browser, &QTextBrowser::forward);
    forward->setShortcut(QKeySequence::Forward);
    forward->setEnabled(false);
    tools->addAction(tr("User Guide"), this, [this] { showPage(kStartPage); })->setToolTip(tr("The first page"));
    connect(m_browser, &QTextBrowser::backwardAvailable, back, &QAction::setEnabled);
    connect(m_browser, &QTextBrowser::forwardAvailable, forward, &QAction::setEnabled);
    connect(m_browser, &QTextBrowser::sourceChanged, this, [this] {
        setWindowTitle(tr("%1 — Attention Explorer").arg(m_browser->pageTitle()));
    });
    connect(m_browser, &GuideBrowser::linkFailed, this, [this](const QString &message) {
        statusBar()->showMessage(message, 10000);
    });
    connect(m_browser, qOverload<const QUrl &>(&QTextBrowser::highlighted), this, [this](const QUrl &link) {
        statusBar()->showMessage(link.isEmpty() ? QString() : m_browser->source().resolved(link).toDisplayString());
    });
    // A comfortable reading size, never larger than the screen (a projector's
    // 1280 x 720 included): the frame's title bar and borders come on top.
    QSize size(960, 800);
    if (const QScreen *screen = QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size() - QSize(40, 80));
    resize(size);
    if (m_folder.isEmpty())
        showNotInstalled();
    else
        showPage(kStartPage);
}

void GuideWindow::showPage(const QString &page)
{
    if (m_folder.isEmpty())
        return;
    m_browser->setSource(QUrl::fromLocalFile(m_folder + QLatin1Char('/')).resolved(QUrl(page)));
}

void GuideWindow::showNotInstalled()
{
    setWindowTitle(tr("User Guide — Attention Explorer"));
    const QString installed = QDir::cleanPath(QDir(QCoreApplication::applicationDirPath())
                                                  .filePath(QString::fromUtf8(kGuideFromProgram)));
    m_browser->setMarkdown(tr("# User guide\n\nThe pages of the user guide are not installed. They were looked "
                              "for in `%1` and in `%2`. Install the program with `cmake --install`, or read "
                              "them on the project's web pages.")
                               .arg(installed, QString::fromUtf8(kGuideInSource)));
}

GuideWindow *GuideWindow::showFor(QWidget *parent)
{
    auto *window = parent->findChild<GuideWindow *>(QString(), Qt::FindDirectChildrenOnly);
    if (!window)
        window = new GuideWindow(guideFolder(), parent);
    window->show();
    window->raise();
    window->activateWindow();
    return window;
}
