#include "kcycle/core/problem.hpp"

#include <cmath>
#include <numbers>
#include <random>

#include "kcycle/core/kernels.hpp"

namespace kcycle {

void fill_uniform_random(Field& field, std::uint64_t seed) {
  // mt19937_64 is specified bit for bit; the conversion to [0,1) is ours, so the guess is
  // the same with every standard library.
  std::mt19937_64 engine(seed);
  const GridShape& s = field.shape();
  for (int j = 1; j <= s.ny; ++j)
    for (int i = 1; i <= s.nx; ++i) field(i, j) = double(engine() >> 11) * 0x1.0p-53;
}

DiscreteProblem random_error_problem(GridShape shape, std::uint64_t seed) {
  DiscreteProblem p{Field(shape), Field(shape),   std::nullopt,
                    true,         Monitor::Error, "zero right-hand side and boundary, random initial guess"};
  fill_uniform_random(p.initial_guess, seed);
  return p;
}

DiscreteProblem zero_mean_random_error_problem(GridShape shape, std::uint64_t seed) {
  DiscreteProblem p = random_error_problem(shape, seed);
  p.description = "zero right-hand side and boundary, zero-mean random initial guess";
  Field& v = p.initial_guess;
  double sum = 0;
  for (int j = 1; j <= shape.ny; ++j)
    for (int i = 1; i <= shape.nx; ++i) sum += 2 * v(i, j) - 1;
  const double mean = sum / double(shape.unknowns());
  for (int j = 1; j <= shape.ny; ++j)
    for (int i = 1; i <= shape.nx; ++i) v(i, j) = 2 * v(i, j) - 1 - mean;
  return p;
}

DiscreteProblem fourier_mode_problem(GridShape shape, int k, int l) {
  DiscreteProblem p{Field(shape),
                    Field(shape),
                    std::nullopt,
                    true,
                    Monitor::Error,
                    "zero right-hand side and boundary, initial guess sin(" + std::to_string(k) + " pi x) sin(" +
                        std::to_string(l) + " pi y)"};
  const double pi = std::numbers::pi;
  for (int j = 1; j <= shape.ny; ++j)
    for (int i = 1; i <= shape.nx; ++i)
      p.initial_guess(i, j) = std::sin(k * pi * i / (shape.nx + 1)) * std::sin(l * pi * j / (shape.ny + 1));
  return p;
}

DiscreteProblem drawn_error_problem(GridShape shape, const std::vector<ErrorShape>& shapes) {
  DiscreteProblem p{
      Field(shape),   Field(shape),
      std::nullopt,   true,
      Monitor::Error, "zero right-hand side and boundary, drawn initial guess " + error_shapes_text(shapes)};
  for (int j = 1; j <= shape.ny; ++j)
    for (int i = 1; i <= shape.nx; ++i) p.initial_guess(i, j) = drawn_error_at(shapes, shape, i, j);
  return p;
}

DiscreteProblem manufactured_problem(GridShape shape, const DiffusionTensor& K) {
  const double pi = std::numbers::pi;
  // u = sin(pi x) sin(2 pi y); f = -kxx u_xx - kyy u_yy - 2 kxy u_xy.
  auto u = [pi](double x, double y) { return std::sin(pi * x) * std::sin(2 * pi * y); };
  auto f = [=](double x, double y) {
    const double uxx = -pi * pi * u(x, y), uyy = -4 * pi * pi * u(x, y);
    const double uxy = 2 * pi * pi * std::cos(pi * x) * std::cos(2 * pi * y);
    return -K.kxx * uxx - K.kyy * uyy - 2 * K.kxy * uxy;
  };
  DiscreteProblem p{Field(shape), Field(shape),      Field(shape),
                    false,        Monitor::Residual, "manufactured solution sin(pi x) sin(2 pi y), zero initial guess"};
  for (int j = 1; j <= shape.ny; ++j)
    for (int i = 1; i <= shape.nx; ++i) {
      const double x = i * shape.hx(), y = j * shape.hy();
      p.rhs(i, j) = f(x, y);
      (*p.exact)(i, j) = u(x, y);
    }
  return p;
}

DiscreteProblem problem_from_functions(GridShape shape, const Stencil9& A, const GridFunction& f, const GridFunction& g,
                                       const std::optional<GridFunction>& exact) {
  DiscreteProblem p{Field(shape),  Field(shape), std::nullopt, false, exact ? Monitor::Error : Monitor::Residual,
                    "user-defined"};
  // Boundary values on the ring of a scratch field; rhs = f - A g at interior points.
  Field boundary(shape);
  const double hx = shape.hx(), hy = shape.hy();
  for (int i = 0; i <= shape.nx + 1; ++i) {
    boundary(i, 0) = g(i * hx, 0.0);
    boundary(i, shape.ny + 1) = g(i * hx, 1.0);
  }
  for (int j = 0; j <= shape.ny + 1; ++j) {
    boundary(0, j) = g(0.0, j * hy);
    boundary(shape.nx + 1, j) = g(1.0, j * hy);
  }
  for (int j = 1; j <= shape.ny; ++j)
    for (int i = 1; i <= shape.nx; ++i)
      p.rhs(i, j) =
          f(i * hx, j * hy) - kernels::apply_stencil(A, boundary.row(j - 1), boundary.row(j), boundary.row(j + 1), i);
  if (exact) {
    p.exact = Field(shape);
    for (int j = 1; j <= shape.ny; ++j)
      for (int i = 1; i <= shape.nx; ++i) (*p.exact)(i, j) = (*exact)(i * hx, j * hy);
  }
  return p;
}

}  // namespace kcycle
