#pragma once
// The guided walkthrough: one step of the computation at a time for the
// current query and head, its formula filled in with the current numbers.
// Fed through setters; it keeps its step when the numbers change, and its
// place by meaning when the steps themselves change (the causal mask adds
// one), saying so.

#include "snapshot.h"
#include "lessons/walkthrough.h"

#include <QList>
#include <QWidget>
#include <vector>

class QLabel;
class QPushButton;

class WalkthroughPanel : public QWidget
{
    Q_OBJECT
public:
    explicit WalkthroughPanel(QWidget *parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setQuery(int query);
    void setHead(int head); // -1 (the average) walks through head 1

    int currentStep() const { return m_step; }
    int stepCount() const { return int(m_steps.size()); }
    const std::vector<attn::WalkthroughStep> &steps() const { return m_steps; }
    // What the panel shows, for tests and accessibility.
    QString titleText() const;
    QString explanationText() const;
    QString formulaText() const;
    // Why the step number moved under the user (empty when it did not).
    QString changeNote() const;
    // Said above the steps while the head they walk through is switched off.
    QString switchedOffNote() const;
    QPushButton *nextButton() const { return m_next; }
    QPushButton *backButton() const { return m_back; }

    QSize sizeHint() const override { return {420, 320}; }

public slots:
    void setCurrentStep(int step);
    void next() { setCurrentStep(m_step + 1); }
    void back() { setCurrentStep(m_step - 1); }

signals:
    // The query row and key columns the current step talks about, so the
    // heatmap and the chips can point at them.
    void highlightChanged(int query, const QList<int> &keys);
    void stepChanged(int step);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;
    void applyFonts(); // the title's and the formulas' fonts, from the panel's
    void showEvent(QShowEvent *event) override;

private:
    void rebuild();
    void showStep();
    // After the steps changed from `before`: the step of the same kind as
    // `was`, else the one that follows where it stood; says so in the note.
    void keepPlace(const std::vector<attn::WalkthroughStepKind> &before, attn::WalkthroughStepKind was,
                   const QString &wasTitle);

    SnapshotPtr m_snapshot;
    int m_query = 0;
    int m_head = 0;
    int m_step = 0;
    std::vector<attn::WalkthroughStep> m_steps;
    bool m_stale = false; // rebuild() waited until the panel is shown

    QLabel *m_indicator = nullptr;
    QLabel *m_changed = nullptr; // "The steps changed …", until the user moves
    QLabel *m_switchedOff = nullptr; // the head shown is switched off
    QLabel *m_title = nullptr;
    QLabel *m_explanation = nullptr;
    QLabel *m_formulas = nullptr;
    QPushButton *m_back = nullptr;
    QPushButton *m_next = nullptr;
};
