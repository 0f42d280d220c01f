#include "level_symbols.hpp"

#include <cmath>
#include <stdexcept>

namespace kcycle::lfa {

double symbol(const Stencil9& A, double tx, double ty) {
  double sum = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) sum += A.a[dy + 1][dx + 1] * std::cos(dx * tx + dy * ty);
  return sum;
}

GroupedMatrix::GroupedMatrix(const FrequencyBlock& block) : block_(block) {
  for (int k = 0; k < block.size(); ++k)
    if (block.leads_group(k)) leaders_.push_back(k);
  blocks_.assign(leaders_.size(), Eigen::Matrix4d::Identity());
}

Matrix GroupedMatrix::dense() const {
  Matrix M = Matrix::Zero(block_.size(), block_.size());
  for (std::size_t g = 0; g < groups(); ++g) {
    const std::array<int, 4> m = members(g);
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) M(m[r], m[c]) = blocks_[g](r, c);
  }
  return M;
}

Matrix GroupedMatrix::times(const Matrix& M) const {
  Matrix out(M.rows(), M.cols());
  for (std::size_t g = 0; g < groups(); ++g) {
    const std::array<int, 4> m = members(g);
    Eigen::Matrix<double, 4, Eigen::Dynamic> rows(4, M.cols());
    for (int r = 0; r < 4; ++r) rows.row(r) = M.row(m[r]);
    rows = blocks_[g] * rows;
    for (int r = 0; r < 4; ++r) out.row(m[r]) = rows.row(r);
  }
  return out;
}

namespace {

// Which points a partial step updates, per direction: odd coordinates, even ones, or all.
enum class Parity { Odd, Even, All };

// In a group's basis (k, k + (pi,0), k + (0,pi), k + (pi,pi)), multiplication by the colour's
// indicator (1 + s (-1)^x) / 2 per direction, s = -1 for odd points and +1 for even ones:
// half the mode plus or minus half its shift by pi.
Eigen::Matrix4d mask(Parity px, Parity py) {
  auto factor = [](Parity p, int stride) {  // stride 1: the x shift pairs (0,1), (2,3); 2: y
    Eigen::Matrix4d F = Eigen::Matrix4d::Identity();
    if (p == Parity::All) return F;
    const double s = p == Parity::Odd ? -1.0 : 1.0;
    F *= 0.5;
    for (int k = 0; k < 4; ++k) F(k ^ stride, k) += 0.5 * s;
    return F;
  };
  return factor(px, 1) * factor(py, 2);
}

// The points of the mask take the solution of their own implicit part (the centre, or their
// line) with every other point held: e + mask (G - I) e, G = 1 - A / implicit per mode.
Eigen::Matrix4d partial_step(Parity px, Parity py, const Eigen::Vector4d& g) {
  const Eigen::Matrix4d I = Eigen::Matrix4d::Identity();
  return I + mask(px, py) * (Eigen::Matrix4d(g.asDiagonal()) - I);
}

}  // namespace

void apply_sweep(Smoother kind, bool adjoint, const Stencil9& A, double omega, GroupedMatrix& S) {
  if (kind == Smoother::XYZebra)
    throw std::invalid_argument("apply_sweep: the alternating smoother is an x sweep and a y sweep");
  const FrequencyBlock& b = S.block();
  for (std::size_t grp = 0; grp < S.groups(); ++grp) {
    const std::array<int, 4> m = S.members(grp);
    Eigen::Vector4d g;  // 1 - A / implicit at each member
    for (int r = 0; r < 4; ++r) {
      const double tx = b.theta_x(m[r]), ty = b.theta_y(m[r]);
      const double implicit = kind == Smoother::XZebra   ? A.a[1][1] + 2 * A.a[1][0] * std::cos(tx)
                              : kind == Smoother::YZebra ? A.a[1][1] + 2 * A.a[0][1] * std::cos(ty)
                              : kind == Smoother::Jacobi ? A.a[1][1] / omega
                                                         : A.a[1][1];
      g[r] = 1 - symbol(A, tx, ty) / implicit;
    }
    Eigen::Matrix4d sweep = Eigen::Matrix4d::Identity();
    switch (kind) {
      case Smoother::Jacobi: sweep = g.asDiagonal(); break;  // every point at once
      case Smoother::GaussSeidel: {
        // Colour k of gauss_seidel_colour_point (level_bodies.hpp), as (x, y) parities: (odd,
        // odd), (even, even), (even, odd), (odd, even). Coarse points (2I, 2J) are colour 1.
        constexpr Parity px[4] = {Parity::Odd, Parity::Even, Parity::Even, Parity::Odd};
        constexpr Parity py[4] = {Parity::Odd, Parity::Even, Parity::Odd, Parity::Even};
        for (int q = 0; q < 4; ++q) {
          const int k = adjoint ? 3 - q : q;
          sweep = partial_step(px[k], py[k], g) * sweep;
        }
        break;
      }
      case Smoother::XZebra:
      case Smoother::YZebra: {
        const Parity order[2] = {adjoint ? Parity::Even : Parity::Odd, adjoint ? Parity::Odd : Parity::Even};
        for (Parity lines : order)
          sweep =
              (kind == Smoother::XZebra ? partial_step(Parity::All, lines, g) : partial_step(lines, Parity::All, g)) *
              sweep;
        break;
      }
      case Smoother::XYZebra: break;
    }
    S[grp] = sweep * S[grp];
  }
}

GroupedMatrix smoothing(const MultigridSettings& cycle, Phase phase, const Stencil9& A, const FrequencyBlock& block) {
  const int sweeps = phase == Phase::Pre ? cycle.nu1 : cycle.nu2;
  const bool adjoint = phase == Phase::Post && cycle.symmetric_smoothing;
  GroupedMatrix S(block);
  for (int s = 0; s < sweeps; ++s) apply_sweep(sweep_smoother(cycle.smoother, s, adjoint), adjoint, A, cycle.omega, S);
  return S;
}

std::vector<double> transfer_weights(const FrequencyBlock& block, Coarsening c) {
  std::vector<double> w(std::size_t(block.size()));
  for (int k = 0; k < block.size(); ++k) {
    const double wy = 0.5 * (1 + std::cos(block.theta_y(k)));
    w[std::size_t(k)] = c == Coarsening::Full ? 0.5 * (1 + std::cos(block.theta_x(k))) * wy : wy;
  }
  return w;
}

}  // namespace kcycle::lfa
