#include "text_fit.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <utility>
#include <vector>

namespace kcycle::gui {

namespace {

// Half a pixel: ImGui rounds positions, a glyph's anti-aliased edge may touch the boundary.
constexpr float kSlack = 0.5f;

std::string describe(const char* what, const char* window, float x, float y, const ImVec4& visible) {
  char line[320];
  std::snprintf(line, sizeof line, "%s in '%s': reaches (%.0f, %.0f), visible to (%.0f, %.0f) from (%.0f, %.0f)", what,
                window, x, y, visible.z, visible.w, visible.x, visible.y);
  return line;
}

// The window asked about, or its child regions (ImGui names them "Parent/child").
bool in_scope(const char* name, const std::string& window) {
  if (window.empty()) return true;
  const std::string n = name ? name : "";
  return n == window || n.rfind(window + "/", 0) == 0;
}

void windows_content(std::vector<std::string>& cut, const std::string& window, bool across) {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  for (const ImGuiWindow* w : g.Windows) {
    if (!w->WasActive || w->Hidden || w->Collapsed || w->SkipItems || !in_scope(w->Name, window)) continue;
    // A child region that scrolls (a wide table) is meant to; a panel that needs a scroll bar
    // has text out of view.
    if ((w->Flags & ImGuiWindowFlags_ChildWindow) && (w->ScrollbarX || w->ScrollbarY)) continue;
    // Content past the content region (the window less its padding) gets a scroll bar: what is
    // past it is out of view.
    const ImRect& r = w->ContentRegionRect;
    const ImVec2 end = w->DC.CursorMaxPos;
    if (end.x > r.Max.x + kSlack || (!across && end.y > r.Max.y + kSlack))
      cut.push_back(describe("content", w->Name, end.x, end.y, ImVec4(r.Min.x, r.Min.y, r.Max.x, r.Max.y)));
    else if (!(w->Flags & ImGuiWindowFlags_ChildWindow) && (w->ScrollbarX || (w->ScrollbarY && !across)))
      cut.push_back(std::string("a scroll bar in '") + w->Name + "': its content is larger than it");
  }
}

// A vertex's UV inside the atlas's baked anti-aliased lines: a line, not a glyph.
bool on_baked_lines(const ImFontAtlas& atlas, ImVec2 uv) {
  if (atlas.PackIdLines < 0) return false;
  const ImFontAtlasCustomRect* r = &atlas.CustomRects[atlas.PackIdLines];
  const float u0 = float(r->X) * atlas.TexUvScale.x, v0 = float(r->Y) * atlas.TexUvScale.y;
  const float u1 = float(r->X + r->Width) * atlas.TexUvScale.x, v1 = float(r->Y + r->Height) * atlas.TexUvScale.y;
  return uv.x >= u0 && uv.x <= u1 && uv.y >= v0 && uv.y <= v1;
}

// A vertex that samples a glyph: not the atlas' white pixel (shapes), not its baked lines.
bool samples_a_glyph(const ImFontAtlas& atlas, const ImDrawVert& v) {
  const ImVec2 white = atlas.TexUvWhitePixel;
  return !(v.uv.x == white.x && v.uv.y == white.y) && !on_baked_lines(atlas, v.uv);
}

// Calls visit(list, cmd) for each draw command of the last frame that draws with the font atlas
// (field pictures are images) in the windows `window` names.
template <class Visit>
void for_each_text_command(const std::string& window, Visit visit) {
  const ImDrawData* data = ImGui::GetDrawData();
  if (!data || !data->Valid) return;
  const ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  for (int n = 0; n < data->CmdListsCount; ++n) {
    const ImDrawList* list = data->CmdLists[n];
    if (!in_scope(list->_OwnerName, window)) continue;
    for (const ImDrawCmd& cmd : list->CmdBuffer)
      if (!cmd.UserCallback && cmd.TextureId == atlas.TexID) visit(*list, cmd);
  }
}

void glyphs(std::vector<std::string>& cut, const std::string& window, bool across) {
  const ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  for_each_text_command(window, [&](const ImDrawList& list, const ImDrawCmd& cmd) {
    const ImVec4& clip = cmd.ClipRect;
    for (unsigned int i = 0; i < cmd.ElemCount; ++i) {
      const ImDrawVert& v = list.VtxBuffer[int(cmd.VtxOffset + list.IdxBuffer[int(cmd.IdxOffset + i)])];
      if (!samples_a_glyph(atlas, v)) continue;
      const bool out_x = v.pos.x < clip.x - kSlack || v.pos.x > clip.z + kSlack;
      const bool out_y = v.pos.y < clip.y - kSlack || v.pos.y > clip.w + kSlack;
      if (out_x || (out_y && !across)) {
        cut.push_back(describe("a glyph", list._OwnerName ? list._OwnerName : "?", v.pos.x, v.pos.y, clip));
        return;  // one line per draw command is enough to find it
      }
    }
  });
}

// Texts drawn over one another: two glyph quads of one window's draw list, inside what is
// visible, sharing more than a third of the smaller one's area, other than a letter and the
// next one drawn (neighbouring letters' quads overlap where the font kerns them: "Pa" at UI
// scale 2); stacked tick labels or two captions at one place share far more.
void overlaps(std::vector<std::string>& cut, const std::string& window) {
  const ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  std::vector<std::pair<const ImDrawList*, std::vector<ImRect>>> windows;  // each list's glyph quads
  for_each_text_command(window, [&](const ImDrawList& list, const ImDrawCmd& cmd) {
    if (windows.empty() || windows.back().first != &list) windows.push_back({&list, {}});
    std::vector<ImRect>& quads = windows.back().second;
    const ImRect clip(cmd.ClipRect.x, cmd.ClipRect.y, cmd.ClipRect.z, cmd.ClipRect.w);
    // A glyph is PrimRectUV's quad: two triangles (v, v+1, v+2), (v, v+2, v+3) whose four
    // vertices all sample the atlas; everything else is drawn in triangles of three indices.
    const auto index = [&](unsigned int k) { return list.IdxBuffer[int(cmd.IdxOffset + k)]; };
    for (unsigned int i = 0; i + 3 <= cmd.ElemCount;) {
      const unsigned int v = index(i);
      const bool quad = i + 6 <= cmd.ElemCount && index(i + 1) == v + 1 && index(i + 2) == v + 2 && index(i + 3) == v &&
                        index(i + 4) == v + 2 && index(i + 5) == v + 3;
      if (!quad) {
        i += 3;
        continue;
      }
      i += 6;
      ImRect box(FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX);
      bool glyph = true;
      for (unsigned int k = 0; k < 4 && glyph; ++k) {
        const ImDrawVert& vert = list.VtxBuffer[int(cmd.VtxOffset + v + k)];
        glyph = samples_a_glyph(atlas, vert);
        box.Add(vert.pos);
      }
      if (!glyph) continue;
      box.ClipWithFull(clip);
      if (box.GetWidth() > 1 && box.GetHeight() > 1) quads.push_back(box);
    }
  });
  for (const auto& [list, quads] : windows)
    for (std::size_t a = 0; a < quads.size(); ++a)
      for (std::size_t b = a + 2; b < quads.size(); ++b) {  // a + 1: the next letter of the same text
        ImRect both = quads[a];
        both.ClipWithFull(quads[b]);
        const float shared = std::max(0.0f, both.GetWidth()) * std::max(0.0f, both.GetHeight());
        if (shared > std::min(quads[a].GetArea(), quads[b].GetArea()) / 3) {
          char line[320];
          std::snprintf(line, sizeof line, "texts over one another in '%s': glyphs at (%.0f, %.0f) and (%.0f, %.0f)",
                        list->_OwnerName ? list->_OwnerName : "?", quads[a].Min.x, quads[a].Min.y, quads[b].Min.x,
                        quads[b].Min.y);
          cut.push_back(line);
          a = quads.size();  // one line per window is enough to find it
          break;
        }
      }
}

}  // namespace

std::vector<std::string> drawn_window_names() {
  std::vector<std::string> names;
  for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    if (w->WasActive && !w->Hidden && !(w->Flags & ImGuiWindowFlags_ChildWindow) && w->Name)
      names.emplace_back(w->Name);
  return names;
}

std::vector<std::string> texts_cut_off(const std::string& window, bool across) {
  std::vector<std::string> cut;
  windows_content(cut, window, across);
  glyphs(cut, window, across);
  overlaps(cut, window);
  return cut;
}

}  // namespace kcycle::gui
