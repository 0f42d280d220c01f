#pragma once
// Text broken into lines of a given width at spaces only. Dear ImGui's own wrapping also
// breaks after '.', ',' and ';', which splits a number across lines at projector scales
// ("error reduced by 8." / "42878e-09"); a plot's or a panel's text breaks here instead.
#include <functional>
#include <string>

namespace kcycle::plot {

// `text` with a newline where a line `width` wide ends: at the last space that fits, `measure`
// giving a line's width. A word wider than `width` gets a line of its own; the text's own
// newlines are kept, and so are runs of spaces inside a line.
std::string broken_at_spaces(const std::string& text, double width,
                             const std::function<double(const std::string&)>& measure);

}  // namespace kcycle::plot
