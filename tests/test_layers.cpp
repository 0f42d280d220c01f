// The library's folders are layers (docs/design.md): a file includes headers of its own folder
// and of the folders below it, never above. The three libraries follow the folders: kcycle_core
// builds core/ and cycle/ and nothing else. Both rules are read from the source tree here, so an
// include against the order fails the suite with the file and line that made it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// Lowest first. The order is docs/design.md's "Layers".
const std::vector<std::string> kLayers = {"core", "cycle", "backends", "solve", "io", "lfa", "model"};

int layer_rank(const std::string& folder) {
  const auto it = std::find(kLayers.begin(), kLayers.end(), folder);
  return it == kLayers.end() ? -1 : int(it - kLayers.begin());
}

// The layer a library file sits in: the folder under include/kcycle/ or src/.
std::string layer_of(const fs::path& file, const fs::path& solver_root) {
  const fs::path relative = file.lexically_relative(solver_root);
  auto part = relative.begin();
  if (part == relative.end()) return {};
  if (*part == "include") {
    ++part;  // kcycle
    if (part != relative.end()) ++part;
  } else if (*part == "src") {
    ++part;
  }
  return part == relative.end() ? std::string{} : part->string();
}

// Every '#include "kcycle/<layer>/..."' under solver_root whose layer is above the including
// file's, as "file:line: includes kcycle/<layer>/... (<from> may include only ...)".
std::vector<std::string> includes_against_the_order(const fs::path& solver_root) {
  static const std::regex include_line(R"(^\s*#\s*include\s*["<]kcycle/([a-z_]+)/)");
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(solver_root)) {
    if (!entry.is_regular_file()) continue;
    const std::string ext = entry.path().extension().string();
    if (ext != ".hpp" && ext != ".cpp" && ext != ".cu" && ext != ".cuh" && ext != ".h") continue;
    const std::string from = layer_of(entry.path(), solver_root);
    const int from_rank = layer_rank(from);
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::smatch m;
      if (!std::regex_search(line, m, include_line)) continue;
      const std::string to = m[1];
      const int to_rank = layer_rank(to);
      if (from_rank < 0 || to_rank < 0 || to_rank > from_rank)
        found.push_back(entry.path().lexically_relative(solver_root).string() + ":" + std::to_string(number) + ": " +
                        line + "  (" +
                        (from_rank < 0 ? "'" + from + "' is no layer"
                         : to_rank < 0 ? "'" + to + "' is no layer"
                                       : from + " is below " + to) +
                        ")");
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

// The sources one add_library(<name> ...) of solver/CMakeLists.txt lists.
std::vector<std::string> library_sources(const fs::path& cmake_lists, const std::string& name) {
  std::ifstream in(cmake_lists);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string opening = "add_library(" + name + "\n";
  const auto begin = text.find(opening);
  if (begin == std::string::npos) return {};
  const std::string body = text.substr(begin + opening.size(), text.find(')', begin) - begin - opening.size());
  std::vector<std::string> sources;
  static const std::regex source(R"(src/\S+)");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), source); it != std::sregex_iterator(); ++it)
    sources.push_back(it->str());
  return sources;
}

const fs::path kSolverRoot = fs::path(KCYCLE_SOURCE_DIR) / "solver";

TEST(Layers, NoLibraryFileIncludesAHeaderOfAHigherLayer) {
  const auto found = includes_against_the_order(kSolverRoot);
  std::string listed;
  for (const auto& f : found) listed += f + "\n";
  EXPECT_TRUE(found.empty()) << found.size()
                             << " includes against core < cycle < backends < solve < io < lfa < model:\n"
                             << listed;
}

TEST(Layers, TheCheckFindsAnIncludeAgainstTheOrder) {
  // A fabricated tree: a cycle/ header that includes a model/ header, and a folder that is no layer.
  const fs::path root = fs::temp_directory_path() /
                        ("kcycle_layers_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::remove_all(root);
  fs::create_directories(root / "include/kcycle/cycle");
  fs::create_directories(root / "src/gadgets");
  std::ofstream(root / "include/kcycle/cycle/late.hpp") << "#pragma once\n#include \"kcycle/core/grid.hpp\"\n"
                                                        << "#include \"kcycle/model/cost_model.hpp\"\n";
  std::ofstream(root / "src/gadgets/thing.cpp") << "#include \"kcycle/core/grid.hpp\"\n";
  const auto found = includes_against_the_order(root);
  fs::remove_all(root);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_NE(found[0].find("include/kcycle/cycle/late.hpp:3:"), std::string::npos) << found[0];
  EXPECT_NE(found[0].find("cycle is below model"), std::string::npos) << found[0];
  EXPECT_NE(found[1].find("'gadgets' is no layer"), std::string::npos) << found[1];
}

TEST(Layers, TheCoreLibraryBuildsCoreAndCycleAndTheSolverLibraryTheRest) {
  const auto core = library_sources(kSolverRoot / "CMakeLists.txt", "kcycle_core");
  const auto solver = library_sources(kSolverRoot / "CMakeLists.txt", "kcycle_solver");
  ASSERT_GT(core.size(), 5u);
  ASSERT_GT(solver.size(), 5u);
  for (const auto& s : core)
    EXPECT_TRUE(s.starts_with("src/core/") || s.starts_with("src/cycle/")) << s << " is in kcycle_core";
  for (const auto& s : solver)
    EXPECT_FALSE(s.starts_with("src/core/") || s.starts_with("src/cycle/")) << s << " is in kcycle_solver";
  // Every source of the two lowest layers is built into kcycle_core.
  for (const char* folder : {"core", "cycle"})
    for (const auto& entry : fs::directory_iterator(kSolverRoot / "src" / folder))
      if (entry.path().extension() == ".cpp") {
        const std::string listed = "src/" + std::string(folder) + "/" + entry.path().filename().string();
        EXPECT_NE(std::find(core.begin(), core.end(), listed), core.end()) << listed << " is not in kcycle_core";
      }
}

}  // namespace
