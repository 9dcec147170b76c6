// Colours and sizes, normal and presenter (projector: large, thick, high contrast).
#pragma once

#include <imgui.h>

#include <string>

#include "lessons/engine/texts/texts.hpp"

namespace rlab::gui {

struct Palette {
  ImU32 cell, cellBorder, text, changed, worked, pair, right, wrong, bar, muted, accent;
  ImU32 padding;  // a cell that holds no input (a thread past n)
  float line;     // line thickness
};

// The charts' lines: Okabe and Ito's colours, which stay apart for the common kinds of colour
// blindness (black left out on a dark background, blue lightened to be seen on it).
inline constexpr ImU32 kSeriesColours[] = {IM_COL32(230, 159, 0, 255),  IM_COL32(86, 180, 233, 255),
                                           IM_COL32(0, 158, 115, 255),  IM_COL32(240, 228, 66, 255),
                                           IM_COL32(60, 140, 230, 255), IM_COL32(213, 94, 0, 255),
                                           IM_COL32(204, 121, 167, 255)};

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
// The glyphs the atlas takes from the CJK font for `language`: Japanese and Chinese their
// common ranges (Chinese's full range makes a 64 MB atlas), every character of `text` (see
// glyphText) and the Latin ranges, whose punctuation the Latin font lacks in part; English only
// the characters of `text` (the language menu's 日本語 and 中文). Zero-terminated pairs.
extern const ImWchar kLatinGlyphRanges[];
void cjkGlyphRanges(Language language, const std::string& text, ImVector<ImWchar>& ranges);

// Builds the font atlas at `pixels`: the UI font (DejaVu Sans, with the punctuation, arrows
// and maths signs the texts use) and the code font (DejaVu Sans Mono), each with the CJK font
// merged in for Japanese or Chinese at the Latin font's em size, with the common ranges plus every
// character of `text`. assets/fonts.txt lists where to look. False: ImGui's built-in font only.
bool loadFonts(const std::string& fontsList, float pixels, Language language,
               const std::string& text);

// The monospace font for code (nullptr: the UI font).
void setCodeFont(ImFont* font);
ImFont* codeFont();

}  // namespace rlab::gui
