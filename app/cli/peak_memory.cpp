#include "peak_memory.hpp"

#include <cstdio>
#include <cstring>

namespace kcycle::cli {

bool reset_peak_resident() {
  std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  const bool written = std::fputs("5", f) >= 0;  // 5: reset the peak resident set size
  return std::fclose(f) == 0 && written;
}

std::optional<std::size_t> peak_resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return std::nullopt;
  std::optional<std::size_t> peak;
  char line[256];
  while (std::fgets(line, sizeof line, f)) {
    unsigned long kib = 0;
    if (std::strncmp(line, "VmHWM:", 6) == 0 && std::sscanf(line + 6, "%lu", &kib) == 1) peak = std::size_t(kib) * 1024;
  }
  std::fclose(f);
  return peak;
}

}  // namespace kcycle::cli
