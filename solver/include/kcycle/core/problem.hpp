#pragma once
// Discrete problems on the finest grid. Dirichlet boundary values are folded into the
// right-hand side, so every field the solver touches has a zero boundary ring.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "kcycle/core/drawn_error.hpp"
#include "kcycle/core/field.hpp"
#include "kcycle/core/stencil.hpp"

namespace kcycle {

enum class Monitor { Error, Residual };

struct DiscreteProblem {
  Field rhs;
  Field initial_guess;
  std::optional<Field> exact;  // nodal values of the exact solution, when known
  bool exact_is_zero = false;  // then the error is the iterate itself
  Monitor monitor = Monitor::Error;
  std::string description;
};

using GridFunction = std::function<double(double x, double y)>;

// Problem 0 of the paper: zero right-hand side and boundary (exact solution 0) and a
// reproducible random initial guess, uniform in [0,1) at interior points; the error is
// the iterate, and the solve stops on its L2 norm.
DiscreteProblem random_error_problem(GridShape shape, std::uint64_t seed);

// Problem 0 with the guess mapped to [-1,1) and its mean removed: the error has both signs
// from the start, so a diverging colour map shows all of it (the visualizer's teaching start).
DiscreteProblem zero_mean_random_error_problem(GridShape shape, std::uint64_t seed);

// Problem 3: problem 0 with one sine mode as the initial guess (the error), sin(k pi x) sin(l pi y):
// the teaching toys' start, where a class sees one frequency damped, or not.
DiscreteProblem fourier_mode_problem(GridShape shape, int k, int l);

// Problem 4: problem 0 with a drawn initial guess, the sum of `shapes` (drawn_error.hpp).
DiscreteProblem drawn_error_problem(GridShape shape, const std::vector<ErrorShape>& shapes);

// Problem 1: the smooth solution u = sin(pi x) sin(2 pi y) of -div(K grad u) = f with the
// rotated anisotropic tensor, zero initial guess; stops on the residual.
DiscreteProblem manufactured_problem(GridShape shape, const DiffusionTensor& K);

// Arbitrary data: f at interior points, g on the boundary (folded into the right-hand side
// through the scaled finest-level stencil A), optional exact solution for error norms.
DiscreteProblem problem_from_functions(GridShape shape, const Stencil9& A, const GridFunction& f, const GridFunction& g,
                                       const std::optional<GridFunction>& exact = std::nullopt);

// Reproducible uniform [0,1) values from a 64-bit seed (same on every platform).
void fill_uniform_random(Field& field, std::uint64_t seed);

}  // namespace kcycle
