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
// The pixel size the font atlas was rasterised at; builtIn: ImGui's own 13-pixel font.
void setFontPixels(float pixels, bool builtIn);
// The monitor's content scale and the learner's own text size (Ctrl+= / Ctrl+-).
void setDisplayScale(float contentScale, float textScale);
// The pixel size text should have: 16 (the built-in font: 13), larger in presenter mode, on a
// HiDPI monitor and at a larger text size. Fonts are rasterised at this size to stay sharp.
float textPixels(bool presenter);
float uiScale(bool presenter);
// The monospace font for code (nullptr: the UI font).
void setCodeFont(ImFont* font);
ImFont* codeFont();

}  // namespace rlab::gui
