#pragma once
// The visualizer's calibrations, one file per configuration (smoother, coarsening, backend,
// threads, fused) under ~/.cache/kcycle, so that "predicted vs measured" works from the first
// start: a calibration made here is saved; when the one in use does not fit the current
// configuration, a cached one that does is loaded; and when nothing fits, the worker calibrates
// the configuration by itself (a quick sweep to 8 levels), once per configuration and session:
// a change of smoother gets its own model, not the last one's curves.
#include <filesystem>
#include <memory>
#include <set>
#include <string>

#include "kcycle/model/cost_model.hpp"
#include "solver_worker.hpp"
#include "ui_state.hpp"

namespace kcycle::gui {

class CalibrationCache {
 public:
  // auto_calibrate: calibrate a configuration nothing cached fits, the first time it is shown.
  CalibrationCache(std::filesystem::path dir, bool auto_calibrate);
  // Once per frame, after the worker published `snap`.
  void update(UiState& ui, SolverWorker& worker, const Snapshot& snap);
  // The file a calibration with these properties is kept in.
  std::filesystem::path file_for(const std::string& smoother, const std::string& coarsening, const std::string& backend,
                                 int threads, bool fused) const;

 private:
  std::filesystem::path dir_;
  bool auto_calibrate_;
  std::set<std::string> auto_calibrated_;             // configurations (their files) timed by itself this session
  std::shared_ptr<const Calibration> seen_;           // the last calibration in use, saved unless loaded from here
  std::set<std::string> tried_;                       // files already loaded (or found unreadable) this session
  bool handed_over_ = false;                          // a cached calibration given to the worker, not yet shown
  std::shared_ptr<const Calibration> in_use_before_;  // what the snapshots showed when it was handed over
};

// $XDG_CACHE_HOME/kcycle, else ~/.cache/kcycle.
std::filesystem::path default_cache_dir();

}  // namespace kcycle::gui
