#pragma once
// Which thread ran each forward pass. The window computes on worker threads,
// through the document's scheduler, except passes small enough to answer
// within a frame (ui/document/computescheduler.h, kSyncFlops); a large pass
// on the GUI thread would freeze it in proportion to the input's size,
// however fast a test machine is. The monkeys check these figures after every
// action, where a clock could only catch the slow cases.

namespace attn {

// Called at the start of every forward pass. work: its floating-point
// operations, or infinity when not counted (model passes: the window never
// runs one on the GUI thread).
void notePassThread(double work);

// Forward passes run so far on the application's main thread, and the work
// of the largest of them; passes before a QCoreApplication exists are not
// counted.
long passesOnMainThread();
double largestPassOnMainThread();

} // namespace attn
