// Colours and sizes, normal and presenter (projector: large, thick, high contrast).
#pragma once

#include <imgui.h>

namespace rlab::gui {

struct Palette {
  ImU32 cell, cellBorder, text, changed, worked, pair, right, wrong, bar, muted, accent;
  float line;  // line thickness
};

const Palette& palette(bool presenter);
void applyStyle(bool presenter);
// The pixel size the font atlas was rasterised at (ImGui's built-in font: 13).
void setFontPixels(float pixels);
float uiScale(bool presenter);
// A monospaced font for code (the editor), or nullptr: the UI font then.
void setCodeFont(ImFont* font);
ImFont* codeFont();

}  // namespace rlab::gui
