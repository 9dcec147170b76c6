// The stage's bar: the drawer's button, the player, the lesson on screen, and the buttons a
// teacher presses in front of a room (each with its key): the barrier, Run, a race witness, and
// the view under the array. Items flow left to right and wrap, so nothing is cut at 1024 pixels.
#include <algorithm>
#include <functional>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/tabs.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/texts/texts.hpp"

namespace rlab::gui {

namespace {

struct BarItem {
  std::string label;        // shown (a button's, with its ImGui id after ##)
  std::string widget = {};  // noteWidget name; empty: plain text
  std::function<void()> press = {};
  ImU32 colour = 0;  // a button's colour (0: the style's)
  bool gap = false;  // a wider gap before it: a new group
};

// The lesson on screen: its number and title in the chosen language, and its variant.
void appendLessonTitle(const UiState& ui, std::vector<BarItem>& items) {
  const std::vector<LessonInfo>& all = lessons();
  for (size_t k = 0; k < all.size(); ++k)
    if (all[k].id == ui.params.lesson) {
      std::string title = std::to_string(k + 1) + ". " + text::lessonTitle(all[k].id, ui.language);
      if (all[k].variants.size() > 1 && ui.trace) title += " · " + ui.trace->params.variant;
      items.push_back({title, "", {}, 0, true});
    }
}

float itemWidth(const BarItem& item) {
  const std::string shown = item.label.substr(0, item.label.find("##"));
  const float text = ImGui::CalcTextSize(shown.c_str()).x;
  return item.widget.empty() ? text : text + ImGui::GetStyle().FramePadding.x * 2;
}

// A film's frame: the step, the lesson and the barrier's state, as words (nothing to press).
std::vector<BarItem> filmItems(App& app) {
  UiState& ui = app.ui;
  std::vector<BarItem> items;
  const int count = app.stepCount();
  if (count > 0) items.push_back({printed(tr("step %d of %d"), ui.step, count - 1)});
  // A learner's own kernel: its exercise's title, in the language its text has.
  if (const Exercise* e =
          ui.trace && !ui.trace->exercise.empty() ? findExercise(ui.trace->exercise) : nullptr)
    items.push_back({exerciseText(*e, ui.language).title, "", {}, 0, true});
  else
    appendLessonTitle(ui, items);
  if (const VariantInfo* variant = variantOf(ui.params); variant && variant->barrierSwitch) {
    const Palette& pal = palette(ui.view.presenter);
    items.push_back({ui.params.barrier ? tr("barrier on") : tr("barrier off"),
                     "",
                     {},
                     ui.params.barrier ? pal.right : pal.wrong,
                     true});
  }
  return items;
}

std::vector<BarItem> barItems(App& app) {
  UiState& ui = app.ui;
  if (ui.view.film) return filmItems(app);
  std::vector<BarItem> items;
  items.push_back({printed(ui.view.drawerOpen ? tr("Close (M)") : tr("≡ Menu (M)")) + "###drawer",
                   "drawer", [&ui] { ui.view.drawerOpen = !ui.view.drawerOpen; }});
  const int count = app.stepCount();
  items.push_back({"|<", "first", [&app] { app.stepTo(0); }, 0, true});
  items.push_back({"<", "back", [&app, &ui] { app.stepTo(ui.step - 1); }});
  items.push_back(
      {std::string(ui.playing ? tr("Pause") : tr("Play")) + "###play", "play", [&app, &ui, count] {
         if (!ui.playing && ui.step + 1 >= count) app.stepTo(0);
         ui.playing = !ui.playing;
       }});
  items.push_back({">", "forward", [&app, &ui] { app.stepTo(ui.step + 1); }});
  items.push_back({">|", "last", [&app, count] { app.stepTo(count - 1); }});
  items.push_back({count > 0 ? printed(tr("step %d of %d"), ui.step, count - 1)
                             : std::string(tr("no steps recorded")),
                   ""});
  appendLessonTitle(ui, items);

  const VariantInfo* variant = variantOf(ui.params);
  const Palette& pal = palette(ui.view.presenter);
  bool first = true;
  if (variant && variant->barrierSwitch) {
    items.push_back({std::string(ui.params.barrier ? tr("Barrier ON (B)") : tr("Barrier OFF (B)")) +
                         "###barrier",
                     "barrier",
                     [&ui] {
                       ui.params.barrier = !ui.params.barrier;
                       ui.rerunWanted = true;
                     },
                     ui.params.barrier ? pal.right : pal.wrong, first});
    first = false;
  }
  items.push_back({std::string(app.runBusy() ? tr("Running...") : tr("Run (R)")) + "###run", "run",
                   [&app] { app.requestRun(); }, 0, first});
  if (variant && variant->barrierSwitch)
    items.push_back({tr("Find a witness (W)"), "witness", [&app] { app.startWitness(); }});
  // The view under the array: a list to pick from; V steps through them.
  for (const auto& [tab, entry] : viewTabs())
    if (tab == ui.view.stageView)
      items.push_back({printed(tr("View: %s (V)"), entry.label()) + "###stage view", "view",
                       [] { ImGui::OpenPopup("stage views"); }, 0, true});
  return items;
}

// Lays the items out in rows of `width`, drawing them when `draw`; the number of rows.
int flow(App& app, const std::vector<BarItem>& items, float width, bool draw) {
  const ImGuiStyle& style = ImGui::GetStyle();
  float x = 0;
  int rows = 1;
  for (const BarItem& item : items) {
    const float w = itemWidth(item);
    const float gap = item.gap ? style.ItemSpacing.x * 4 : style.ItemSpacing.x;
    const bool sameRow = x > 0 && x + gap + w <= width;
    if (x > 0 && !sameRow) ++rows;
    x = sameRow ? x + gap + w : w;
    if (!draw) continue;
    if (sameRow) ImGui::SameLine(0, gap);
    if (item.widget.empty()) {
      ImGui::AlignTextToFramePadding();
      if (item.colour)
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(item.colour), "%s", item.label.c_str());
      else
        ImGui::TextUnformatted(item.label.c_str());
      noteLabel(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), item.label);
      continue;
    }
    if (item.colour) {
      ImVec4 c = ImGui::ColorConvertU32ToFloat4(item.colour);
      ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(c.x * 0.45f, c.y * 0.45f, c.z * 0.45f, 1));
      ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(c.x * 0.6f, c.y * 0.6f, c.z * 0.6f, 1));
    }
    if (ImGui::Button(item.label.c_str()) && item.press) item.press();
    if (item.colour) ImGui::PopStyleColor(2);
    noteWidget(app.ui, item.widget);
  }
  return rows;
}

}  // namespace

float stageBarHeight(App& app, float width) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const int rows = flow(app, barItems(app), width - style.WindowPadding.x * 2, false);
  return std::floor(rows * ImGui::GetFrameHeightWithSpacing() - style.ItemSpacing.y +
                    style.WindowPadding.y * 2);
}

void drawStageBar(App& app) {
  flow(app, barItems(app), ImGui::GetContentRegionAvail().x, true);
  if (!ImGui::BeginPopup("stage views")) return;
  const std::vector<ViewTab> views = app.stageViews();
  for (const auto& [tab, entry] : viewTabs()) {
    if (std::find(views.begin(), views.end(), tab) == views.end()) continue;
    if (ImGui::Selectable(entry.label(), app.ui.view.stageView == tab)) {
      app.ui.view.stageView = tab;
      app.ui.requestTab = tab;
    }
    noteWidget(app.ui, std::string("view:") + entry.name);
  }
  ImGui::EndPopup();
}

}  // namespace rlab::gui
