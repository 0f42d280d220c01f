#pragma once
// What the script's runner (script.cpp) and its verbs (script_verbs.cpp) share: the frame a
// verb acts in, its arguments already checked, and the refusal that means bad input.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "script.hpp"

namespace kcycle::gui {

// How long a wait may take for long work (a calibration, a sweep), in seconds: the runner's
// timeout for such waits and the bound its verbs accept.
inline constexpr double kLongWorkTimeout = 480.0;

// A command's argument refused: bad input, so the script exits 2, as the CLI does.
struct BadArgument : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A number as a script writes it: finite, nothing after it. Throws BadArgument.
double script_number(const std::string& text);

// What one command does, given the frame's state. Returns false while it waits (it is then
// tried again next frame, within the timeout); throws std::exception to fail the script.
// Its arguments were checked when the script was read (ScriptRunner::checked_arguments).
struct ScriptRunner::Frame {
  ScriptRunner& runner;
  UiState& ui;
  SolverWorker& worker;
  const Snapshot& snap;
  const std::vector<std::string>& args;
  int line;
  // Waits refer to the run started by the script's last parameter change (or any run).
  bool current() const { return runner.generation_ == 0 || snap.generation >= runner.generation_; }
  bool has(std::size_t i) const { return i < args.size(); }
  double number(std::size_t i) const { return script_number(args[i]); }
  int integer(std::size_t i) const { return int(std::lround(script_number(args[i]))); }
};

}  // namespace kcycle::gui
