#include "script.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "kcycle/io/file_input.hpp"
#include "kcycle/io/nearest_name.hpp"
#include "kcycle/io/options_io.hpp"
#include "kcycle/solve/enum_names.hpp"
#include "script_parts.hpp"

namespace kcycle::gui {

namespace {

constexpr double kWaitTimeout = 120.0;

std::string range_text(double lo, double hi) {
  std::ostringstream s;
  s << lo << " to " << hi;
  return s.str();
}

// "N [PATH]": a verb's arguments as help and messages show them.
std::string usage(const ScriptRunner::Verb& verb) {
  std::string out = verb.name;
  for (const ScriptRunner::Param& p : verb.params)
    out += std::string(" ") + (p.optional ? "[" : "") + p.name + (p.optional ? "]" : "");
  return out;
}

}  // namespace

double script_number(const std::string& text) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    throw BadArgument("not a number: " + quoted_value(text));
  }
  if (used != text.size() || !std::isfinite(v)) throw BadArgument("not a finite number: " + quoted_value(text));
  return v;
}

const ScriptRunner::Verb* ScriptRunner::find_verb(const std::string& name) {
  for (const Verb& v : verbs())
    if (name == v.name) return &v;
  return nullptr;
}

// The words after the verb checked against its row: the count exact (a Text argument takes the
// rest of the line), numbers finite and in range, words among their choices, then the verb's
// own check. Returns the arguments (a Text one joined by single spaces). Throws BadArgument.
std::vector<std::string> ScriptRunner::checked_arguments(const Verb& verb, std::vector<std::string> words) {
  const auto& params = verb.params;
  const bool rest = !params.empty() && params.back().kind == Param::Kind::Text;
  if (rest && words.size() >= params.size()) {  // the rest of the line is one argument
    std::string joined;
    for (std::size_t k = params.size() - 1; k < words.size(); ++k) joined += (joined.empty() ? "" : " ") + words[k];
    words.resize(params.size() - 1);
    words.push_back(joined);
  }
  const bool takes_words =
      std::any_of(params.begin(), params.end(), [](const Param& p) { return p.kind == Param::Kind::Word; });
  const std::size_t required =
      std::size_t(std::count_if(params.begin(), params.end(), [](const Param& p) { return !p.optional; }));
  if (words.size() < required || words.size() > params.size())
    throw BadArgument(
        "takes " +
        (required == params.size() ? std::to_string(required)
                                   : std::to_string(required) + " to " + std::to_string(params.size())) +
        " argument(s), got " + std::to_string(words.size()) + ": " + usage(verb) +
        (words.size() > params.size() && takes_words ? " (a word with spaces goes in double quotes)" : ""));
  for (std::size_t k = 0; k < words.size(); ++k) {
    const Param& p = params[k];
    if (p.kind == Param::Kind::Number || p.kind == Param::Kind::Integer) {
      const double v = script_number(words[k]);
      if (v < p.lo || v > p.hi)
        throw BadArgument(std::string(p.name) + " must be from " + range_text(p.lo, p.hi) + " (got " +
                          quoted_value(words[k]) + ")");
      if (p.kind == Param::Kind::Integer && v != std::floor(v))
        throw BadArgument(std::string(p.name) + " must be a whole number (got " + quoted_value(words[k]) + ")");
    } else if (p.kind == Param::Kind::Word && p.choices) {
      bool found = false;
      std::istringstream choices(std::string(p.choices));
      for (std::string c; std::getline(choices, c, '|');) found = found || c == words[k];
      if (!found)
        throw BadArgument(std::string(p.name) + " must be " + p.choices + " (got " + quoted_value(words[k]) + ")");
    }
  }
  if (verb.check) {
    try {
      verb.check(words);
    } catch (const BadArgument&) {
      throw;
    } catch (const std::invalid_argument& e) {  // an option's refusal, as the CLI words it
      throw BadArgument(e.what());
    }
  }
  return words;
}

std::string ScriptRunner::verbs_help() {
  std::string out;
  const char* family = "";
  for (const Verb& v : verbs()) {
    if (std::string(family) != v.family) out += std::string(out.empty() ? "" : "\n") + v.family + ":\n";
    family = v.family;
    std::string line = "  " + usage(v);
    line.resize(std::max<std::size_t>(line.size() + 2, 34), ' ');
    out += line + v.help +
           (v.waits == Waits::Long      ? " (waits: long work)"
            : v.waits == Waits::Briefly ? " (waits)"
                                        : "") +
           "\n";
  }
  return out;
}

ScriptRunner::ScriptRunner(const std::string& path) {
  std::istringstream in(read_input_file(path, "script"));
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    std::istringstream words(text);
    std::string name;
    if (!(words >> name) || name[0] == '#') continue;
    const auto where = [&] { return path + ":" + std::to_string(line) + ": "; };
    const Verb* verb = find_verb(name);
    if (!verb) {
      std::vector<std::string> names;
      for (const Verb& v : verbs()) names.emplace_back(v.name);
      throw BadArgument(where() + "unknown command " + quoted_value(name) + did_you_mean(name, names));
    }
    if (std::count(text.begin(), text.end(), '"') % 2 != 0) throw BadArgument(where() + name + ": an unclosed quote");
    std::vector<std::string> args;
    for (std::string w; words >> std::quoted(w);) args.push_back(w);
    try {
      commands_.push_back({verb, checked_arguments(*verb, std::move(args)), line});
    } catch (const std::invalid_argument& e) {
      throw BadArgument(where() + name + ": " + e.what());
    }
  }
  fps_start_ = now();
}

double ScriptRunner::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void ScriptRunner::fail(const Command& c, const std::string& why, int exit_code) {
  std::fprintf(stderr, "kcycle-gui: script line %d (%s): %s\n", c.line, c.verb->name, why.c_str());
  exit_code_ = exit_code;
  next_ = commands_.size();
}

void ScriptRunner::stress_change(UiState& ui, SolverWorker& worker) {
  SolverOptions o = ui.params;
  o.levels = std::uniform_int_distribution<int>(3, 9)(rng_);
  const int k = std::uniform_int_distribution<int>(1, 6)(rng_);
  o.cycle = {CycleType::Kappa, k == 6 ? kKappaW : k};
  o.eps = std::pow(10.0, -std::uniform_int_distribution<int>(0, 5)(rng_));
  o.angle_degrees = std::uniform_int_distribution<int>(0, 90)(rng_);
  const auto& smoothers = name_table<Smoother>();
  o.smoother = smoothers[std::uniform_int_distribution<std::size_t>(0, smoothers.size() - 1)(rng_)].value;
  o.coarsening = std::uniform_int_distribution<int>(0, 3)(rng_) == 0 ? Coarsening::SemiY : Coarsening::Full;
  o.solver = SolverKind(std::uniform_int_distribution<int>(0, 2)(rng_));
  if (std::uniform_int_distribution<int>(0, 9)(rng_) == 0) worker.step_operation();
  if (std::uniform_int_distribution<int>(0, 9)(rng_) == 0) worker.run();
  ui.params = o;
  generation_ = worker.set_options(o);
}

bool ScriptRunner::advance(UiState& ui, SolverWorker& worker, const Snapshot& snap) {
  ++fps_frames_;
  if (stress_left_ > 0) {  // one random change a frame, while the worker solves
    stress_change(ui, worker);
    --stress_left_;
    return true;
  }
  if (frames_left_ > 0) {
    --frames_left_;
    return true;
  }
  if (wait_until_ > 0) {
    if (now() < wait_until_) return true;
    wait_until_ = 0;
  }
  while (next_ < commands_.size()) {
    const Command& c = commands_[next_];
    bool done = true;
    try {
      Frame frame{*this, ui, worker, snap, c.args, c.line};
      done = c.verb->action(frame);
      if (!done && c.verb->waits == Waits::Never) throw std::logic_error("a verb that never waits waited");
    } catch (const BadArgument& e) {
      fail(c, e.what(), 2);
    } catch (const InvalidOptions& e) {
      fail(c, e.what(), 2);
    } catch (const std::exception& e) {
      fail(c, e.what());
    }
    if (exit_code_ != 0) return false;
    if (!done) {  // a wait: try again next frame, within the timeout
      if (wait_started_ < 0) wait_started_ = now();
      // A kappa sweep or a calibration is minutes of solving under a sanitizer on a busy
      // machine; every other wait is for a cycle or a frame.
      const bool long_work = c.verb->waits == Waits::Long;
      const double limit = std::min(long_work ? kLongWorkTimeout : kWaitTimeout, wait_timeout_);
      if (now() - wait_started_ > limit) {
        fail(c, "timed out after " + std::to_string(int(limit)) + " s");
        return false;
      }
      return true;
    }
    wait_started_ = -1;
    ++next_;
    if (frames_left_ > 0 || wait_until_ > 0 || stress_left_ > 0 || !ui.screenshot_path.empty()) return true;
  }
  return false;
}

}  // namespace kcycle::gui
