#include "bash_completion.hpp"

#include <sstream>

namespace kcycle::cli_docs {

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

// A word as bash's case pattern and compgen -W see it: the words are option names and value
// words (letters, digits, - . _ + ,), quoted for the pattern.
std::string quoted(const std::string& s) { return "\"" + s + "\""; }

// Every command's path below the program: "", "/solve", "/figure/cycles".
void collect(const CommandDoc& c, const std::string& path,
             std::vector<std::pair<std::string, const CommandDoc*>>& out) {
  out.emplace_back(path, &c);
  for (const CommandDoc& sub : c.subcommands) collect(sub, path + "/" + sub.name, out);
}

}  // namespace

std::string bash_completion(const CommandDoc& command) {
  std::vector<std::pair<std::string, const CommandDoc*>> commands;
  collect(command, "", commands);
  std::string function = "_" + command.name + "_complete";
  for (char& ch : function)
    if (ch == '-') ch = '_';

  std::ostringstream out;
  out << "# bash completion for " << command.name << ", written by `" << command.name
      << " --bash-completion` from its command line parser.\n"
      << function << "() {\n"
      << "  local cur=${COMP_WORDS[COMP_CWORD]} prev=\"\" k w path=\"\" words=\"\"\n"
      << "  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
      << "  # --option=value: bash splits at '=' (COMP_WORDBREAKS)\n"
      << "  if [[ $cur == = ]]; then cur=\"\"; elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then "
         "prev=${COMP_WORDS[COMP_CWORD - 2]}; fi\n"
      << "  for ((k = 1; k < COMP_CWORD; k++)); do\n"
      << "    w=${COMP_WORDS[k]}\n"
      << "    case \"$path/$w\" in\n";
  std::string command_patterns;
  for (const auto& [path, c] : commands)
    if (!path.empty()) command_patterns += (command_patterns.empty() ? "" : "|") + quoted(path);
  if (!command_patterns.empty()) out << "      " << command_patterns << ") path=\"$path/$w\" ;;\n";
  out << "    esac\n"
      << "  done\n"
      << "  case \"$path $prev\" in\n";
  for (const auto& [path, c] : commands)
    for (const OptionDoc& o : c->options) {
      if (o.value.empty()) continue;  // a flag takes no value
      std::string patterns;
      for (const std::string& name : o.names) patterns += (patterns.empty() ? "" : "|") + quoted(path + " " + name);
      if (!o.choices.empty())
        out << "    " << patterns << ") COMPREPLY=($(compgen -W " << quoted(joined(o.choices))
            << " -- \"$cur\")); return ;;\n";
      else if (o.completes_files)
        out << "    " << patterns
            << ") compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n";
      else
        out << "    " << patterns << ") COMPREPLY=(); return ;;  # a number or free text\n";
    }
  out << "  esac\n"
      << "  case \"$path\" in\n";
  for (const auto& [path, c] : commands) {
    std::vector<std::string> words;
    for (const CommandDoc& sub : c->subcommands) words.push_back(sub.name);
    for (const OptionDoc& o : c->positionals)
      for (const std::string& choice : o.choices) words.push_back(choice);
    for (const OptionDoc& o : c->options)
      for (const std::string& name : o.names)
        if (name.rfind("--", 0) == 0) words.push_back(name);
    out << "    " << quoted(path) << ") words=" << quoted(joined(words)) << " ;;\n";
  }
  out << "  esac\n"
      << "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
      << "}\n"
      << "complete -F " << function << " " << command.name << "\n";
  return out.str();
}

}  // namespace kcycle::cli_docs
