#pragma once
// Damping factors for point Jacobi and the smoothing factor that local Fourier analysis
// (LFA) predicts for them.
#include "kcycle/core/stencil.hpp"

namespace kcycle {

// The paper's choice (following Yavneh & Olvovsky): with a = (eps C^2+S^2)/(1+eps),
// c = (C^2+eps S^2)/(1+eps), b = (1-eps)SC/(1+eps), s = sqrt(max(a,c)^2+b^2),
// omega = 2/(3-s). 0.8 for eps = 1.
double paper_jacobi_omega(double eps, double angle_degrees);

// LFA smoothing factor of damped Jacobi on a symmetric 9-point stencil: the largest
// amplification |1 - omega * symbol(theta)/a_center| over high frequencies
// (max(|theta_x|, |theta_y|) >= pi/2), sampled on a (2*samples)^2 grid of frequencies.
double jacobi_smoothing_factor(const Stencil9& s, double omega, int samples = 256);

struct FourierOmega {
  double omega;             // minimizes the sampled smoothing factor
  double smoothing_factor;  // at that omega
};
// The omega that minimizes the LFA smoothing factor: 2 / (lambda_min + lambda_max) over
// the high-frequency range of the scaled symbol lambda = symbol/a_center.
FourierOmega lfa_jacobi_omega(const Stencil9& s, int samples = 256);

}  // namespace kcycle
