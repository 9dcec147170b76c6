// The kernel that ran: kernels/<id>.cuh as embedded at build time, CUDA words coloured, the
// lines that combine values in this step highlighted, the switchable barrier marked on/off.
#include <sstream>

#include "app/gui/panels.hpp"
#include "app/gui/theme.hpp"
#include "lessons/embedded.hpp"
#include "lessons/registry.hpp"

namespace rlab::gui {

void drawSourcePanel(App& app) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  const LessonInfo* lesson = findLesson(ui.params.lesson);
  if (!lesson) return;
  const std::string* source = embeddedFile(lesson->kernelFile);
  const VariantInfo* variant = lesson->findVariant(ui.params.variant);
  if (!variant) variant = &lesson->variants.front();
  if (!source) {
    ImGui::TextDisabled("%s is not embedded in this build.", lesson->kernelFile.c_str());
    return;
  }
  ImGui::TextDisabled("%s — the file that ran", lesson->kernelFile.c_str());
  const std::string& function = variant->kernelFunction;
  const bool showStep = ui.trace && ui.step > 0;
  std::istringstream lines(*source);
  bool inFunction = false;
  int depth = 0;
  for (std::string line; std::getline(lines, line);) {
    if (!inFunction && line.find(" " + function + "(") != std::string::npos &&
        line.find("__global__") != std::string::npos) {
      inFunction = true;
      if (ui.sourceScrolledTo != function) {  // scroll to the kernel when another is chosen
        ImGui::SetScrollHereY(0.1f);
        ui.sourceScrolledTo = function;
      }
    }
    bool highlight = false;
    if (inFunction) {
      highlight = showStep && (line.find("Op::apply(") != std::string::npos ||
                               line.find("atomicCombine") != std::string::npos);
      for (char c : line) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      if (depth == 0 && line.find('}') != std::string::npos) inFunction = false;
    }
    const bool barrierLine = line.find("switchableBarrier(barrierOn)") != std::string::npos;
    if (highlight || barrierLine) {
      const ImVec2 at = ImGui::GetCursorScreenPos();
      const ImU32 back = barrierLine ? (ui.params.barrier ? pal.right : pal.wrong) : pal.worked;
      ImGui::GetWindowDrawList()->AddRectFilled(
          at, ImVec2(at.x + ImGui::GetContentRegionAvail().x, at.y + ImGui::GetTextLineHeight()),
          (back & 0x00ffffff) | 0x50000000);
    }
    // The recorder's calls are how the app sees the kernel work, not part of the reduction:
    // greyed, so the kernel reads as a learner would write it.
    if (line.find("trace.") != std::string::npos) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.muted), "%s", line.c_str());
      continue;
    }
    drawCodeLine(line, pal);
    if (barrierLine) {
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ui.params.barrier ? pal.right : pal.wrong),
                         ui.params.barrier ? "  <- ON" : "  <- OFF");
    }
  }
}

}  // namespace rlab::gui
