// What the app remembers across restarts: the lesson and every control, presenter mode, text
// size, language and window size, in $XDG_CONFIG_HOME/reduction-lab/settings.json (or
// ~/.config/...). A damaged or foreign file is ignored with one sentence, never a crash.
#pragma once

#include <optional>
#include <string>

#include "app/gui/ui_state.hpp"

namespace rlab::gui {

struct Settings {
  Params params;
  bool presenter = false;
  float textScale = 1;
  Language language = Language::En;
  int width = 1280, height = 800;
};

// Where the settings live; empty where neither XDG_CONFIG_HOME nor HOME is set.
std::string settingsPath();

// The settings in `path`, or nullopt: no file (nothing said), or one that cannot be used
// (`problem` gets one sentence naming the file and what was wrong with it).
std::optional<Settings> loadSettings(const std::string& path, std::string& problem);
// Writes them (creating the folder); false with `problem` set when it cannot.
bool saveSettings(const std::string& path, const Settings& settings, std::string& problem);

// The n that --values gives: all of them, or allreduce's share of each GPU (0 where they do not
// split evenly, so that the run says so).
int64_t valuesPerRank(const Params& params);

Settings settingsOf(const UiState& ui, int width, int height);
void applySettings(const Settings& settings, UiState& ui);

}  // namespace rlab::gui
