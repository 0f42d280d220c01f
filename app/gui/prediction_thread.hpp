#pragma once
// What the visualizer predicts without solving (LFA's factor for the run, each kappa's time to
// the tolerance priced by the calibration), made on a thread of its own: the solver's worker
// never waits for an analysis (0.1 s here, seconds under the sanitizers). The newest request
// replaces one not yet started; the finished result is tagged with what it was made for.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>

#include "kcycle/lfa/amplification_maps.hpp"
#include "kcycle/lfa/solve_prediction.hpp"
#include "kcycle/model/advisor.hpp"

namespace kcycle::gui {

struct Predictions {
  std::uint64_t generation = 0;                    // the run's (Snapshot::generation)
  std::shared_ptr<const Calibration> calibration;  // the calibration that priced it
  std::shared_ptr<const lfa::SolvePrediction> lfa;
  // What the smoother, the two-grid cycle and the run's kappa-cycle leave of each Fourier mode
  // (the Fourier analysis view); null where LFA has no prediction.
  std::shared_ptr<const lfa::AmplificationMaps> lfa_maps;
  std::shared_ptr<const Advice> kappas;  // null where there is none; kappas_note says why
  std::string kappas_note;
};

// The Fourier analysis view's modes a side (a few ms to compute, 0.1 s under ASan).
inline constexpr int kLfaMapResolution = 64;

// The predictions themselves (on the calling thread).
Predictions predict(std::uint64_t generation, const SolverOptions& options,
                    std::shared_ptr<const Calibration> calibration);

class PredictionThread {
 public:
  // on_done runs on the prediction thread after each result (the worker's wake-up).
  explicit PredictionThread(std::function<void()> on_done);
  ~PredictionThread();  // finishes the analysis under way, if any
  PredictionThread(const PredictionThread&) = delete;
  PredictionThread& operator=(const PredictionThread&) = delete;

  void request(std::uint64_t generation, const SolverOptions& options, std::shared_ptr<const Calibration> calibration);
  std::shared_ptr<const Predictions> latest() const;  // null before the first

 private:
  struct Request {
    std::uint64_t generation;
    SolverOptions options;
    std::shared_ptr<const Calibration> calibration;
  };
  void run(std::stop_token stop);

  mutable std::mutex mutex_;
  std::condition_variable_any wake_;
  std::optional<Request> pending_;
  std::shared_ptr<const Predictions> latest_;
  std::function<void()> on_done_;
  std::jthread thread_;  // last: it starts once the members above exist
};

}  // namespace kcycle::gui
