// The window and OpenGL: GLFW, the glad-generated GL 3.3 core loader, ImGui's GLFW and
// OpenGL 3 backends. Everything else in the app is drawn through ImGui and knows none of this.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

struct GLFWwindow;

namespace rlab::gui {

// No display, no OpenGL 3.3: what() says so in one sentence.
class NoDisplay : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Platform {
 public:
  Platform(int width, int height, bool visible);
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  bool shouldClose() const;
  void beginFrame();  // events, backends, ImGui::NewFrame
  void endFrame();    // ImGui::Render, draw, swap
  // Renders the frame begun last into an offscreen framebuffer; returns RGBA, top row first.
  std::vector<unsigned char> endFrameOffscreen(int width, int height);

 private:
  GLFWwindow* window_ = nullptr;
};

// Loads the UI font (assets/fonts.txt lists where to look); false: ImGui's built-in font.
bool loadFont(const std::string& fontsList);
// Writes RGBA pixels, top row first, as a PNG.
bool writePng(const std::string& path, int width, int height,
              const std::vector<unsigned char>& rgba);

}  // namespace rlab::gui
