#pragma once
// Writes a comparison of two runs to a file: a picture (PNG, SVG, PDF,
// through ComparisonPainter) or its numbers (CSV: A, B, B − A and the change
// of every head). The Compare dock's "Export this comparison…".

#include "comparisonpainter.h"

#include <QByteArray>
#include <QSize>
#include <QString>

// The numbers as CSV: sections headed "# A: …", "# B: …", "# B - A" (when
// cell by cell) and "# change of every head: …", each a matrix with the
// tokens (or heads) as row and column labels.
QByteArray comparisonCsv(const ComparisonData &data);

// Writes `painter`'s comparison to `path` (.png, .svg, .pdf or .csv) at
// `size` logical pixels. Returns an empty string, or one line saying why not.
QString writeComparison(const QString &path, const ComparisonPainter &painter, const QSize &size);

// The size a comparison of this shape reads well at.
QSize defaultComparisonSize();
