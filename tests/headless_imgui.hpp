// An ImGui context with no window and no renderer: the app's frames are built, not drawn.
#pragma once

#include <imgui.h>

struct HeadlessImGui {
  explicit HeadlessImGui(ImVec2 display = ImVec2(1280, 800)) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = display;
    unsigned char* pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
#if IMGUI_VERSION_NUM < 18700
    for (int k = 0; k < ImGuiKey_COUNT; ++k) io.KeyMap[k] = k;  // key k is io.KeysDown[k]
#endif
  }
  ~HeadlessImGui() {
    ImGui::DestroyContext();
  }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;
};
