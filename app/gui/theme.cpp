#include "app/gui/theme.hpp"

#include <fstream>
#include <map>
#include <sstream>

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

namespace {

// The face (fonts.txt) a language's Chinese characters are drawn in; English shows a few (the
// languages' own names in the menu) in the Japanese one. No default: a language added later
// must choose its own.
const char* cjkFace(Language language) {
  switch (language) {
    case Language::En:
    case Language::Ja:
      return "cjk-ja";
    case Language::Zh:
      return "cjk-zh";
  }
  return "cjk-ja";
}

}  // namespace

void cjkGlyphRanges(Language language, const std::string& text, ImVector<ImWchar>& ranges) {
  ImFontGlyphRangesBuilder builder;
  ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  switch (language) {  // no default: a language added later must say which characters it needs
    case Language::En:
      break;
    case Language::Ja:
      builder.AddRanges(atlas.GetGlyphRangesJapanese());
      break;
    case Language::Zh:
      builder.AddRanges(atlas.GetGlyphRangesChineseSimplifiedCommon());
      break;
  }
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

// ---- Fonts ----------------------------------------------------------------------------------

namespace {

struct FontFile {
  std::string path;
  int face = 0;
};

// assets/fonts.txt: "ROLE PATH [FACE]" lines; the first file of each role that exists wins.
std::map<std::string, FontFile> fontFiles(const std::string& fontsList) {
  std::map<std::string, FontFile> files;
  std::ifstream list(fontsList);
  for (std::string line; std::getline(list, line);) {
    std::istringstream fields(line);
    std::string role;
    FontFile file;
    if (!(fields >> role >> file.path) || role[0] == '#' || files.count(role)) continue;
    fields >> file.face;
    if (std::ifstream(file.path)) files[role] = file;
  }
  return files;
}

// A font file's line height (hhea ascent minus descent) in ems, as stb_truetype sizes a font:
// ImGui makes a font of N pixels N pixels from ascent to descent, so two fonts of the same
// pixel size have ems of different sizes. 0 where the file cannot be read.
float lineHeightInEms(const FontFile& file) {
  std::ifstream in(file.path, std::ios::binary);
  auto read = [&](std::streamoff at, int bytes) -> long {
    unsigned char b[4] = {};
    in.seekg(at);
    if (!in.read(reinterpret_cast<char*>(b), bytes)) return -1;
    long v = 0;
    for (int k = 0; k < bytes; ++k) v = v << 8 | b[k];
    return v;
  };
  long font = 0;  // a collection (.ttc) lists its faces' offsets after "ttcf"
  if (read(0, 4) == 0x74746366) font = read(12 + 4 * std::streamoff(file.face), 4);
  const long tables = read(font + 4, 2);
  long head = -1, hhea = -1;
  for (long k = 0; k < tables && font >= 0; ++k) {
    const long tag = read(font + 12 + 16 * k, 4), at = read(font + 12 + 16 * k + 8, 4);
    if (tag == 0x68656164) head = at;  // "head"
    if (tag == 0x68686561) hhea = at;  // "hhea"
  }
  if (head < 0 || hhea < 0) return 0;
  const long unitsPerEm = read(head + 18, 2);
  const auto signed16 = [](long v) { return v >= 0x8000 ? v - 0x10000 : v; };
  const long ascent = signed16(read(hhea + 4, 2)), descent = signed16(read(hhea + 6, 2));
  if (unitsPerEm <= 0 || ascent - descent <= 0) return 0;
  return float(ascent - descent) / float(unitsPerEm);
}

}  // namespace

bool loadFonts(const std::string& fontsList, float pixels, Language language,
               const std::string& text) {
  ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  atlas.Clear();
  setCodeFont(nullptr);
  const auto files = fontFiles(fontsList);
  const auto ui = files.find("ui");
  if (ui == files.end()) {
    atlas.AddFontDefault();
    return false;
  }
  const ImWchar* latin = kLatinGlyphRanges;
  static ImVector<ImWchar> cjkRanges;  // must outlive the atlas build
  cjkRanges.clear();
  const auto cjk = files.find(cjkFace(language));
  const bool wantsCjk = cjk != files.end();
  if (wantsCjk) cjkGlyphRanges(language, text, cjkRanges);
  // The CJK face at the Latin face's em, not its pixel height: Noto Sans CJK's line is 1.448 em
  // to DejaVu's 1.164, so at the same pixels its characters came out a fifth smaller than the
  // Latin text beside them. Both are placed on the same baseline.
  auto addWithCjk = [&](const FontFile& file) -> ImFont* {
    ImFont* font = atlas.AddFontFromFileTTF(file.path.c_str(), pixels, nullptr, latin);
    if (font && wantsCjk) {
      const float latinLine = lineHeightInEms(file), cjkLine = lineHeightInEms(cjk->second);
      ImFontConfig merge;
      merge.MergeMode = true;
      merge.FontNo = cjk->second.face;
      const float cjkPixels = latinLine > 0 && cjkLine > 0 ? pixels * cjkLine / latinLine : pixels;
      atlas.AddFontFromFileTTF(cjk->second.path.c_str(), cjkPixels, &merge, cjkRanges.Data);
    }
    return font;
  };
  if (!addWithCjk(ui->second)) {
    atlas.Clear();
    atlas.AddFontDefault();
    return false;
  }
  const auto mono = files.find("mono");
  if (mono != files.end()) setCodeFont(addWithCjk(mono->second));
  atlas.Build();
  return true;
}

}  // namespace rlab::gui
