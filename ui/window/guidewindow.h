#pragma once
// Help › User Guide: the Markdown pages of docs/ read offline, in a window of their own.

#include <QMainWindow>
#include <QTextBrowser>

// The folder holding user-guide.md: installed next to the program
// (share/doc/attention-explorer/docs), else the source tree's docs/ of a build
// that was not installed. Empty when neither holds the pages.
QString guideFolder();

// The anchor GitHub gives a heading: lower case, spaces to hyphens, anything
// but letters, digits, hyphens and underscores dropped. Links between the
// pages use these, so they land on the same heading here and on the web.
QString headingAnchor(const QString &heading);

// A QTextBrowser for the pages: headings get their anchors, pictures wider
// than a page are scaled to fit, links to other sites open in the system's
// browser, and other files (an SVG picture, say) in the program the desktop
// chooses for them.
class GuideBrowser : public QTextBrowser
{
    Q_OBJECT
public:
    explicit GuideBrowser(QWidget *parent = nullptr);

    QVariant loadResource(int type, const QUrl &name) override;
    // The first heading of the page shown: its title.
    QString pageTitle() const;

signals:
    void linkFailed(const QString &message);

protected:
    void doSetSource(const QUrl &name, QTextDocument::ResourceType type) override;

private:
    void follow(const QUrl &link);
    void addHeadingAnchors();
};

class GuideWindow : public QMainWindow
{
    Q_OBJECT
public:
    // `folder` as guideFolder() gives it; empty: the window says where it looked.
    explicit GuideWindow(const QString &folder, QWidget *parent = nullptr);

    GuideBrowser *browser() const { return m_browser; }
    // A page of the folder, such as "models.md" or "models.md#switch-a-head-off".
    void showPage(const QString &page);

    // The guide window of `parent`, made on first use, shown and raised.
    static GuideWindow *showFor(QWidget *parent);

private:
    void showNotInstalled();

    QString m_folder;
    GuideBrowser *m_browser;
};
