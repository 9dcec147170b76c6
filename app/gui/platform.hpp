// The window and OpenGL: GLFW, the glad-generated GL 3.3 core loader, ImGui's GLFW and
// OpenGL 3 backends. Everything else in the app is drawn through ImGui and knows none of this.
// Off-screen work (a screenshot, an exported animation) on a machine with no display gets an
// OpenGL context with no window at all, from EGL's surfaceless platform (Mesa's llvmpipe).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "lessons/engine/texts/texts.hpp"

struct GLFWwindow;

namespace rlab::gui {

// No display, no OpenGL 3.3: what() says so in one sentence.
class NoDisplay : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Platform {
 public:
  // A window, shown or hidden. Hidden where no display answers: no window, EGL's surfaceless
  // context, `width` x `height` as ImGui's display.
  Platform(int width, int height, bool visible);
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  bool shouldClose() const;
  void beginFrame();  // events, backends, ImGui::NewFrame
  void endFrame();    // ImGui::Render, draw, swap
  // Renders the frame begun last into an offscreen framebuffer; returns RGBA, top row first.
  std::vector<unsigned char> endFrameOffscreen(int width, int height);
  // After the font atlas changed (language, text size, presenter mode): upload it again.
  // Call between frames.
  void reloadFontTexture();
  // The monitor's content scale (2 on a typical 4K laptop screen), as GLFW reports it.
  float contentScale() const;
  void windowSize(int& width, int& height) const;
  // Who draws: "VENDOR, RENDERER, OpenGL VERSION" as the context reports them (llvmpipe is
  // Mesa's software renderer; a GPU's name means the window is drawn on it).
  std::string renderer() const;

 private:
  // No display: the surfaceless context (false where EGL has none either).
  bool openSurfaceless();
  GLFWwindow* window_ = nullptr;
  void* eglDisplay_ = nullptr;  // the surfaceless context's, where there is no window
  void* eglContext_ = nullptr;
  int width_ = 0, height_ = 0;
};

// Writes RGBA pixels, top row first, as a PNG.
bool writePng(const std::string& path, int width, int height,
              const std::vector<unsigned char>& rgba);

}  // namespace rlab::gui
