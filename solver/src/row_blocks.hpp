#pragma once
// How the CPU backend splits rows (or columns) among its threads.

#include <algorithm>

namespace kcycle::detail {

// Rows [begin, end) of 1..count handled by thread t of nt (static, contiguous blocks).
struct RowRange {
  int begin, end;
};
inline RowRange block_of(int count, int t, int nt) {
  const int base = count / nt, extra = count % nt;
  const int begin = 1 + t * base + std::min(t, extra);
  return {begin, begin + base + (t < extra ? 1 : 0)};
}

}  // namespace kcycle::detail
