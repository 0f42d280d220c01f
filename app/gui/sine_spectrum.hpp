#pragma once
// log10 of a level's sine-series (DST-I) magnitudes: the natural Fourier basis for a
// Dirichlet grid function, so rough error shows at high wave numbers and smooth error at low
// ones. FFTW plans are made once per grid size and kept: making one computes its twiddle
// factors (cosines), which cost more than the transform itself at every publish.
#include <cstddef>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace kcycle::gui {

class SineSpectrum {
 public:
  // Larger levels get no spectrum: their transforms (tens of ms) would slow every publish.
  static constexpr std::size_t kMaxPoints = 511 * 511;

  SineSpectrum();
  ~SineSpectrum();
  SineSpectrum(const SineSpectrum&) = delete;
  SineSpectrum& operator=(const SineSpectrum&) = delete;

  // nx * ny row-major values; empty when the level is larger than kMaxPoints.
  std::vector<float> operator()(const std::vector<float>& values, int nx, int ny);

 private:
  struct Plan;
  std::map<std::pair<int, int>, std::unique_ptr<Plan>> plans_;
};

}  // namespace kcycle::gui
