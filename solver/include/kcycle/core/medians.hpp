#pragma once
// The medians kcycle takes of timings. The upper median (the element at n/2 once sorted) is
// always a time that was measured: what the cycle timers, the solver's seconds per cycle and
// the halo benchmark report. The median proper (the mean of the two middle ones for an even
// count) is what the Krylov timings report. Both of a non-empty list.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace kcycle {

inline double upper_median(std::vector<double> v) {
  const auto middle = v.begin() + std::ptrdiff_t(v.size() / 2);
  std::nth_element(v.begin(), middle, v.end());
  return *middle;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

}  // namespace kcycle
