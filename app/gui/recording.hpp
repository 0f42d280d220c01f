#pragma once
// Recording a stretch of stepping for slides: the cycle stepped one operation at a time, each
// step's frame written as a PNG (frame-00001.png, ...) into a folder, then, where Debian's
// ffmpeg is installed, the frames encoded as FOLDER.mp4 and FOLDER.gif at a few operations a
// second. One frame per step (not per unit of wall time) makes the recording the same on a
// fast machine and a slow one.
#include <chrono>
#include <cstdint>
#include <future>
#include <optional>
#include <string>

#include "solver_worker.hpp"

namespace kcycle::gui {

struct RecordRequest {
  std::string folder;
  int operations = 24;  // steps recorded, one frame each (frames_per_step to linger)
  int frames_per_step = 1;
  double operations_per_second = 4;  // the video's pace
};

class Recorder {
 public:
  Recorder() = default;
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;
  ~Recorder();

  // Starts recording (the worker is stepped from the next frame on). Throws
  // std::invalid_argument for a folder that cannot be made or is a file.
  void start(const RecordRequest& request);
  bool busy() const { return state_ != State::Idle; }
  // After each rendered frame (width x height, the back buffer not yet presented): writes it if
  // it shows the step awaited, steps on, and when done starts the encoding. Returns the
  // outcome once, when the recording is over ("wrote 24 frames to ... and ....mp4, ....gif").
  std::optional<std::string> after_render(const Snapshot& snap, SolverWorker& worker, int width, int height);

 private:
  enum class State { Idle, Stepping, Encoding };
  using Clock = std::chrono::steady_clock;
  std::string frame_path(int index) const;
  std::optional<std::string> finish(std::string why);

  RecordRequest request_;
  State state_ = State::Idle;
  bool asked_ = false;              // a step was asked for and has not shown yet
  std::uint64_t awaited_from_ = 0;  // the step key the frame showed when it was asked
  int steps_done_ = 0, frames_of_step_ = 0, frames_written_ = 0;
  Clock::time_point last_progress_{};
  std::future<std::string> encoding_;
};

// Whether a program is on the PATH (ffmpeg).
bool program_on_path(const std::string& name);

}  // namespace kcycle::gui
