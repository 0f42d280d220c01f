#pragma once
// This process's peak resident memory (Linux's VmHWM), and its reset, so that each of an
// experiment's cases reports the most memory it took itself, not the largest case so far.
#include <cstddef>
#include <optional>

namespace kcycle::cli {

// Starts a new peak at the present resident memory (/proc/self/clear_refs); false where the
// kernel does not allow it (then the peak is the process's so far).
bool reset_peak_resident();
// The peak since the last reset (or the process's start), or nothing without /proc.
std::optional<std::size_t> peak_resident_bytes();

}  // namespace kcycle::cli
