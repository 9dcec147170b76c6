#include "app/gui/theme.hpp"

namespace rlab::gui {

const Palette& palette(bool presenter) {
  static const Palette normal = {IM_COL32(48, 52, 64, 255),
                                 IM_COL32(90, 96, 112, 255),
                                 IM_COL32(230, 230, 235, 255),
                                 IM_COL32(255, 200, 40, 255),
                                 IM_COL32(60, 190, 220, 255),
                                 IM_COL32(60, 190, 220, 150),
                                 IM_COL32(70, 200, 100, 255),
                                 IM_COL32(235, 70, 60, 255),
                                 IM_COL32(110, 140, 220, 255),
                                 IM_COL32(140, 140, 150, 255),
                                 IM_COL32(255, 160, 60, 255),
                                 IM_COL32(30, 32, 40, 255),
                                 1.5f};
  // A cell is dark grey, not the black of the window: an idle lane must still be seen.
  static const Palette projector = {IM_COL32(52, 52, 64, 255),
                                    IM_COL32(255, 255, 255, 255),
                                    IM_COL32(255, 255, 255, 255),
                                    IM_COL32(255, 230, 0, 255),
                                    IM_COL32(0, 230, 255, 255),
                                    IM_COL32(0, 230, 255, 220),
                                    IM_COL32(0, 255, 90, 255),
                                    IM_COL32(255, 40, 40, 255),
                                    IM_COL32(120, 170, 255, 255),
                                    IM_COL32(200, 200, 200, 255),
                                    IM_COL32(255, 170, 0, 255),
                                    IM_COL32(24, 24, 30, 255),
                                    3.0f};
  return presenter ? projector : normal;
}

namespace {
float g_fontPixels = 13;
bool g_builtInFont = true;
float g_contentScale = 1, g_textScale = 1;
ImFont* g_codeFont = nullptr;
}  // namespace

void setFontPixels(float pixels, bool builtIn) {
  g_fontPixels = pixels;
  g_builtInFont = builtIn;
}

void setDisplayScale(float contentScale, float textScale) {
  g_contentScale = contentScale;
  g_textScale = textScale;
}

float textPixels(bool presenter) {
  return (g_builtInFont ? 13.f : 16.f) * uiScale(presenter) * g_contentScale * g_textScale;
}

// Latin with the punctuation, arrows, maths and box signs the texts and labels use.
const ImWchar kLatinGlyphRanges[] = {0x0020, 0x024F, 0x0370, 0x03FF, 0x2000, 0x206F, 0x2190,
                                     0x21FF, 0x2200, 0x22FF, 0x2500, 0x25FF, 0};

void cjkGlyphRanges(Language language, const std::string& text, ImVector<ImWchar>& ranges) {
  ImFontGlyphRangesBuilder builder;
  ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  if (language != Language::En)
    builder.AddRanges(language == Language::Zh ? atlas.GetGlyphRangesChineseSimplifiedCommon()
                                               : atlas.GetGlyphRangesJapanese());
  builder.AddRanges(kLatinGlyphRanges);
  builder.AddText(text.c_str());
  ranges.clear();
  builder.BuildRanges(&ranges);
}

void setCodeFont(ImFont* font) {
  g_codeFont = font;
}

ImFont* codeFont() {
  return g_codeFont;
}

float uiScale(bool presenter) {
  return presenter ? 1.6f : 1.0f;
}

void applyStyle(bool presenter) {
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 4;
  style.FrameRounding = 3;
  style.WindowBorderSize = 1;
  if (presenter) {
    ImVec4* c = style.Colors;
    c[ImGuiCol_WindowBg] = ImVec4(0, 0, 0, 1);
    c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 1);
    c[ImGuiCol_Text] = ImVec4(1, 1, 1, 1);
    c[ImGuiCol_Border] = ImVec4(1, 1, 1, 0.6f);
    c[ImGuiCol_FrameBg] = ImVec4(0.15f, 0.15f, 0.2f, 1);
    c[ImGuiCol_Button] = ImVec4(0.1f, 0.3f, 0.7f, 1);
    c[ImGuiCol_TitleBgActive] = ImVec4(0.1f, 0.3f, 0.7f, 1);
    style.FrameBorderSize = 1;
  }
  style.ScaleAllSizes(uiScale(presenter) * g_contentScale * g_textScale);
  ImGui::GetStyle() = style;
  // Exactly 1 once the atlas was rebuilt at this size; until then the old atlas, scaled.
  ImGui::GetIO().FontGlobalScale = textPixels(presenter) / g_fontPixels;
}

}  // namespace rlab::gui
