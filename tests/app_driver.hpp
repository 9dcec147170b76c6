// Driving the app's frame code as a person would, in a headless ImGui (headless_imgui.hpp):
// frames with the mouse and a key, and clicks on widgets the panels named with noteWidget.
#pragma once

#include <doctest/doctest.h>
#include <imgui.h>

#include <string>

#include "app/gui/app.hpp"

namespace {

inline void frame(rlab::gui::App& app, ImVec2 mouse = ImVec2(-1, -1), bool down = false,
                  int key = -1) {
  ImGuiIO& io = ImGui::GetIO();
  io.DeltaTime = 1.0f / 60;
  io.MousePos = mouse;
  io.MouseDown[0] = down;
#if IMGUI_VERSION_NUM >= 18700
  static int held = -1;  // the new key API takes events: release last frame's key
  if (held >= 0) io.AddKeyEvent(ImGuiKey(held), false);
  if (key >= 0) io.AddKeyEvent(ImGuiKey(key), true);
  held = key;
#else
  for (bool& k : io.KeysDown) k = false;
  if (key >= 0) io.KeysDown[key] = true;
#endif
  ImGui::NewFrame();
  app.frame(io.DeltaTime);
  ImGui::Render();
}

// The app's jobs finished and their results on screen.
inline void settle(rlab::gui::App& app) {
  for (int k = 0; k < 3; ++k) {
    app.waitForWork();
    frame(app);
  }
}

inline void click(rlab::gui::App& app, const std::string& widget) {
  frame(app);
  const auto found = app.ui.widgetRects.find(widget);
  REQUIRE_MESSAGE(found != app.ui.widgetRects.end(), "no widget named " << widget);
  const ImVec4 r = found->second;
  const ImVec2 centre((r.x + r.z) / 2, (r.y + r.w) / 2);
  frame(app, centre, false);  // hover
  frame(app, centre, true);   // press
  frame(app, centre, false);  // release: a click
}

}  // namespace
