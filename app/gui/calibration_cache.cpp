#include "calibration_cache.hpp"

#include <cstdlib>

#include "kcycle/cycle/cycle_schedule.hpp"
#include "kcycle/solve/execution_target.hpp"
#include "kcycle/solve/resolved_run.hpp"
#include "kcycle/solve/solve.hpp"

namespace kcycle::gui {

namespace {

constexpr int kAutoCalibrationLevels = 8;  // a few seconds on one core

}  // namespace

std::filesystem::path default_cache_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::filesystem::path base =
      xdg && *xdg ? std::filesystem::path(xdg) : std::filesystem::path(home ? home : ".") / ".cache";
  return base / "kcycle";
}

CalibrationCache::CalibrationCache(std::filesystem::path dir, bool auto_calibrate)
    : dir_(std::move(dir)), auto_calibrate_(auto_calibrate) {}

std::filesystem::path CalibrationCache::file_for(const std::string& smoother, const std::string& coarsening,
                                                 const std::string& backend, int threads, bool fused) const {
  std::string name = "calibration-" + smoother + "-" + coarsening + "-" + backend + "-" + std::to_string(threads) +
                     "t" + (fused ? "-fused" : "") + ".json";
  for (char& c : name)
    if (c == '/' || c == ' ') c = '_';
  return dir_ / name;
}

void CalibrationCache::update(UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  if (snap.calibrating || !snap.run || !snap.error.empty()) return;
  // The worker shows a calibration handed to it with its next snapshot, not at once: until
  // then this one still has the calibration from before, which must not count as "nothing fits".
  if (handed_over_) {
    if (snap.calibration == in_use_before_) return;
    handed_over_ = false;
  }
  // A calibration made (or loaded from a file) since the last frame: keep it for next time.
  if (snap.calibration && snap.calibration != seen_) {
    seen_ = snap.calibration;
    const Calibration& c = *snap.calibration;
    const std::filesystem::path file = file_for(c.smoother, c.coarsening, c.backend, c.threads, c.fused);
    if (!tried_.count(file.string())) {
      try {
        std::filesystem::create_directories(dir_);
        if (const std::string not_saved = save_calibration_unless_noisier(c, file.string()); !not_saved.empty())
          ui.notice = "calibration " + not_saved;
        tried_.insert(file.string());
      } catch (const std::exception& e) {
        ui.notice = std::string("calibration not cached: ") + e.what();
      }
    }
  }
  const MultigridSettings& as_run = snap.run->settings;
  const std::string backend = describe(snap.run->target);  // as calibrations name it
  if (snap.calibration && calibration_mismatch(*snap.calibration, as_run, backend, snap.threads).empty()) return;
  // Nothing in use fits this configuration: a cached calibration that does, or at the first
  // start a quick one made now.
  const std::filesystem::path file =
      file_for(std::string(to_string(as_run.smoother)), std::string(to_string(as_run.coarsening)), backend,
               snap.threads, CycleSchedule::per_call(as_run, kAsResolved).fuses_any());
  if (!tried_.count(file.string()) && std::filesystem::exists(file)) {
    tried_.insert(file.string());
    try {
      auto loaded = std::make_shared<const Calibration>(load_calibration(file.string()));
      seen_ = loaded;
      in_use_before_ = snap.calibration;
      handed_over_ = true;
      worker.set_calibration(loaded);
      ui.notice = "calibration from the cache: " + file.string();
    } catch (const std::exception& e) {
      ui.notice = std::string("cached calibration unreadable: ") + e.what();
    }
    return;
  }
  if (auto_calibrate_ && auto_calibrated_.insert(file.string()).second) {
    worker.calibrate(kAutoCalibrationLevels);
    ui.notice = "no calibration of this configuration yet: timing it in the background (levels 3.." +
                std::to_string(kAutoCalibrationLevels) + "), kept in " + dir_.string();
  }
}

}  // namespace kcycle::gui
