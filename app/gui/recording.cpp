#include "recording.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <stdexcept>
#include <vector>

#include "screenshot.hpp"

extern char** environ;

namespace kcycle::gui {

namespace {

// Where the stepping stands: cycles done and operations into the current cycle. A step changes it.
std::uint64_t step_key(const Snapshot& snap) {
  return (std::uint64_t(snap.history.size()) << 32) | std::uint32_t(snap.trace_position + 1);
}

// Runs argv[0] with its arguments, its output discarded; true if it exited 0.
bool run_quietly(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return false;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// The frames as FOLDER.mp4 (H.264, even dimensions) and FOLDER.gif (half size, its own palette).
std::string encode(const std::string& folder, double fps) {
  const std::string pattern = folder + "/frame-%05d.png", rate = std::to_string(fps);
  const bool mp4 = run_quietly({"ffmpeg", "-y", "-framerate", rate, "-i", pattern, "-vf",
                                "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p", folder + ".mp4"});
  const bool gif =
      run_quietly({"ffmpeg", "-y", "-framerate", rate, "-i", pattern, "-vf",
                   "scale=iw/2:-1:flags=lanczos,split[a][b];[a]palettegen[p];[b][p]paletteuse", folder + ".gif"});
  std::string out;
  if (mp4) out += " and " + folder + ".mp4";
  if (gif) out += (mp4 ? ", " : " and ") + folder + ".gif";
  if (!mp4 || !gif)
    out += "; ffmpeg failed on the " + std::string(!mp4 && !gif ? "MP4 and the GIF" : !mp4 ? "MP4" : "GIF");
  return out;
}

}  // namespace

bool program_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  const std::string dirs = path;
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string file = (end > start ? dirs.substr(start, end - start) : ".") + "/" + name;
    if (::access(file.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

Recorder::~Recorder() {
  if (encoding_.valid()) encoding_.wait();
}

std::string Recorder::frame_path(int index) const {
  char name[32];
  std::snprintf(name, sizeof name, "/frame-%05d.png", index);
  return request_.folder + name;
}

void Recorder::start(const RecordRequest& request) {
  if (busy()) throw std::invalid_argument("a recording is under way");
  if (request.folder.empty()) throw std::invalid_argument("record: no folder given");
  if (request.operations < 1 || request.operations > 10000)
    throw std::invalid_argument("record: between 1 and 10000 operations");
  if (request.frames_per_step < 1 || request.frames_per_step > 100)
    throw std::invalid_argument("record: between 1 and 100 frames a step");
  namespace fs = std::filesystem;
  std::error_code error;
  fs::create_directories(request.folder, error);
  if (!fs::is_directory(request.folder))
    throw std::invalid_argument("record: cannot make the folder " + request.folder +
                                (error ? ": " + error.message() : ": a file of that name is in the way"));
  // An earlier recording's frames would be encoded with these: they go first (only frames).
  static const std::regex frame(R"(frame-\d{5}\.png)");
  for (const fs::directory_entry& e : fs::directory_iterator(request.folder, error))
    if (e.is_regular_file() && std::regex_match(e.path().filename().string(), frame)) fs::remove(e.path(), error);
  request_ = request;
  state_ = State::Stepping;
  asked_ = false;
  steps_done_ = frames_of_step_ = frames_written_ = 0;
  last_progress_ = Clock::now();
}

std::optional<std::string> Recorder::finish(std::string why) {
  state_ = State::Idle;
  return why;
}

std::optional<std::string> Recorder::after_render(const Snapshot& snap, SolverWorker& worker, int width, int height) {
  if (state_ == State::Encoding) {
    if (encoding_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nullopt;
    return finish("wrote " + std::to_string(frames_written_) + " frames to " + request_.folder + encoding_.get());
  }
  if (state_ != State::Stepping) return std::nullopt;
  if (!asked_) {  // ask for the next step; the frame that shows it is written
    awaited_from_ = step_key(snap);
    worker.step_operation();
    asked_ = true;
    last_progress_ = Clock::now();
    return std::nullopt;
  }
  if (!snap.stepping || step_key(snap) == awaited_from_) {
    if (Clock::now() - last_progress_ > std::chrono::seconds(20))
      return finish("recording stopped after " + std::to_string(frames_written_) +
                    " frames: the solve did not step on (converged, or refused)");
    return std::nullopt;
  }
  try {
    save_screenshot(frame_path(++frames_written_), width, height);
  } catch (const std::exception& e) {
    return finish(std::string("recording stopped: ") + e.what());
  }
  if (++frames_of_step_ < request_.frames_per_step) return std::nullopt;  // the same step again
  frames_of_step_ = 0;
  asked_ = false;
  if (++steps_done_ < request_.operations) return std::nullopt;
  if (!program_on_path("ffmpeg"))
    return finish("wrote " + std::to_string(frames_written_) + " frames to " + request_.folder +
                  " (install ffmpeg for an MP4 and a GIF of them)");
  state_ = State::Encoding;
  // Each step lingers frames_per_step frames: the video shows operations_per_second steps a second.
  encoding_ = std::async(std::launch::async, encode, request_.folder,
                         request_.operations_per_second * request_.frames_per_step);
  return std::nullopt;
}

}  // namespace kcycle::gui
