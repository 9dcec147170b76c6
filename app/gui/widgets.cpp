// Helpers every panel uses.
#include <algorithm>
#include <cctype>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/texts/texts.hpp"

namespace rlab::gui {

void helpMarker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    wrappedText(text, false, ImGui::GetFontSize() * 30.0f);
    ImGui::EndTooltip();
  }
}

void noteWidget(UiState& ui, const std::string& name) {
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  ui.widgetRects[name] = ImVec4(min.x, min.y, max.x, max.y);
}

void wrappedText(const std::string& text, bool disabled, float wrapWidth) {
  if (disabled)
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  const float width = std::max(wrapWidth > 0 ? wrapWidth : ImGui::GetContentRegionAvail().x,
                               ImGui::GetFontSize() * 4);
  const char* s = text.c_str();
  size_t begin = 0, end = 0;  // the line so far
  for (const text::Word& word : text::words(text)) {
    if (word.newline) {
      ImGui::TextUnformatted(s + begin, s + end);
      begin = end = word.end;
    } else if (end > begin && ImGui::CalcTextSize(s + begin, s + word.end).x > width) {
      ImGui::TextUnformatted(s + begin, s + end);
      begin = word.begin;  // the spaces before it stay at the break
      end = word.end;
    } else {
      if (end == begin) begin = word.begin;
      end = word.end;
    }
  }
  ImGui::TextUnformatted(s + begin, s + end);
  if (disabled) ImGui::PopStyleColor();
}

void wrappedText(const std::string& text, ImU32 colour) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
  wrappedText(text);
  ImGui::PopStyleColor();
}

std::string runSetup(const Params& p, bool withN) {
  std::string setup = p.lesson + " " + p.variant;
  if (withN) setup += ", n = " + std::to_string(p.n);
  setup += std::string(", ") + (p.barrier ? tr("barrier on") : tr("barrier off"));
  if (!p.syncwarp) setup += std::string(", ") + tr("__syncwarp off");
  if (p.perturb) setup += std::string(", ") + tr("perturbed");
  if (p.printing) setup += std::string(", ") + tr("printing");
  return setup;
}

namespace {

bool isCudaWord(const std::string& w) {
  static const char* words[] = {
      "__global__",       "__device__",         "__host__",        "__shared__",
      "__syncthreads",    "__syncwarp",         "__shfl_sync",     "__shfl_xor_sync",
      "__shfl_down_sync", "__shfl_up_sync",     "__threadfence",   "__nanosleep",
      "atomicAdd",        "atomicCAS",          "atomicMax",       "atomicMin",
      "atomicExch",       "threadIdx",          "blockIdx",        "blockDim",
      "gridDim",          "warpSize",           "__forceinline__", "switchableBarrier",
      "atomicCombine",    "switchableSyncwarp", "__ballot_sync",   "__any_sync",
      "__all_sync"};
  for (const char* word : words)
    if (w == word) return true;
  return false;
}

bool wordChar(char c) {
  return std::isalnum((unsigned char)c) || c == '_';
}

}  // namespace

std::vector<CodePiece> codePieces(const std::string& line) {
  std::vector<CodePiece> pieces;
  const size_t comment = std::min(line.find("//"), line.size());
  for (size_t i = 0; i < comment;) {
    size_t j = i;
    const bool word = wordChar(line[i]);
    while (j < comment && wordChar(line[j]) == word) ++j;
    const bool cuda = word && isCudaWord(line.substr(i, j - i));
    const CodePiece::Kind kind = cuda ? CodePiece::Cuda : CodePiece::Plain;
    if (!pieces.empty() && pieces.back().kind == kind)
      pieces.back().end = j;
    else
      pieces.push_back({i, j, kind});
    i = j;
  }
  if (comment < line.size()) pieces.push_back({comment, line.size(), CodePiece::Comment});
  return pieces;
}

ImU32 codeColour(CodePiece::Kind kind, const Palette& pal) {
  switch (kind) {
    case CodePiece::Cuda:
      return pal.accent;
    case CodePiece::Comment:
      return pal.muted;
    case CodePiece::Plain:
      break;
  }
  return 0;
}

void drawCodeLine(const std::string& line, const Palette& pal) {
  bool first = true;
  for (const CodePiece& piece : codePieces(line)) {
    if (!first) ImGui::SameLine(0, 0);
    first = false;
    const std::string text = line.substr(piece.begin, piece.end - piece.begin);
    if (const ImU32 colour = codeColour(piece.kind, pal))
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colour), "%s", text.c_str());
    else
      ImGui::TextUnformatted(text.c_str());
  }
  if (first) ImGui::TextUnformatted("");
}

}  // namespace rlab::gui
