#pragma once
// `attention-explorer bench`: times the forward pass, the machine's fastest
// single-precision matrix product, and (with --paint) the views' painting.

#include <QStringList>

int runBench(const QStringList &arguments);
