#pragma once
// Cross-attention: a source sentence that supplies keys and values, and the
// current query's weights in self-attention and in cross-attention side by
// side. Both come from the core through the Document; this panel only draws.

#include "snapshot.h"

#include <QWidget>

class BarColumnsView;
class Document;
class QLabel;
class QLineEdit;
class QTimer;

class CrossAttentionPanel : public QWidget
{
    Q_OBJECT
public:
    explicit CrossAttentionPanel(Document *document, QWidget *parent = nullptr);

    void setHead(int head); // -1 (the average) compares head 1

    QLineEdit *sourceEdit() const { return m_source; }
    BarColumnsView *compareView() const { return m_compare; }
    QString statusText() const;

    static constexpr int kSourceDelayMs = 250;

private:
    void onSessionChanged();
    void updateComparison();

    Document *m_document;
    int m_head = 0;
    SnapshotPtr m_self; // the session without its source, recomputed when the session changes
    bool m_selfPending = false; // m_self is on its way from the scheduler
    QLineEdit *m_source = nullptr;
    QTimer *m_timer = nullptr;
    QLabel *m_status = nullptr;
    BarColumnsView *m_compare = nullptr;
};
