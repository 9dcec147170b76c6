// The stage's drawer: what the desk shows around the picture — the lessons, the controls, the
// result in full and the code — in tabs, over the stage's left side until M or Esc closes it.
#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/tabs.hpp"

namespace rlab::gui {

void drawDrawer(App& app) {
  struct Page {
    const char* name;        // English, for the tests ("drawer:<name>")
    const char* (*label)();  // shown, in the UI's language
    void (*draw)(App&);
  };
  static const Page pages[] = {{"Lessons", [] { return trId("Lessons"); }, drawLessonsPanel},
                               {"Controls", [] { return trId("Controls"); }, drawControlsPanel},
                               {"Result", [] { return trId("Result"); }, drawResultPanel},
                               {"Code", [] { return trId("Code"); }, drawCodeTabs}};
  if (!ImGui::BeginTabBar("drawer")) return;
  for (const Page& page : pages) {
    if (ImGui::BeginTabItem(page.label())) {
      ImGui::BeginChild(page.name);
      page.draw(app);
      ImGui::EndChild();
      ImGui::EndTabItem();
    }
    noteWidget(app.ui, std::string("drawer:") + page.name);
  }
  ImGui::EndTabBar();
}

}  // namespace rlab::gui
