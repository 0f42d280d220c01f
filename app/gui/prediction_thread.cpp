#include "prediction_thread.hpp"

#include <exception>

#include "kcycle/lfa/fourier_analysis.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle::gui {

namespace {

// LFA's iterations for every kappa priced by the calibration (advise() with
// IterationSource::Lfa, what `kcycle advise --iterations lfa` prints): nothing is solved.
void predict_kappas(const SolverOptions& options, const std::shared_ptr<const Calibration>& calibration,
                    Predictions& p) {
  if (!calibration) {
    p.kappas_note = "no calibration: the predicted times need one (press Calibrate)";
    return;
  }
  if (options.solver != SolverKind::Multigrid) {
    p.kappas_note = "no prediction for CG: the calibration prices cycles, not CG's iterations";
    return;
  }
  // Where LFA cannot analyse the settings advise() would probe them, solving: not here.
  lfa::LfaSettings lfa;
  lfa.cycle = multigrid_settings(options);
  if (const std::string why = lfa::settings_problem(lfa); !why.empty()) {
    p.kappas_note = "no LFA prediction: " + why;
    return;
  }
  AdvisorSettings settings;
  settings.iterations_from = IterationSource::Lfa;
  settings.calibration = *calibration;
  p.kappas = std::make_shared<const Advice>(advise(options, settings));
}

}  // namespace

Predictions predict(std::uint64_t generation, const SolverOptions& options,
                    std::shared_ptr<const Calibration> calibration) {
  Predictions p;
  p.generation = generation;
  p.calibration = calibration;
  try {
    p.lfa = std::make_shared<const lfa::SolvePrediction>(lfa::predict_solve(options));
    if (p.lfa->available()) {
      lfa::LfaSettings settings;
      settings.cycle = multigrid_settings(options);
      p.lfa_maps = std::make_shared<const lfa::AmplificationMaps>(
          lfa::amplification_maps(settings, options.cycle.counter, kLfaMapResolution));
    }
    predict_kappas(options, calibration, p);
  } catch (const std::exception& e) {
    p.kappas_note = std::string("no prediction: ") + e.what();
  }
  return p;
}

PredictionThread::PredictionThread(std::function<void()> on_done)
    : on_done_(std::move(on_done)), thread_([this](std::stop_token stop) { run(stop); }) {}

PredictionThread::~PredictionThread() {
  thread_.request_stop();
  wake_.notify_all();
}  // thread_ joins

void PredictionThread::request(std::uint64_t generation, const SolverOptions& options,
                               std::shared_ptr<const Calibration> calibration) {
  {
    std::lock_guard lock(mutex_);
    pending_ = Request{generation, options, std::move(calibration)};
  }
  wake_.notify_all();
}

std::shared_ptr<const Predictions> PredictionThread::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

void PredictionThread::run(std::stop_token stop) {
  while (true) {
    Request r;
    {
      std::unique_lock lock(mutex_);
      if (!wake_.wait(lock, stop, [&] { return pending_.has_value(); })) return;
      r = std::move(*pending_);
      pending_.reset();
    }
    auto result = std::make_shared<const Predictions>(predict(r.generation, r.options, r.calibration));
    {
      std::lock_guard lock(mutex_);
      latest_ = std::move(result);
    }
    if (on_done_) on_done_();
  }
}

}  // namespace kcycle::gui
