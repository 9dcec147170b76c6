// The kernel that ran: kernels/<id>.cuh as embedded at build time, CUDA words coloured, the
// lines that combine values in this step highlighted, the switchable barrier marked on/off. With
// a race witness in the player, its two lines stand out: the read that came too early and the
// barrier that would have made it wait; so does a racecheck hazard's line the learner clicked.
#include <sstream>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/texts/kernel_body.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

namespace {

// The lines of the kernel file that stand out, by number (0: none).
struct MarkedLines {
  int witnessRead = 0, witnessBarrier = 0;  // the witness's read and the barrier it needed
  int hazard = 0;                           // a racecheck hazard's line
};

MarkedLines markedLines(const App& app, const LessonInfo& lesson) {
  const UiState& ui = app.ui;
  MarkedLines m;
  // The witness's lines, when its run is the one on screen.
  if (app.witnessOnScreen() && ui.race.witness->combineLine.file == lesson.kernelFile) {
    m.witnessRead = ui.race.witness->combineLine.line;
    m.witnessBarrier = ui.race.witness->barrierLine.line;
  }
  // A racecheck hazard's line, clicked in the race explorer (the sanitizer names the file
  // "barrier.cuh", the lesson "kernels/barrier.cuh").
  const std::string& marked = ui.markedSourceFile;
  const bool markedHere = !marked.empty() && lesson.kernelFile.size() >= marked.size() &&
                          lesson.kernelFile.compare(lesson.kernelFile.size() - marked.size(),
                                                    marked.size(), marked) == 0;
  m.hazard = markedHere ? ui.markedSourceLine : 0;
  return m;
}

// What every line of the source is drawn against.
struct SourceView {
  const VariantInfo& variant;
  const Params& params;
  MarkedLines marks;
  bool showStep = false;  // a step in the player: the lines that combine values highlighted
  const Palette& pal;
};

// One line of the kernel: its background (a combine, the barrier on or off, a marked line), its
// text, and what it is marked with.
void drawSourceLine(const SourceView& view, const std::string& line, int number, bool inFunction) {
  const MarkedLines& m = view.marks;
  const Palette& pal = view.pal;
  const bool highlight = inFunction && view.showStep &&
                         (line.find("Op::apply(") != std::string::npos ||
                          line.find("atomicCombine") != std::string::npos);
  // The switchable barrier, or the last warp's __syncwarp (on only where the variant has it).
  const bool syncwarpLine = line.find("switchableSyncwarp(syncwarpOn)") != std::string::npos;
  const bool barrierLine =
      syncwarpLine || line.find("switchableBarrier(barrierOn)") != std::string::npos;
  const bool on =
      syncwarpLine ? view.variant.syncwarpSwitch && view.params.syncwarp : view.params.barrier;
  const bool witnessLine =
      number == m.witnessRead || number == m.witnessBarrier || number == m.hazard;
  if (highlight || barrierLine || witnessLine) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImU32 back = witnessLine   ? pal.wrong
                       : barrierLine ? (on ? pal.right : pal.wrong)
                                     : pal.worked;
    const ImVec2 end(at.x + ImGui::GetContentRegionAvail().x, at.y + ImGui::GetTextLineHeight());
    ImGui::GetWindowDrawList()->AddRectFilled(
        at, end, (back & 0x00ffffff) | (witnessLine ? 0x90000000 : 0x50000000));
    if (witnessLine) ImGui::GetWindowDrawList()->AddRect(at, end, pal.wrong, 0, 0, pal.line);
  }
  // The recorder's calls are how the app sees the kernel work, not part of the reduction:
  // greyed, so the kernel reads as a learner would write it.
  if (line.find("trace.") != std::string::npos) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.muted), "%s", line.c_str());
    return;
  }
  drawCodeLine(line, pal);
  if (number == m.witnessRead) {
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.wrong), "  <- %s", tr("read too early"));
  }
  if (number == m.hazard) {
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.wrong), "%s", tr("<- racecheck hazard"));
  }
  if (barrierLine) {
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(on ? pal.right : pal.wrong), "%s%s",
                       on ? tr("<- ON") : tr("<- OFF"),
                       number == m.witnessBarrier ? tr(": the read needed it") : "");
  }
}

}  // namespace

void drawSourcePanel(App& app) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  const LessonInfo* lesson = findLesson(ui.params.lesson);
  if (!lesson) return;
  const std::string* source = embeddedFile(lesson->kernelFile);
  const VariantInfo* variant = lesson->findVariant(ui.params.variant);
  if (!variant) variant = &lesson->variants.front();
  if (!source) {
    ImGui::TextDisabled(tr("%s is not embedded in this build."), lesson->kernelFile.c_str());
    return;
  }
  ImGui::TextDisabled(tr("%s — the file that ran"), lesson->kernelFile.c_str());
  const std::string& function = !ui.params.loadAdd && !variant->noLoadAddKernelFunction.empty()
                                    ? variant->noLoadAddKernelFunction
                                    : variant->kernelFunction;
  const SourceView view{*variant, ui.params, markedLines(app, *lesson), ui.trace && ui.step > 0,
                        pal};
  const int witnessRead = view.marks.witnessRead, hazardLine = view.marks.hazard;
  const std::string scrollTarget = hazardLine    ? "hazard:" + std::to_string(hazardLine)
                                   : witnessRead ? function + ":" + std::to_string(witnessRead)
                                                 : function;
  std::istringstream lines(*source);
  KernelBody kernel(function);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const bool inFunction = kernel.take(line);
    if (kernel.entered()) {
      if (ui.sourceScrolledTo != scrollTarget && !witnessRead && !hazardLine) {
        ImGui::SetScrollHereY(0.1f);  // to the kernel when another is chosen
        ui.sourceScrolledTo = scrollTarget;
      }
    }
    if ((number == witnessRead || number == hazardLine) && ui.sourceScrolledTo != scrollTarget) {
      ImGui::SetScrollHereY(0.3f);  // to the witness's read, or to a clicked hazard's line
      ui.sourceScrolledTo = scrollTarget;
    }
    drawSourceLine(view, line, number, inFunction);
  }
}

}  // namespace rlab::gui
