// The stage's view under the array: the lesson's own picture unless the teacher chose another
// (V, or the bar's View list). A view asked for elsewhere (the printf box asks for the kernel's
// output, a witness for the race explorer) comes up here as it would as the desk's tab.
#include "app/gui/panels.hpp"
#include "app/gui/tabs.hpp"

namespace rlab::gui {

void drawStageView(App& app) {
  UiState& ui = app.ui;
  if (ui.requestTab) ui.view.stageView = *ui.requestTab;
  ui.requestTab.reset();
  for (const auto& [tab, entry] : viewTabs())
    if (tab == ui.view.stageView) entry.draw(app);
}

}  // namespace rlab::gui
