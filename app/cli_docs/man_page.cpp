#include "man_page.hpp"

#include <cctype>
#include <sstream>

namespace kcycle::cli_docs {

namespace {

// Text as roff reads it literally: a backslash is \e, a minus \- (so that it copies as one),
// and a line starting with . or ' is not a request.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
    line_start = c == '\n';
  }
  return out;
}

// Paragraphs (blank-line separated) as .PP; a paragraph whose lines start with two spaces is
// shown as typed (.nf), for tables and examples.
void write_text(std::ostringstream& out, const std::string& text) {
  std::istringstream lines(text);
  std::string line, paragraph;
  bool verbatim = false;
  const auto flush = [&] {
    if (paragraph.empty()) return;
    out << (verbatim ? ".PP\n.nf\n" : ".PP\n") << roff(paragraph) << (verbatim ? ".fi\n" : "");
    paragraph.clear();
  };
  while (std::getline(lines, line)) {
    if (line.empty()) {
      flush();
      continue;
    }
    if (paragraph.empty()) verbatim = line.rfind("  ", 0) == 0;
    paragraph += line + "\n";
  }
  flush();
}

std::string option_heading(const OptionDoc& o) {
  std::string names;
  for (const std::string& n : o.names) names += (names.empty() ? "" : ", ") + std::string("\\fB") + roff(n) + "\\fR";
  if (!o.value.empty()) names += " \\fI" + roff(o.value) + "\\fR";
  return names;
}

void write_options(std::ostringstream& out, const CommandDoc& c) {
  for (const OptionDoc& o : c.positionals) {
    out << ".TP\n\\fI" << roff(o.names.front()) << "\\fR" << (o.required ? " (required)" : "") << "\n"
        << roff(o.help) << "\n";
  }
  for (const OptionDoc& o : c.options) {
    out << ".TP\n" << option_heading(o) << "\n" << roff(o.help);
    if (!o.default_value.empty()) out << " (default: " << roff(o.default_value) << ")";
    if (o.required) out << " (required)";
    out << "\n";
  }
}

std::string usage(const CommandDoc& c) {
  std::string u = "\\fB" + roff(c.path) + "\\fR";
  if (!c.subcommands.empty()) u += " \\fICOMMAND\\fR";
  u += " [\\fIOPTIONS\\fR]";
  for (const OptionDoc& p : c.positionals) u += " \\fI" + roff(p.names.front()) + "\\fR";
  return u;
}

void write_command(std::ostringstream& out, const CommandDoc& c) {
  out << ".SS \"" << roff(c.path) << "\"\n" << usage(c) << "\n";
  write_text(out, c.description);
  write_options(out, c);
  for (const CommandDoc& sub : c.subcommands) write_command(out, sub);
}

}  // namespace

std::string man_page(const CommandDoc& command, const ManPage& page) {
  std::ostringstream out;
  std::string upper = page.name;
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  out << ".\\\" Written by " << page.name << " --man-page from its command line parser: edit the parser, not this.\n"
      << ".TH " << roff(upper) << " 1 \"\" \"" << roff(page.name) << " " << page.version << "\" \"User Commands\"\n"
      << ".SH NAME\n"
      << roff(page.name) << " \\- " << roff(page.summary) << "\n"
      << ".SH SYNOPSIS\n"
      << usage(command) << "\n";
  for (const CommandDoc& sub : command.subcommands) out << ".br\n" << usage(sub) << "\n";
  out << ".SH DESCRIPTION\n";
  write_text(out, command.description);
  out << ".SH OPTIONS\n";
  write_options(out, command);
  if (!command.subcommands.empty()) {
    out << ".SH COMMANDS\nEvery command takes \\fB\\-\\-help\\fR, which lists what follows.\n";
    for (const CommandDoc& sub : command.subcommands) write_command(out, sub);
  }
  for (const ManSection& section : page.sections) {
    out << ".SH " << roff(section.title) << "\n";
    write_text(out, section.text);
  }
  if (!page.see_also.empty()) {
    out << ".SH SEE ALSO\n";
    for (std::size_t k = 0; k < page.see_also.size(); ++k) {
      const std::string& ref = page.see_also[k];
      const std::size_t paren = ref.find('(');
      out << (paren == std::string::npos ? roff(ref) : "\\fB" + roff(ref.substr(0, paren)) + "\\fR" + ref.substr(paren))
          << (k + 1 < page.see_also.size() ? ",\n" : "\n");
    }
  }
  return out.str();
}

}  // namespace kcycle::cli_docs
