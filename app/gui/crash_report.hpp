#pragma once
// On a fatal signal (an abort, glibc's heap checks among them, a segfault, a bus error) the
// visualizer writes which one and its stack to stderr, then dies as it would have: a crash on
// a CI machine or a lecturer's laptop then says where it happened, not just "Aborted".
// Not installed under the sanitizers, which report these themselves.
namespace kcycle::gui {

void install_crash_report();

}  // namespace kcycle::gui
