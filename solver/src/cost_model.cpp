#include "kcycle/cost_model.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "kcycle/cycle_counts.hpp"
#include "kcycle/solver_options.hpp"

namespace kcycle {

double work_factor(int kappa, double c) {
  if (kappa == kKappaW) return c < 0.5 ? 1.0 / (1.0 - 2.0 * c) : std::numeric_limits<double>::infinity();
  if (c == 0.5) return 2.0 * kappa;
  return (1.0 - std::pow(c / (1.0 - c), kappa)) / (1.0 - 2.0 * c);
}

double proposition_ops(int kappa, int n, double c, double C, double Ctilde, double N1) {
  const double Nn = N1 * std::pow(c, 1 - n);
  double P = 0.0;  // the coarsest-level correction: C(n-1, j) calls with counter kappa - j
  for (int j = 0; j <= std::min(kappa - 1, n - 1); ++j)
    P += (Ctilde - work_factor(kappa - j, c) * C) * N1 * double(binomial(n - 1, j));
  return work_factor(kappa, c) * C * Nn + P;
}

double cycle_ops(int kappa, int levels, Coarsening coarsening) {
  const int k = std::min(kappa, levels);
  double ops = 0.0;
  for (int l = 1; l <= levels; ++l)
    ops += double(level_calls(k, l)) * double(level_shape(levels, l, coarsening).unknowns());
  return ops;
}

double cycle_launches(int kappa, int levels, int launches_per_call) {
  return double(launches_per_cycle(std::min(kappa, levels), levels, launches_per_call));
}

CostModel fit_cost_model(const std::vector<TimingSample>& samples) {
  // Normal equations of min sum (alpha L + beta W - T)^2.
  double LL = 0, LW = 0, WW = 0, LT = 0, WT = 0;
  for (const TimingSample& s : samples) {
    LL += s.launches * s.launches;
    LW += s.launches * s.ops;
    WW += s.ops * s.ops;
    LT += s.launches * s.seconds;
    WT += s.ops * s.seconds;
  }
  const double det = LL * WW - LW * LW;
  if (samples.size() < 2 || !(std::abs(det) > 0.0))
    throw std::invalid_argument("fit needs at least two samples with independent launches and work");
  return {(LT * WW - WT * LW) / det, (WT * LL - LT * LW) / det};
}

namespace {

// totalCalls(kappa, n) for real n: generalized binomials while n > kappa, else 2^n - 1.
double total_calls_real(int kappa, double n) {
  if (kappa == kKappaW || n <= kappa) return std::pow(2.0, n) - 1.0;
  double sum = 0.0, binom = 1.0;
  for (int j = 1; j <= kappa; ++j) {
    binom *= (n - j + 1) / j;
    sum += binom;
  }
  return sum;
}

}  // namespace

double turning_point_levels(int kappa, const CostModel& model, int launches_per_call) {
  const double C = work_factor(kappa, 0.25);
  double n = 2.0;
  for (int it = 0; it < 20; ++it) {
    const double calls = launches_per_call * total_calls_real(kappa, n - 1) +
                         (total_calls_real(kappa, n) - total_calls_real(kappa, n - 1));
    n = std::log2(1.0 + std::sqrt(model.alpha / model.beta * calls / C));
  }
  return n;
}

void save_calibration(const Calibration& c, const std::string& path) {
  nlohmann::json samples = nlohmann::json::array();
  for (const TimingSample& s : c.samples)
    samples.push_back({{"kappa", s.kappa == kKappaW ? nlohmann::json("W") : nlohmann::json(s.kappa)},
                       {"levels", s.levels},
                       {"launches", s.launches},
                       {"ops", s.ops},
                       {"seconds", s.seconds}});
  const nlohmann::json j = {{"format", "kcycle-calibration-1"},
                            {"alpha_seconds", c.model.alpha},
                            {"beta_seconds", c.model.beta},
                            {"backend", c.backend},
                            {"smoother", c.smoother},
                            {"coarsening", c.coarsening},
                            {"launches_per_call", c.launches_per_call},
                            {"threads", c.threads},
                            {"samples", samples}};
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write calibration file " + path);
  out << j.dump(1) << "\n";
}

Calibration load_calibration(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read calibration file " + path + " (run `kcycle calibrate` first)");
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    if (j.value("format", "") != "kcycle-calibration-1")
      throw std::runtime_error("not a kcycle calibration file");
    Calibration c;
    c.model = {j.at("alpha_seconds").get<double>(), j.at("beta_seconds").get<double>()};
    c.backend = j.value("backend", "cpu");
    c.smoother = j.value("smoother", "");
    c.coarsening = j.value("coarsening", "");
    c.launches_per_call = j.value("launches_per_call", 0);
    c.threads = j.value("threads", 0);
    for (const auto& s : j.value("samples", nlohmann::json::array())) {
      const auto& k = s.at("kappa");
      c.samples.push_back({k.is_string() ? kKappaW : k.get<int>(), s.at("levels").get<int>(),
                           s.at("launches").get<double>(), s.at("ops").get<double>(),
                           s.at("seconds").get<double>()});
    }
    if (!(c.model.alpha >= 0 && c.model.beta > 0)) throw std::runtime_error("alpha/beta out of range");
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("calibration file " + path + " is malformed: " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("calibration file " + path + ": " + e.what());
  }
}

}  // namespace kcycle
