// What the kernel printed (printf) in the run on screen: how many lines and where they came
// from, then every line, numbered, in a scrolling list that draws only the lines in view.
#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

void drawKernelOutputPanel(App& app) {
  UiState& ui = app.ui;
  if (!ui.trace) {
    ImGui::TextDisabled("%s", tr("No run yet."));
    return;
  }
  const Trace& t = *ui.trace;
  if (!t.params.printing && t.kernelOutput.empty()) {
    wrappedText(tr("This run printed nothing. In the barrier lesson, tick \"printf\" in the "
                   "controls: every third thread then prints at each level."),
                true);
    return;
  }
  const size_t count = t.kernelOutput.size();
  wrappedText(t.backend == BackendChoice::Gpu
                  ? printed(tr("The kernel printed %zu lines on the GPU, in the order the GPU's "
                               "printf buffer returned them."),
                            count)
                  : printed(tr("The kernel printed %zu lines on the simulator, in the order its "
                               "schedule ran the threads."),
                            count));
  noteWidget(ui, "kernel output count");
  ImGui::Separator();
  ImGui::BeginChild("##kernel output", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const int digits = int(std::to_string(count).size());
  ImGuiListClipper clipper;
  clipper.Begin(int(count));
  while (clipper.Step())
    for (int k = clipper.DisplayStart; k < clipper.DisplayEnd; ++k) {
      ImGui::TextDisabled("%*d", digits, k + 1);
      ImGui::SameLine();
      ImGui::TextUnformatted(t.kernelOutput[size_t(k)].c_str());
      noteWidget(ui, "kernel output line " + std::to_string(k));
    }
  ImGui::EndChild();
}

}  // namespace rlab::gui
