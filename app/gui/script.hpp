#pragma once
// The headless driver: a script of parameter changes and UI actions, one command a line,
// applied between frames, so tests (and the README's main job on a server) can run the
// visualizer under Xvfb and take screenshots.
//
// The verbs are one table (script_verbs.cpp), grouped by family: each with its arguments
// (name, kind, range, whether it may be left out), whether it waits, what it does, and a line
// of help; `kcycle-gui --script-verbs` prints them. A line is checked when the script is read:
// the verb known, the argument count exact, every number finite and within its range, every
// word one of its choices, `set`'s option and value as the CLI checks them. A word with spaces
// is written in double quotes ("my shot.png"). A refused line or argument ends the script with
// exit status 2 (bad input, as the CLI); a failed check, wait or write with 1. Every wait ends
// in bounded time (120 s; 480 s for the long work: sweeps, calibrations, recordings; less after
// wait-timeout). The script file itself is read as the CLI reads --config: a regular file of at
// most 1 MiB.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "solver_worker.hpp"
#include "ui_state.hpp"

namespace kcycle::gui {

class ScriptRunner {
 public:
  // Throws std::invalid_argument naming the line of an unknown command or a refused argument.
  explicit ScriptRunner(const std::string& path);

  // Once per frame, before the panels. Returns false when the script has finished; then
  // exit_code() says whether it failed (a wait timed out, a command was refused).
  bool advance(UiState& ui, SolverWorker& worker, const Snapshot& snap);
  int exit_code() const { return exit_code_; }
  // The verbs' help, one line each, family by family (kcycle-gui --script-verbs).
  static std::string verbs_help();

  struct Frame;
  using Action = bool (*)(Frame&);  // false: still waiting (see Frame in script_parts.hpp)
  // One argument of a verb, as a line must give it.
  struct Param {
    enum class Kind { Number, Integer, Word, Text };  // Text: the rest of the line, one argument
    const char* name;                                 // as help and messages show it: "N", "PATH"
    Kind kind = Kind::Word;
    double lo = 0, hi = 0;          // Number, Integer: the range
    const char* choices = nullptr;  // Word: the words allowed, "on|off" (null: any)
    bool optional = false;          // may be left out (only the last ones)
  };
  enum class Waits { Never, Briefly, Long };  // Long: sweeps, calibrations, recordings
  struct Verb {
    const char* family;
    const char* name;
    std::vector<Param> params;
    Waits waits;
    Action action;
    const char* help;
    // What a line needs beyond its arguments' kinds and ranges (set's option and value, a
    // key's name), checked when the script is read; throws std::invalid_argument.
    void (*check)(const std::vector<std::string>& args) = nullptr;
  };
  static const std::vector<Verb>& verbs();  // script_verbs.cpp
  static const Verb* find_verb(const std::string& name);

 private:
  static std::vector<std::string> checked_arguments(const Verb& verb, std::vector<std::string> words);
  struct Command {
    const Verb* verb;
    std::vector<std::string> args;
    int line;
  };

  static bool set(Frame& f);
  static bool write_layout(Frame& f);
  static bool print_summary(Frame& f);
  static bool print_stepping(Frame& f);
  static bool press_key(Frame& f);
  static bool draw(Frame& f);
  static bool print_tooltip(Frame& f);
  static bool sweep_kappa(Frame& f);
  static bool record(Frame& f);
  static bool print_text(Frame& f);
  static bool check_text_fits(Frame& f);
  void stress_change(UiState& ui, SolverWorker& worker);
  // Ends the script: exit 2 for a refused argument (bad input), 1 for a failed check or write.
  void fail(const Command& c, const std::string& why, int exit_code = 1);
  double now() const;

  std::vector<Command> commands_;
  std::size_t next_ = 0;
  int exit_code_ = 0;
  std::uint64_t generation_ = 0;  // of the run the waits refer to
  int frames_left_ = 0;
  bool text_requested_ = false;
  bool record_started_ = false;  // record: the request is made, the recording not yet over
  int sweeps_before_ = -1;       // sweep-kappa: the sweeps finished when it was asked for
  double wait_until_ = 0;
  double wait_started_ = -1;
  double wait_timeout_ = 1e9;  // wait-timeout: a bound below each wait's own
  int stress_left_ = 0;
  std::mt19937 rng_{7};
  double fps_start_ = 0;
  long fps_frames_ = 0;
};

}  // namespace kcycle::gui
