#include "kcycle/core/drawn_error.hpp"

#include <charconv>
#include <cmath>
#include <numbers>
#include <sstream>

namespace kcycle {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  while (!(s = trimmed(s)).empty()) {
    const std::size_t end = std::min(s.find_first_of(" \t\n"), s.size());
    out.push_back(s.substr(0, end));
    s.remove_prefix(end);
  }
  return out;
}

bool read(std::string_view w, double& v) {
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  return ec == std::errc() && end == w.data() + w.size() && std::isfinite(v);
}
bool read(std::string_view w, int& v) {
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  return ec == std::errc() && end == w.data() + w.size();
}

// One shape from its words, or why not.
std::string parse_shape(const std::vector<std::string_view>& w, ErrorShape& s) {
  const std::string kind(w[0]);
  if (kind == "mode") {
    s.kind = ErrorShape::Kind::Mode;
    if (w.size() != 4) return "a mode is 'mode K L A' (wave numbers and amplitude)";
    if (!read(w[1], s.k) || !read(w[2], s.l) || s.k < 1 || s.l < 1) return "a mode's K and L are integers from 1";
    if (!read(w[3], s.amplitude)) return "a mode's amplitude A is a finite number";
  } else if (kind == "bump" || kind == "rough") {
    s.kind = kind == "bump" ? ErrorShape::Kind::Bump : ErrorShape::Kind::Rough;
    if (w.size() != 5) return "a " + kind + " is '" + kind + " X Y R A' (centre, radius and amplitude)";
    if (!read(w[1], s.x) || !read(w[2], s.y) || s.x < 0 || s.x > 1 || s.y < 0 || s.y > 1)
      return "a " + kind + "'s centre X, Y is in [0, 1]";
    if (!read(w[3], s.radius) || !(s.radius >= 1e-4 && s.radius <= 1))
      return "a " + kind + "'s radius R is in [1e-4, 1]";
    if (!read(w[4], s.amplitude)) return "a " + kind + "'s amplitude A is a finite number";
  } else {
    return "unknown shape '" + kind.substr(0, 20) + "' (bump, rough or mode)";
  }
  if (std::abs(s.amplitude) > 1e6) return "an amplitude is at most 1e6 in size";
  return "";
}

}  // namespace

ParsedShapes parse_error_shapes(std::string_view text) {
  ParsedShapes out;
  std::size_t index = 0;
  while (!trimmed(text).empty()) {
    const std::size_t end = std::min(text.find(';'), text.size());
    const std::vector<std::string_view> w = words(text.substr(0, end));
    text.remove_prefix(std::min(end + 1, text.size()));
    if (w.empty()) continue;  // "a; ; b" and a trailing ';'
    ++index;
    if (index > kMaxErrorShapes) {
      out.error = "at most " + std::to_string(kMaxErrorShapes) + " shapes";
      return out;
    }
    ErrorShape s;
    if (std::string why = parse_shape(w, s); !why.empty()) {
      out.error = "shape " + std::to_string(index) + ": " + why;
      return out;
    }
    out.shapes.push_back(s);
  }
  if (out.shapes.empty())
    out.error = "no shapes: write e.g. 'bump 0.3 0.4 0.1 1; rough 0.7 0.6 0.08 0.5; mode 3 5 0.2'";
  return out;
}

std::string error_shapes_text(const std::vector<ErrorShape>& shapes) {
  std::ostringstream o;
  o.precision(6);
  for (std::size_t n = 0; n < shapes.size(); ++n) {
    const ErrorShape& s = shapes[n];
    if (n) o << "; ";
    if (s.kind == ErrorShape::Kind::Mode)
      o << "mode " << s.k << ' ' << s.l << ' ' << s.amplitude;
    else
      o << (s.kind == ErrorShape::Kind::Bump ? "bump " : "rough ") << s.x << ' ' << s.y << ' ' << s.radius << ' '
        << s.amplitude;
  }
  return o.str();
}

std::string error_shapes_problem(const std::vector<ErrorShape>& shapes, int nx, int ny) {
  if (shapes.empty()) return "no shapes drawn";
  for (std::size_t n = 0; n < shapes.size(); ++n)
    if (shapes[n].kind == ErrorShape::Kind::Mode && (shapes[n].k > nx || shapes[n].l > ny))
      return "shape " + std::to_string(n + 1) + ": mode " + std::to_string(shapes[n].k) + " " +
             std::to_string(shapes[n].l) + " is beyond this grid's wave numbers (K <= " + std::to_string(nx) +
             ", L <= " + std::to_string(ny) + ")";
  return "";
}

double drawn_error_at(const std::vector<ErrorShape>& shapes, const GridShape& g, int i, int j) {
  const double x = i * g.hx(), y = j * g.hy(), pi = std::numbers::pi;
  double sum = 0;
  for (const ErrorShape& s : shapes) {
    if (s.kind == ErrorShape::Kind::Mode) {
      sum += s.amplitude * std::sin(s.k * pi * x) * std::sin(s.l * pi * y);
      continue;
    }
    const double r2 = ((x - s.x) * (x - s.x) + (y - s.y) * (y - s.y)) / (s.radius * s.radius);
    if (r2 > 40) continue;  // below e^-40 of the amplitude
    const double envelope = s.amplitude * std::exp(-r2);
    sum += s.kind == ErrorShape::Kind::Bump ? envelope : ((i + j) % 2 ? -envelope : envelope);
  }
  return sum;
}

}  // namespace kcycle
