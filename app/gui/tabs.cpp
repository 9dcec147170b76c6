#include "app/gui/tabs.hpp"

#include <imgui.h>

#include <string>

#include "app/gui/app.hpp"
#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"

namespace rlab::gui {

const std::vector<std::pair<ViewTab, TabEntry>>& viewTabs() {
  static const std::vector<std::pair<ViewTab, TabEntry>> tabs = {
      {ViewTab::LessonText,
       {"Lesson text", "text", [] { return trId("Lesson text"); }, drawTextPanel}},
      {ViewTab::LessonView,
       {"Lesson view", "lesson", [] { return trId("Lesson view"); }, drawLessonView}},
      {ViewTab::Timing,
       {"Timing chart", "timing", [] { return trId("Timing chart"); }, drawTimingPanel}},
      {ViewTab::Race,
       {"Race explorer", "race", [] { return trId("Race explorer"); }, drawRacePanel}},
      {ViewTab::Timeline,
       {"Timeline", "timeline", [] { return trId("Timeline"); }, drawTimelinePanel}},
      {ViewTab::KernelOutput,
       {"Kernel output", "output", [] { return trId("Kernel output"); }, drawKernelOutputPanel}},
      {ViewTab::Memory, {"Memory", "memory", [] { return trId("Memory"); }, drawMemoryPanel}},
      {ViewTab::Profile, {"Profile", "profile", [] { return trId("Profile"); }, drawProfilePanel}},
      {ViewTab::Scale, {"At scale", "scale", [] { return trId("At scale"); }, drawScalePanel}},
      {ViewTab::Quiz, {"Quiz", "quiz", [] { return trId("Quiz"); }, drawQuizPanel}},
  };
  return tabs;
}

const std::vector<std::pair<CodeTab, TabEntry>>& codeTabs() {
  static const std::vector<std::pair<CodeTab, TabEntry>> tabs = {
      {CodeTab::Kernel,
       {"Kernel source", "kernel", [] { return trId("Kernel source"); }, drawSourcePanel}},
      {CodeTab::Host, {"Host code", "host", [] { return trId("Host code"); }, drawHostCodePanel}},
  };
  return tabs;
}

std::optional<ViewTab> viewTabFor(std::string_view view) {
  if (view == "witness" || view == "by-block" || view == "float-sums") return ViewTab::Race;
  for (const auto& [tab, entry] : viewTabs())
    if (view == entry.view) return tab;
  return std::nullopt;
}

namespace {

// One tab bar over a table; `around` draws a tab's panel (inside a child window or not). Where
// the tabs do not fit, the bar scrolls (arrows at its end) instead of cutting every label short:
// "Lesson t…" and "Lesson…" could not be told apart on a laptop's screen.
template <class Tab>
void drawTabBar(App& app, const char* id, const std::vector<std::pair<Tab, TabEntry>>& tabs,
                std::optional<Tab>& request, void (*around)(App&, const TabEntry&)) {
  if (ImGui::BeginTabBar(id, ImGuiTabBarFlags_FittingPolicyScroll)) {
    for (const auto& [tab, entry] : tabs) {
      const ImGuiTabItemFlags flags = request == tab ? ImGuiTabItemFlags_SetSelected : 0;
      if (ImGui::BeginTabItem(entry.label(), nullptr, flags)) {
        around(app, entry);
        ImGui::EndTabItem();
      }
      noteWidget(app.ui, std::string("tab:") + entry.name);
    }
    ImGui::EndTabBar();
  }
  request.reset();
}

}  // namespace

void drawViewTabs(App& app) {
  drawTabBar(app, "views", viewTabs(), app.ui.requestTab,
             [](App& a, const TabEntry& entry) { entry.draw(a); });
}

void drawCodeTabs(App& app) {
  drawTabBar(app, "code", codeTabs(), app.ui.requestCodeTab, [](App& a, const TabEntry& entry) {
    ImGui::BeginChild(entry.name, ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    entry.draw(a);
    ImGui::EndChild();
  });
}

}  // namespace rlab::gui
