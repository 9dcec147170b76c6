// The app's tabs in one table each: the views under the array and the code beside the controls,
// with the English name the tests and --view use, the label shown, and the panel that draws it.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "app/gui/ui_state.hpp"

namespace rlab::gui {

class App;

struct TabEntry {
  const char* name;        // English, for noteWidget ("tab:<name>") and the tests
  const char* view;        // reduction-lab --view of this tab, --code of a code tab
  const char* (*label)();  // shown: trId(name), in the UI's language
  void (*draw)(App&);      // the panel
};

const std::vector<std::pair<ViewTab, TabEntry>>& viewTabs();
const std::vector<std::pair<CodeTab, TabEntry>>& codeTabs();
// The view tab a --view value opens (race, witness, by-block and float-sums: the race explorer).
std::optional<ViewTab> viewTabFor(std::string_view view);

// The tab bars, each bringing its requested tab (ui.requestTab, ui.requestCodeTab) to the front.
void drawViewTabs(App& app);
void drawCodeTabs(App& app);

}  // namespace rlab::gui
