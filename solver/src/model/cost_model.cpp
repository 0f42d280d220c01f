#include "kcycle/model/cost_model.hpp"
#include "kcycle/core/invalid_options.hpp"
#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/io/file_input.hpp"
#include "kcycle/io/file_output.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

#include "kcycle/cycle/cycle_counts.hpp"
#include "kcycle/solve/solver_options.hpp"

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

double cycle_ops(int kappa, int levels, Coarsening coarsening, CoarsestCalls coarsest) {
  const int k = std::min(kappa, levels);
  double ops = 0.0;
  for (int l = 1; l <= levels; ++l)
    ops += double(level_calls(k, l, levels, coarsest)) * double(level_shape(levels, l, coarsening).unknowns());
  return ops;
}

double cycle_launches(int kappa, int levels, int launches_per_call, CoarsestCalls coarsest) {
  return double(launches_per_cycle(std::min(kappa, levels), levels, launches_per_call, coarsest));
}

CostModel fit_cost_model(const std::vector<TimingSample>& samples, double lambda) {
  for (const TimingSample& s : samples)
    if (s.messages > 0) lambda = std::min(lambda, s.seconds / s.messages);
  // Normal equations of min sum (alpha L + beta W - (T - lambda M))^2.
  double LL = 0, LW = 0, WW = 0, LT = 0, WT = 0;
  for (const TimingSample& s : samples) {
    const double T = s.seconds - lambda * s.messages;
    LL += s.launches * s.launches;
    LW += s.launches * s.ops;
    WW += s.ops * s.ops;
    LT += s.launches * T;
    WT += s.ops * T;
  }
  const double det = LL * WW - LW * LW;
  if (samples.size() < 2 || !(std::abs(det) > 0.0))
    throw std::invalid_argument("fit needs at least two samples with independent launches and work");
  const CostModel free{(LT * WW - WT * LW) / det, (WT * LL - LT * LW) / det, lambda};
  // A launch or a unit of work costs no negative time: where noise (a loaded machine, a
  // sanitizer) pushes one coefficient below zero, the best fit with it at zero is the
  // least-squares one over alpha, beta >= 0.
  if (free.alpha < 0) return {0.0, std::max(0.0, WT / WW), lambda};
  if (free.beta < 0) return {std::max(0.0, LT / LL), 0.0, lambda};
  return free;
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

double turning_point_levels(int kappa, const CostModel& model, int launches_per_call, int tail_depth) {
  const double C = work_factor(kappa, 0.25);
  double n = 2.0;
  for (int it = 0; it < 20; ++it) {
    const double m = std::max(1.0, n - tail_depth);  // the levels launched one by one
    const double calls = launches_per_call * total_calls_real(kappa, m - 1) +
                         (total_calls_real(kappa, m) - total_calls_real(kappa, m - 1));
    n = std::log2(1.0 + std::sqrt(model.alpha / model.beta * calls / C));
  }
  return n;
}

std::string calibration_mismatch(const Calibration& c, const MultigridSettings& as_run, const std::string& backend,
                                 int threads) {
  auto describe = [](const std::string& smoother, const std::string& coarsening, const std::string& on, int t,
                     bool fused, std::size_t tail) {
    return smoother + "/" + coarsening + ", " + on + ", " + std::to_string(t) + (t == 1 ? " thread" : " threads") +
           (fused ? ", fused" : "") + (tail > 0 ? ", coarse tail from " + std::to_string(tail) + " unknowns" : "");
  };
  const std::string made =
      describe(c.smoother, c.coarsening, c.backend, c.threads, c.fused, std::size_t(c.coarse_tail));
  const std::string now =
      describe(std::string(to_string(as_run.smoother)), std::string(to_string(as_run.coarsening)), backend, threads,
               CycleSchedule::per_call(as_run, kAsResolved).fuses_any(), as_run.coarse_tail_unknowns.value_or(0));
  return made == now ? "" : "made for " + made + "; this run: " + now;
}

std::string noise_note(const Calibration& c) {
  if (!c.noisy()) return "";
  const TimingSample* worst = nullptr;
  for (const TimingSample& s : c.samples)
    if (!worst || s.spread > worst->spread) worst = &s;
  char text[64];
  std::snprintf(text, sizeof text, "timings varied %.1fx", c.spread);
  std::string note = text;
  if (worst) note += " (kappa=" + kappa_to_string(worst->kappa) + ", " + std::to_string(worst->levels) + " levels)";
  return note + ": the machine was busy; calibration marked noisy";
}

std::string latency_note(const Calibration& c) {
  if (!(c.measured_lambda > c.model.lambda)) return "";
  char text[320];
  std::snprintf(text, sizeof text,
                "the message latency benchmark measured %.3g s, more than the cycles took per message (%.3g s): "
                "the machine was busy while it ran; lambda is taken as the latter",
                c.measured_lambda, c.model.lambda);
  return text;
}

std::string save_calibration_unless_noisier(const Calibration& c, const std::string& path) {
  if (c.noisy() && std::filesystem::exists(path)) {
    try {
      if (!load_calibration(path).noisy())
        return "not saved over the clean calibration in " + path + " (this one is noisy)";
    } catch (const InvalidOptions&) {  // not a calibration we can read: overwrite it
    }
  }
  save_calibration(c, path);
  return "";
}

void save_calibration(const Calibration& c, const std::string& path) {
  nlohmann::json samples = nlohmann::json::array();
  for (const TimingSample& s : c.samples) {
    samples.push_back({{"kappa", s.kappa == kKappaW ? nlohmann::json("W") : nlohmann::json(s.kappa)},
                       {"levels", s.levels},
                       {"launches", s.launches},
                       {"ops", s.ops},
                       {"seconds", s.seconds},
                       {"spread", s.spread}});
    if (s.median_seconds > 0) samples.back()["median_seconds"] = s.median_seconds;
    if (!s.level_seconds.empty()) samples.back()["level_seconds"] = s.level_seconds;
    if (s.messages > 0) samples.back()["messages"] = s.messages;
  }
  nlohmann::json j = {{"format", "kcycle-calibration-1"},
                      {"alpha_seconds", c.model.alpha},
                      {"beta_seconds", c.model.beta},
                      {"backend", c.backend},
                      {"smoother", c.smoother},
                      {"coarsening", c.coarsening},
                      {"launches_per_call", c.launches_per_call},
                      {"fused", c.fused},
                      {"threads", c.threads},
                      {"spread", c.spread},
                      {"noisy", c.noisy()},
                      {"samples", samples}};
  if (c.coarse_tail > 0) j["coarse_tail_unknowns"] = c.coarse_tail;
  if (c.coarsest_calls == CoarsestCalls::Once) j["repeat_coarsest"] = false;
  if (!c.krylov.empty()) {
    nlohmann::json krylov = nlohmann::json::array();
    for (const KrylovSample& k : c.krylov_samples)
      krylov.push_back({{"kappa", k.kappa == kKappaW ? nlohmann::json("W") : nlohmann::json(k.kappa)},
                        {"levels", k.levels},
                        {"seconds", k.seconds}});
    j["krylov"] = c.krylov;
    j["krylov_samples"] = krylov;
  }
  if (c.model.lambda > 0 || c.ranks > 1) {  // a calibration on a process grid
    j["lambda_seconds"] = c.model.lambda;
    j["ranks"] = c.ranks;
  }
  write_file_replacing(path, j.dump(1) + "\n");  // a failed write keeps the calibration that was there
}

namespace {

// Reads a calibration's JSON object strictly: every key known, every value of its type and
// finite; a message names the source, the key and what was expected.
class CalibrationReader {
 public:
  explicit CalibrationReader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void refuse(const std::string& where, const std::string& what) const {
    throw InvalidOptions(source_ + ": " + where + " " + what);
  }
  void only_keys(const nlohmann::json& j, const std::string& where, std::initializer_list<const char*> keys) const {
    if (!j.is_object()) refuse(where, "must be a JSON object");
    for (const auto& [key, value] : j.items()) {
      bool known = false;
      for (const char* k : keys) known |= key == k;
      if (!known) refuse(where.empty() ? "key '" + key + "'" : where + "." + key, "is not a calibration key");
    }
  }
  double finite(const nlohmann::json& j, const std::string& key, const std::string& where) const {
    const auto it = j.find(key);
    if (it == j.end()) refuse(where + key, "is missing");
    if (!it->is_number()) refuse(where + key, "must be a number (got " + std::string(it->type_name()) + ")");
    const double x = it->get<double>();
    if (!std::isfinite(x)) refuse(where + key, "must be finite");
    return x;
  }
  int integer(const nlohmann::json& j, const std::string& key, const std::string& where, int fallback) const {
    const auto it = j.find(key);
    if (it == j.end()) return fallback;
    if (!it->is_number_integer() || it->get<long long>() < 0 || it->get<long long>() > 1 << 30)
      refuse(where + key, "must be a non-negative integer");
    return it->get<int>();
  }
  bool boolean(const nlohmann::json& j, const std::string& key, bool fallback) const {
    const auto it = j.find(key);
    if (it == j.end()) return fallback;
    if (!it->is_boolean()) refuse(key, "must be true or false (got " + std::string(it->type_name()) + ")");
    return it->get<bool>();
  }
  std::string text(const nlohmann::json& j, const std::string& key, const std::string& fallback) const {
    const auto it = j.find(key);
    if (it == j.end()) return fallback;
    if (!it->is_string()) refuse(key, "must be a string (got " + std::string(it->type_name()) + ")");
    return printable(it->get<std::string>());  // echoed in messages: a shared file cannot drive the terminal
  }

 private:
  std::string source_;
};

}  // namespace

Calibration parse_calibration(std::string_view text, const std::string& source) {
  const CalibrationReader read(source);
  nlohmann::json j;
  // A key given twice in one object is refused, as in a parameters file: JSON would keep
  // one of the two silently.
  std::vector<std::set<std::string>> keys_of_open_objects;
  std::string repeated;
  const auto no_repeated_keys = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start) keys_of_open_objects.emplace_back();
    if (event == Event::object_end && !keys_of_open_objects.empty()) keys_of_open_objects.pop_back();
    if (event == Event::key && !keys_of_open_objects.empty() &&
        !keys_of_open_objects.back().insert(parsed.get<std::string>()).second && repeated.empty())
      repeated = parsed.get<std::string>();
    return true;
  };
  try {
    j = nlohmann::json::parse(text, no_repeated_keys);
  } catch (const nlohmann::json::exception& e) {
    throw InvalidOptions(source + ": not valid JSON (" + e.what() + ")");
  }
  if (!repeated.empty()) throw InvalidOptions(source + ": key \"" + repeated.substr(0, 60) + "\" is given twice");
  read.only_keys(j, "",
                 {"format", "alpha_seconds", "beta_seconds", "lambda_seconds", "backend", "smoother", "coarsening",
                  "launches_per_call", "fused", "coarse_tail_unknowns", "repeat_coarsest", "threads", "ranks", "spread",
                  "noisy", "samples", "krylov", "krylov_samples"});
  if (read.text(j, "format", "") != "kcycle-calibration-1")
    read.refuse("format", "must be \"kcycle-calibration-1\" (not a kcycle calibration file)");
  Calibration c;
  c.model = {read.finite(j, "alpha_seconds", ""), read.finite(j, "beta_seconds", "")};
  if (!(c.model.alpha >= 0)) read.refuse("alpha_seconds", "must be non-negative");
  if (!(c.model.beta >= 0)) read.refuse("beta_seconds", "must be non-negative");
  if (c.model.alpha == 0 && c.model.beta == 0)
    read.refuse("alpha_seconds", "and beta_seconds are both 0: a model that predicts no time cannot rank kappas");
  if (j.contains("lambda_seconds")) c.model.lambda = read.finite(j, "lambda_seconds", "");
  if (!(c.model.lambda >= 0)) read.refuse("lambda_seconds", "must be non-negative");
  c.ranks = std::max(1, read.integer(j, "ranks", "", 1));
  c.backend = read.text(j, "backend", "cpu");
  c.smoother = read.text(j, "smoother", "");
  c.coarsening = read.text(j, "coarsening", "");
  c.launches_per_call = read.integer(j, "launches_per_call", "", 0);
  c.fused = read.boolean(j, "fused", false);
  c.coarse_tail = read.integer(j, "coarse_tail_unknowns", "", 0);
  if (c.coarse_tail < 0) read.refuse("coarse_tail_unknowns", "must be non-negative");
  c.coarsest_calls = read.boolean(j, "repeat_coarsest", true) ? CoarsestCalls::Repeated : CoarsestCalls::Once;
  c.threads = read.integer(j, "threads", "", 0);
  if (j.contains("spread")) c.spread = read.finite(j, "spread", "");
  if (!(c.spread >= 1)) read.refuse("spread", "must be at least 1");
  if (j.contains("noisy") && read.boolean(j, "noisy", false) != c.noisy())
    read.refuse("noisy", "does not agree with spread");
  const auto samples = j.find("samples");
  if (samples != j.end()) {
    if (!samples->is_array()) read.refuse("samples", "must be an array");
    for (std::size_t k = 0; k < samples->size(); ++k) {
      const nlohmann::json& s = (*samples)[k];
      const std::string where = "samples[" + std::to_string(k) + "].";
      read.only_keys(
          s, "samples[" + std::to_string(k) + "]",
          {"kappa", "levels", "launches", "ops", "seconds", "messages", "spread", "median_seconds", "level_seconds"});
      const auto kappa = s.find("kappa");
      if (kappa == s.end()) read.refuse(where + "kappa", "is missing");
      const bool w = kappa->is_string() && kappa->get<std::string>() == "W";
      if (!w && !(kappa->is_number_integer() && kappa->get<long long>() >= 1 && kappa->get<long long>() <= 1 << 20))
        read.refuse(where + "kappa", "must be a positive integer or \"W\"");
      const int levels = read.integer(s, "levels", where, 0);
      if (levels < 1) read.refuse(where + "levels", "must be a positive integer");
      c.samples.push_back({w ? kKappaW : kappa->get<int>(), levels, read.finite(s, "launches", where),
                           read.finite(s, "ops", where), read.finite(s, "seconds", where),
                           s.contains("messages") ? read.finite(s, "messages", where) : 0.0,
                           s.contains("spread") ? read.finite(s, "spread", where) : 1.0});
      if (!(c.samples.back().spread >= 1)) read.refuse(where + "spread", "must be at least 1");
      TimingSample& sample = c.samples.back();
      if (s.contains("median_seconds")) sample.median_seconds = read.finite(s, "median_seconds", where);
      if (!(sample.median_seconds >= 0)) read.refuse(where + "median_seconds", "must be non-negative");
      if (s.contains("level_seconds")) {
        const nlohmann::json& per_level = s["level_seconds"];
        if (!per_level.is_array() || int(per_level.size()) != levels)
          read.refuse(where + "level_seconds", "must be an array of one number per level");
        for (std::size_t l = 0; l < per_level.size(); ++l) {
          const std::string at = where + "level_seconds[" + std::to_string(l) + "]";
          if (!per_level[l].is_number() || !std::isfinite(per_level[l].get<double>()) || per_level[l].get<double>() < 0)
            read.refuse(at, "must be a non-negative finite number");
          sample.level_seconds.push_back(per_level[l].get<double>());
        }
      }
    }
  }
  c.krylov = read.text(j, "krylov", "");
  if (!c.krylov.empty() && c.krylov != "pcg" && c.krylov != "fcg") read.refuse("krylov", "must be \"pcg\" or \"fcg\"");
  const auto krylov = j.find("krylov_samples");
  if (krylov != j.end()) {
    if (c.krylov.empty()) read.refuse("krylov_samples", "need \"krylov\": the method they timed");
    if (!krylov->is_array()) read.refuse("krylov_samples", "must be an array");
    for (std::size_t k = 0; k < krylov->size(); ++k) {
      const nlohmann::json& s = (*krylov)[k];
      const std::string where = "krylov_samples[" + std::to_string(k) + "].";
      read.only_keys(s, "krylov_samples[" + std::to_string(k) + "]", {"kappa", "levels", "seconds"});
      const auto kappa = s.find("kappa");
      const bool w = kappa != s.end() && kappa->is_string() && kappa->get<std::string>() == "W";
      if (kappa == s.end() ||
          (!w && !(kappa->is_number_integer() && kappa->get<long long>() >= 1 && kappa->get<long long>() <= 1 << 20)))
        read.refuse(where + "kappa", "must be a positive integer or \"W\"");
      const int levels = read.integer(s, "levels", where, 0);
      if (levels < 1) read.refuse(where + "levels", "must be a positive integer");
      const double seconds = read.finite(s, "seconds", where);
      if (!(seconds > 0)) read.refuse(where + "seconds", "must be positive");
      c.krylov_samples.push_back({w ? kKappaW : kappa->get<int>(), levels, seconds});
    }
  }
  return c;
}

std::optional<double> Calibration::krylov_seconds(const std::string& method, int kappa, int levels) const {
  if (method != krylov) return std::nullopt;
  for (const KrylovSample& k : krylov_samples)
    if (k.kappa == kappa && k.levels == levels) return k.seconds;
  return std::nullopt;
}

Calibration load_calibration(const std::string& path) {
  std::error_code missing;
  if (!path.empty() && !std::filesystem::exists(path, missing))
    throw InvalidOptions("cannot read calibration file " + path + " (run `kcycle calibrate` first)");
  return parse_calibration(read_input_file(path, "calibration file"), "calibration file " + path);
}

}  // namespace kcycle
