// The learner's kernel in an editor: ImGui's multiline text input, with line numbers in a
// gutter beside it, CUDA words and comments coloured as in the source panel, and each compile
// error at its line (the number red, the line tinted, the message on hover). The gutter and the
// colours are drawn over the input at the positions where it draws the text, so they follow
// its scrolling; ImGui keeps the input's own child window and scroll in its internals, which is
// why this file alone includes imgui_internal.h (without them the editor still works, plain).
#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/exercise/exercises.hpp"

namespace rlab::gui {

namespace {

// The child window ImGui opens for a multiline input with this id, inside the current window.
ImGuiWindow* inputWindow(ImGuiID id) {
  ImGuiWindow* parent = ImGui::GetCurrentWindow();
  for (ImGuiWindow* w : GImGui->Windows)
    if (w->ChildId == id && w->ParentWindow == parent) return w;
  return nullptr;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines(1);
  for (char c : text) {
    if (c == '\n')
      lines.emplace_back();
    else
      lines.back() += c;
  }
  return lines;
}

// Where the editor's input sits, and where it draws its text.
struct EditorFrame {
  ImVec2 start;               // the gutter's top left
  ImVec2 frameMin, frameMax;  // the input's frame
  ImVec2 origin;              // where the input draws its first line, less its scroll
  float lineHeight = 0;
  float scrollY = 0;
  ImGuiWindow* inner = nullptr;  // the input's own child window; none: the text stays plain
};

// The file's path, whether it is edited, and what to do when it changed on disk meanwhile.
void drawFileLine(App& app, const Palette& pal) {
  const ExerciseState& ex = app.ui.exercise;
  if (ex.dirty)
    ImGui::TextDisabled(tr("%s   (edited: saved before each run)"), ex.file.c_str());
  else
    ImGui::TextDisabled("%s", ex.file.c_str());
  if (ex.changedOnDisk) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.wrong), "%s",
                       tr("The file changed on disk while you edited it here."));
    ImGui::SameLine();
    if (ImGui::SmallButton(trId("Load the file"))) app.reloadExercise();
    ImGui::SameLine();
    if (ImGui::SmallButton(trId("Keep mine"))) app.saveExercise();
  }
}

// The input itself, right of the gutter, and where it draws its lines (scrolled to the line
// asked for, once).
EditorFrame drawKernelInput(UiState& ui, const Palette& pal) {
  ExerciseState& ex = ui.exercise;
  const ImGuiStyle& style = ImGui::GetStyle();
  EditorFrame f;
  f.lineHeight = ImGui::GetTextLineHeight();
  const float gutter = ImGui::CalcTextSize("0000").x + style.ItemSpacing.x;
  f.start = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  ImGui::SetCursorScreenPos(ImVec2(f.start.x + gutter, f.start.y));
  const ImGuiID id = ImGui::GetID("##kernel");
  if (ex.editorGeneration != ex.textGeneration) {  // reloaded: drop the input's own copy
    if (ImGui::GetActiveID() == id) ImGui::ClearActiveID();
    ex.editorGeneration = ex.textGeneration;
  }
  ImGui::PushStyleColor(ImGuiCol_FrameBg, ImGui::ColorConvertU32ToFloat4(pal.cell));
  if (ImGui::InputTextMultiline("##kernel", &ex.text,
                                ImVec2(std::max(50.f, avail.x - gutter), std::max(50.f, avail.y)),
                                ImGuiInputTextFlags_AllowTabInput))
    ex.dirty = true;
  ImGui::PopStyleColor();
  noteWidget(ui, "exercise:editor");
  f.frameMin = ImGui::GetItemRectMin();
  f.frameMax = ImGui::GetItemRectMax();

  // Where the input draws line k: its child window's top left, less its scroll.
  f.inner = inputWindow(id);
  const ImGuiInputTextState* state = ImGui::GetInputTextState(id);
  f.scrollY = f.inner ? f.inner->Scroll.y : 0;
  const float scrollX = state ? state->ScrollX : 0;
  f.origin = ImVec2(f.frameMin.x + style.FramePadding.x - scrollX,
                    f.frameMin.y + style.FramePadding.y - f.scrollY);
  if (f.inner && ex.scrollToLine > 0) {
    ImGui::SetScrollY(f.inner, std::max(0.f, (ex.scrollToLine - 1) * f.lineHeight -
                                                 (f.frameMax.y - f.frameMin.y) / 3));
    ex.scrollToLine = 0;
  }
  return f;
}

// The coloured pieces over the input's own (plain) text, glyph on glyph.
void drawCodeColours(ImDrawList* textList, const std::string& line, ImVec2 at, const Palette& pal) {
  for (const CodePiece& piece : codePieces(line)) {
    const ImU32 colour = codeColour(piece.kind, pal);
    if (!colour) continue;
    const float x = ImGui::CalcTextSize(line.c_str(), line.c_str() + piece.begin).x;
    textList->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(at.x + x, at.y), colour,
                      line.c_str() + piece.begin, line.c_str() + piece.end);
  }
}

// Over the visible lines: their numbers in the gutter, a noted line tinted, the code coloured.
// The note of the line under the mouse; none: null.
const std::string* drawLineMarks(const EditorFrame& f, const std::vector<std::string>& lines,
                                 const std::map<int, LineNote>& notes, const Palette& pal) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float lineHeight = f.lineHeight;
  const int first = std::max(0, int(std::floor(f.scrollY / lineHeight)));
  const int last =
      std::min(int(lines.size()) - 1, first + int((f.frameMax.y - f.frameMin.y) / lineHeight) + 1);
  ImDrawList* gutterList = ImGui::GetWindowDrawList();
  gutterList->PushClipRect(ImVec2(f.start.x, f.frameMin.y), ImVec2(f.frameMin.x, f.frameMax.y),
                           true);
  ImDrawList* textList = f.inner ? f.inner->DrawList : nullptr;
  if (textList)
    textList->PushClipRect(f.inner->InnerClipRect.Min, f.inner->InnerClipRect.Max, true);
  const std::string* hovered = nullptr;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (int k = first; k <= last; ++k) {
    const float y = f.origin.y + float(k) * lineHeight;
    const auto note = notes.find(k + 1);
    const ImU32 numberColour = note == notes.end()  ? pal.muted
                               : note->second.error ? pal.wrong
                                                    : pal.changed;
    const std::string number = std::to_string(k + 1);
    const float width = ImGui::CalcTextSize(number.c_str()).x;
    gutterList->AddText(ImVec2(f.frameMin.x - style.ItemSpacing.x - width, y), numberColour,
                        number.c_str());
    if (note != notes.end()) {
      if (mouse.y >= y && mouse.y < y + lineHeight && mouse.x >= f.start.x &&
          mouse.x < f.frameMax.x)
        hovered = &note->second.text;
      if (textList)
        textList->AddRectFilled(ImVec2(f.frameMin.x, y), ImVec2(f.frameMax.x, y + lineHeight),
                                (numberColour & 0x00ffffff) | 0x40000000);
    }
    if (!textList) continue;
    drawCodeColours(textList, lines[size_t(k)], ImVec2(f.origin.x, y), pal);
  }
  if (textList) textList->PopClipRect();
  gutterList->PopClipRect();
  return hovered;
}

}  // namespace

// Compile errors at their lines, and the lines a failed case names in the file ("thread 4 of
// block 0 read in[4] at k.cu:4", a barrier's "at k.cu:12"): where it crashed, hung or waited.
std::map<int, LineNote> notesByLine(const ExerciseState& ex) {
  std::map<int, LineNote> notes;
  if (!ex.report) return notes;
  for (const CompileDiagnostic& d : ex.report->diagnostics) {
    if (d.line <= 0) continue;
    LineNote& note = notes[d.line];
    note.text += (note.text.empty() ? "" : "\n") + d.severity + ": " + d.message;
    note.error = note.error || d.severity == "error";
  }
  const std::string named = ex.file.substr(ex.file.find_last_of('/') + 1) + ":";
  for (const Message& sentence : ex.report->failures) {
    const std::string failure = say(sentence);  // without its replay line
    for (size_t at = failure.find(named); at != std::string::npos;
         at = failure.find(named, at + 1)) {
      // The file's own name, not the end of a longer one; after a space or a bracket of any
      // language (Japanese and Chinese put the line in "（k.cu:12）").
      const char before = at > 0 ? failure[at - 1] : ' ';
      if (std::isalnum(static_cast<unsigned char>(before)) || before == '_' || before == '-' ||
          before == '.' || before == '/')
        continue;
      const int line = std::atoi(failure.c_str() + at + named.size());
      if (line <= 0) continue;
      LineNote& note = notes[line];
      if (note.text.find(failure) == std::string::npos)
        note.text += (note.text.empty() ? "" : "\n") + failure;
      note.error = true;
    }
  }
  return notes;
}

ImVec2 exerciseEditorSizeFor(const std::string& text) {
  ImFont* font = codeFont();
  if (font) ImGui::PushFont(font);
  const ImGuiStyle& style = ImGui::GetStyle();
  float longest = 0;
  int lines = 0;
  for (size_t start = 0; start <= text.size(); ++lines) {
    const size_t end = std::min(text.find('\n', start), text.size());
    longest = std::max(longest, ImGui::CalcTextSize(text.data() + start, text.data() + end).x);
    start = end + 1;
  }
  // The gutter, the input's frame and the window's padding and scroll bar around the text;
  // above it the title bar and the file's path; under the last line room for a few more.
  const float around = ImGui::CalcTextSize("0000").x + style.ItemSpacing.x +
                       style.FramePadding.x * 2 + style.WindowPadding.x * 2 + style.ScrollbarSize;
  const float codeHeight = ImGui::GetTextLineHeight() * float(lines + 3);
  if (font) ImGui::PopFont();
  const float above = ImGui::GetFrameHeight() + ImGui::GetTextLineHeightWithSpacing() +
                      style.WindowPadding.y * 2 + style.FramePadding.y * 2;
  return ImVec2(std::ceil(longest + around), std::ceil(codeHeight + above));
}

void drawExerciseEditor(App& app) {
  UiState& ui = app.ui;
  ExerciseState& ex = ui.exercise;
  const Palette& pal = palette(ui.view.presenter);
  if (!findExercise(ex.id)) return;

  drawFileLine(app, pal);

  ImFont* font = codeFont();
  if (font) ImGui::PushFont(font);
  const EditorFrame frame = drawKernelInput(ui, pal);

  const std::vector<std::string> lines = splitLines(ex.text);
  const std::map<int, LineNote> notes = notesByLine(ex);
  const std::string* hovered = drawLineMarks(frame, lines, notes, pal);
  if (font) ImGui::PopFont();
  if (hovered) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35.0f);
    ImGui::TextUnformatted(hovered->c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

}  // namespace rlab::gui
