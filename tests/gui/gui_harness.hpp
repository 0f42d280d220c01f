#pragma once
// The GUI tests' harness: runs kcycle-gui on a script under Xvfb, reads its screenshots,
// layout file and printed text.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#define STB_IMAGE_STATIC  // each test file its own copy
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

namespace kcycle::gui_testing {

struct Rect {
  int x, y, w, h;
};

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
  const unsigned char* at(int x, int y) const { return &rgb[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 3]; }
};

inline Image load_png(const std::string& path) {
  Image img;
  int n = 0;
  unsigned char* data = stbi_load(path.c_str(), &img.w, &img.h, &n, 3);
  if (!data) return img;
  img.rgb.assign(data, data + std::size_t(img.w) * std::size_t(img.h) * 3);
  stbi_image_free(data);
  return img;
}

inline std::string temp(const std::string& name) { return testing::TempDir() + "kcycle_gui_" + name; }

// Runs the GUI on a script under Xvfb; returns the exit status and the output. Away from the
// build tree (the GPU pack, scripts/gpu-run.sh 6), KCYCLE_GUI names the binary and
// KCYCLE_GUI_ON_DISPLAY=1 runs it on the X display already in DISPLAY instead of xvfb-run's.
inline int run_gui(const std::string& script_text, std::string* output = nullptr, int width = 1900,
                   const std::string& extra_args = "", int height = 1000) {
  const std::string script = temp("script_" + std::to_string(std::hash<std::string>{}(script_text)) + ".txt");
  std::ofstream(script) << script_text;
  const char* moved = std::getenv("KCYCLE_GUI");
  const char* on_display = std::getenv("KCYCLE_GUI_ON_DISPLAY");
  const std::string display =
      on_display && std::string(on_display) == "1"
          ? std::string()
          : "xvfb-run -a -s '-screen 0 " + std::to_string(width) + "x" + std::to_string(height) + "x24' ";
  const std::string cmd = display + (moved && *moved ? moved : KCYCLE_GUI_PATH) + " --width " + std::to_string(width) +
                          " --height " + std::to_string(height) + " --script " + script + " " + extra_args + " 2>&1";
  for (int attempt = 0;; ++attempt) {
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) return -1;
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
    const int status = pclose(pipe);
    // xvfb-run's own failure (its exit 5) when a client ends within moments of the server's
    // start: the visualizer's status is lost, so the run is repeated.
    const bool xvfb_run_failed = WIFEXITED(status) && WEXITSTATUS(status) == 5 &&
                                 out.find("xvfb-run: error: problem while cleaning up") != std::string::npos;
    if (xvfb_run_failed && attempt < 3) continue;
    if (output) *output = out;
    if (!WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
  }
}

// Runs the command line tool (the build's kcycle) with `args`; returns its stdout and stderr and
// puts its exit status in *status.
inline std::string run_cli(const std::string& args, int* status) {
  std::string text;
  FILE* pipe = popen((std::string(KCYCLE_CLI_PATH) + " " + args + " 2>&1").c_str(), "r");
  char buf[4096];
  for (std::size_t n; pipe && (n = fread(buf, 1, sizeof buf, pipe)) > 0;) text.append(buf, n);
  *status = pipe ? pclose(pipe) : -1;
  return text;
}

inline Rect panel(const std::string& layout_file, const std::string& name) {
  std::ifstream f(layout_file);
  const auto j = nlohmann::json::parse(f);
  const auto& r = j.at(name);
  return {int(r[0].get<double>()), int(r[1].get<double>()), int(r[2].get<double>()), int(r[3].get<double>())};
}

// 8-connected components of the pixels in `r` that satisfy `pick`.
template <class Pick>
int components(const Image& img, Rect r, Pick pick) {
  std::vector<char> seen(std::size_t(r.w) * std::size_t(r.h), 0);
  int count = 0;
  std::vector<std::pair<int, int>> stack;
  for (int y = 0; y < r.h; ++y)
    for (int x = 0; x < r.w; ++x) {
      if (seen[std::size_t(y * r.w + x)] || !pick(img.at(r.x + x, r.y + y))) continue;
      ++count;
      stack.push_back({x, y});
      seen[std::size_t(y * r.w + x)] = 1;
      while (!stack.empty()) {
        const auto [cx, cy] = stack.back();
        stack.pop_back();
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int nx = cx + dx, ny = cy + dy;
            if (nx < 0 || ny < 0 || nx >= r.w || ny >= r.h || seen[std::size_t(ny * r.w + nx)]) continue;
            if (!pick(img.at(r.x + nx, r.y + ny))) continue;
            seen[std::size_t(ny * r.w + nx)] = 1;
            stack.push_back({nx, ny});
          }
      }
    }
  return count;
}

inline double mean_abs_difference(const Image& a, const Image& b, Rect r) {
  double sum = 0;
  for (int y = r.y; y < r.y + r.h; ++y)
    for (int x = r.x; x < r.x + r.w; ++x)
      for (int c = 0; c < 3; ++c) sum += std::abs(int(a.at(x, y)[c]) - int(b.at(x, y)[c]));
  return sum / (3.0 * r.w * r.h);
}

// The drawing area of a panel: below its title bar and header lines.
inline Rect body(Rect r, int header) { return {r.x + 4, r.y + header, r.w - 8, r.h - header - 4}; }

// The texts print-text printed, one per "--- text shown ---" block, in order.
inline std::vector<std::string> shown_texts(const std::string& out) {
  std::vector<std::string> texts;
  const std::string begin = "--- text shown ---\n", end = "--- end of text ---";
  for (std::size_t at = out.find(begin); at != std::string::npos; at = out.find(begin, at + 1)) {
    const std::size_t from = at + begin.size(), to = out.find(end, from);
    texts.push_back(out.substr(from, to == std::string::npos ? std::string::npos : to - from));
  }
  return texts;
}
inline bool shows(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

}  // namespace kcycle::gui_testing
