#pragma once
// Reading a small input file (a parameters file, a calibration, a GUI script) so that no path
// can hang or exhaust the reader: it must be a regular file of at most kMaxInputBytes, opened
// without blocking (a FIFO or a device is refused, not read); "-" is standard input where the
// caller allows it, read up to the same cap.
#include <cstddef>
#include <string>
#include <string_view>

namespace kcycle {

inline constexpr std::size_t kMaxInputBytes = std::size_t(1) << 20;

// The file's bytes. Throws InvalidOptions "<what> <path>: <why>" (empty path, missing,
// a directory, a FIFO, a device, too large, unreadable with the OS's reason).
std::string read_input_file(const std::string& path, std::string_view what, bool allow_stdin = false);

}  // namespace kcycle
