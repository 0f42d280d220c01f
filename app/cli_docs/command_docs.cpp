#include "command_docs.hpp"

#include <string_view>

#include "kcycle/io/options_io.hpp"

namespace kcycle::cli_docs {

namespace {

// CLI11 writes an IsMember check into the type name: "TEXT:{paused,running}".
std::vector<std::string> member_list(const std::string& type_name) {
  const std::size_t open = type_name.find('{'), close = type_name.find('}', open);
  std::vector<std::string> members;
  if (open == std::string::npos || close == std::string::npos) return members;
  const std::string list = type_name.substr(open + 1, close - open - 1);
  for (std::size_t begin = 0; begin <= list.size();) {
    const std::size_t end = std::min(list.find(',', begin), list.size());
    if (end > begin) members.push_back(list.substr(begin, end - begin));
    begin = end + 1;
  }
  return members;
}

OptionDoc option_doc(const CLI::Option& option) {
  OptionDoc doc;
  for (const std::string& s : option.get_snames()) doc.names.push_back("-" + s);
  for (const std::string& l : option.get_lnames()) doc.names.push_back("--" + l);
  if (doc.names.empty()) doc.names.push_back(option.get_name());
  doc.help = option.get_description();
  doc.default_value = option.get_default_str();
  doc.required = option.get_required();
  if (option.get_expected_max() == 0) return doc;  // a flag
  const std::string type_name = option.get_type_name();
  doc.value = type_name.substr(0, type_name.find(':'));
  if (doc.value.empty()) doc.value = "VALUE";
  const std::vector<std::string>& longs = option.get_lnames();
  if (const OptionSpec* spec = longs.empty() ? nullptr : find_option(longs.front())) {
    doc.choices = option_value_words(*spec);
    return doc;
  }
  doc.choices = member_list(type_name);
  doc.completes_files = doc.choices.empty() && doc.value == "TEXT";
  return doc;
}

CommandDoc command_doc(const CLI::App& app, const std::string& parent_path) {
  CommandDoc doc;
  doc.name = app.get_name();
  doc.path = parent_path.empty() ? doc.name : parent_path + " " + doc.name;
  doc.description = app.get_description();
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_group().empty()) continue;  // hidden
    (option->nonpositional() ? doc.options : doc.positionals).push_back(option_doc(*option));
  }
  for (const CLI::App* sub : app.get_subcommands({}))
    if (!sub->get_group().empty()) doc.subcommands.push_back(command_doc(*sub, doc.path));
  return doc;
}

}  // namespace

CommandDoc describe(const CLI::App& app) { return command_doc(app, ""); }

}  // namespace kcycle::cli_docs
