#pragma once
// The status bar's account of a long model run: "Layer 5 of 32" on a
// progress bar with Cancel while the layers come; after a stop, which layers
// were not computed and a button that computes them. Hidden otherwise.

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

class LayerProgressBar : public QWidget
{
    Q_OBJECT
public:
    explicit LayerProgressBar(QWidget *parent = nullptr);

    // `done` layers of `total` computed, the next one under way.
    void showRunning(int done, int total);
    // Stopped with `done` layers of `total` computed.
    void showStopped(int done, int total);
    void showNothing();

    // What it says: the bar's text while running, the label's after a stop.
    QString text() const;
    QProgressBar *bar() const { return m_bar; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *restButton() const { return m_rest; }

signals:
    void cancelRequested();
    void restRequested();

private:
    QProgressBar *m_bar;
    QLabel *m_label;
    QPushButton *m_cancel;
    QPushButton *m_rest;
};
