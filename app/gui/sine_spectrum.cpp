#include "sine_spectrum.hpp"

#include <fftw3.h>

#include <cmath>

namespace kcycle::gui {

// One size's plan with the arrays it was made for (FFTW plans are tied to their arrays).
struct SineSpectrum::Plan {
  Plan(int nx, int ny) : count(std::size_t(nx) * std::size_t(ny)) {
    in = fftw_alloc_real(count);
    out = fftw_alloc_real(count);
    plan = fftw_plan_r2r_2d(ny, nx, in, out, FFTW_RODFT00, FFTW_RODFT00, FFTW_ESTIMATE);
  }
  ~Plan() {
    fftw_destroy_plan(plan);
    fftw_free(in);
    fftw_free(out);
  }
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  std::size_t count;
  double *in = nullptr, *out = nullptr;
  fftw_plan plan = nullptr;
};

SineSpectrum::SineSpectrum() = default;
SineSpectrum::~SineSpectrum() = default;

std::vector<float> SineSpectrum::operator()(const std::vector<float>& values, int nx, int ny) {
  if (std::size_t(nx) * std::size_t(ny) > kMaxPoints || values.size() != std::size_t(nx) * std::size_t(ny)) return {};
  std::unique_ptr<Plan>& plan = plans_[{nx, ny}];
  if (!plan) plan = std::make_unique<Plan>(nx, ny);
  for (std::size_t k = 0; k < plan->count; ++k) plan->in[k] = values[k];
  fftw_execute(plan->plan);
  std::vector<float> spectrum(plan->count);
  const double scale = 1.0 / (4.0 * (nx + 1) * (ny + 1) / 4.0);
  for (std::size_t k = 0; k < plan->count; ++k)
    spectrum[k] = float(std::log10(std::abs(plan->out[k]) * scale + 1e-300));
  return spectrum;
}

}  // namespace kcycle::gui
