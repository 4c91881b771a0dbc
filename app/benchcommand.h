#pragma once
// `attention-explorer bench`: times the forward pass, the machine's fastest
// single-precision matrix product, and (with --paint) the views' painting.

#include "cliparse.h"

// Prints one JSON line on stdout; the arguments were checked by parseCommandLine.
int runBench(const BenchArgs &args);

// The best of a few 2048² OpenBLAS sgemm calls, in GFLOP/s: the machine's ceiling.
double sgemmGflops();

// The process's largest resident set so far, in MiB.
double peakResidentMiB();
