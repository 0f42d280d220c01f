#pragma once
// How the CPU backend splits rows (or columns) into the chunks its thread team shares.

#include <algorithm>

namespace kcycle::detail {

// Rows [begin, end) of 1..count in block t of nt (contiguous, sizes differing by at most one).
struct RowRange {
  int begin, end;
};
inline RowRange block_of(int count, int t, int nt) {
  const int base = count / nt, extra = count % nt;
  const int begin = 1 + t * base + std::min(t, extra);
  return {begin, begin + base + (t < extra ? 1 : 0)};
}

}  // namespace kcycle::detail
