// How long the app takes to build a frame showing 4096 elements (the array view's bars, the
// pairs, every panel): the CPU side of a frame, ImGui draw lists included. 60 frames a second
// leaves 16.7 ms a frame. Prints figures; asserts nothing about time.
#include <imgui.h>

#include <chrono>
#include <cstdio>

#include "app/gui/app.hpp"
#include "tests/headless_imgui.hpp"

int main() {
  HeadlessImGui imgui(ImVec2(1920, 1080));
  ImGuiIO& io = ImGui::GetIO();
  for (const char* lesson : {"divergence", "butterfly", "shared"}) {
    rlab::gui::App app;
    app.ui.params.lesson = lesson;
    app.ui.params.variant.clear();
    app.ui.params.n = 4096;
    app.runNow(1);
    auto frame = [&] {
      io.DeltaTime = 1.0f / 60;
      ImGui::NewFrame();
      app.frame(io.DeltaTime);
      ImGui::Render();
    };
    for (int k = 0; k < 10; ++k) frame();  // layout settles
    const int frames = 200;
    size_t vertices = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < frames; ++k) {
      frame();
      vertices = size_t(ImGui::GetDrawData()->TotalVtxCount);
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count() /
        frames;
    std::printf(
        "app frame, %s with 4096 elements on screen: %.2f ms per frame on the CPU "
        "(%.0f frames/s before the GPU draws), %zu vertices\n",
        lesson, ms, 1000.0 / ms, vertices);
  }
  return 0;
}
