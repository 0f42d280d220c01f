#pragma once

namespace kcycle {

// Keeps the fields under kFreshPagesFrom (malloc's) in the heap once freed, for the next
// hierarchy to reuse: a set-up then writes pages it already holds instead of faulting in fresh
// ones. An executable calls it once, first thing in main: it sets the process's malloc (glibc's
// mmap and trim thresholds; elsewhere it does nothing). Measured on a 2-core VM whose page faults
// cost about 5 us each: an 8-level jacobi+cg hierarchy's set-up, repeated in one process, 11.5 ms
// before and 1.0 ms after (docs/model.md). What it holds is bounded by the fields under 2 MiB of
// the largest hierarchy built, a few MiB at 14 levels.
void keep_small_fields_in_the_heap();

}  // namespace kcycle
