#include "app/gui/platform.hpp"
#include "app/gui/theme.hpp"

// glad first: it provides the GL declarations GLFW would otherwise pull in.
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <stb/stb_image_write.h>

#ifdef RLAB_HAVE_EGL
#include <EGL/egl.h>
#include <EGL/eglext.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace rlab::gui {

Platform::Platform(int width, int height, bool visible) : width_(width), height_(height) {
  glfwSetErrorCallback([](int, const char*) {});
  const bool display = glfwInit();
  if (!display && !visible && openSurfaceless()) return;
  if (!display)
    throw NoDisplay("reduction-lab needs a display and none was found" +
                    std::string(std::getenv("DISPLAY") ? "" : " (DISPLAY is not set)") +
                    "; in a terminal, `rlab tour` shows every lesson.");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  // The window's class names the desktop entry (StartupWMClass), so the menu's icon is its.
  glfwWindowHintString(GLFW_X11_CLASS_NAME, "reduction-lab");
  glfwWindowHintString(GLFW_X11_INSTANCE_NAME, "reduction-lab");
  window_ = glfwCreateWindow(width, height, "Reduction Lab", nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw NoDisplay(
        "reduction-lab could not open an OpenGL 3.3 window on this display; in a "
        "terminal, `rlab tour` shows every lesson.");
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(1);
  if (!gladLoadGL(glfwGetProcAddress)) {
    glfwDestroyWindow(window_);
    glfwTerminate();
    throw NoDisplay("reduction-lab could not load OpenGL 3.3 functions on this display.");
  }
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

bool Platform::openSurfaceless() {
#ifdef RLAB_HAVE_EGL
  const auto platformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!platformDisplay) return false;
  EGLDisplay display = platformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) return false;
  // No window surface exists here: a pbuffer's is the kind of config the platform has.
  const EGLint configAsked[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                EGL_OPENGL_BIT, EGL_NONE};
  const EGLint contextAsked[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                 EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                 EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  EGLContext context = EGL_NO_CONTEXT;
  // Where no config answers, a context without one (EGL_KHR_no_config_context) still draws
  // into framebuffer objects, which is all off-screen work needs.
  if (eglBindAPI(EGL_OPENGL_API) && eglChooseConfig(display, configAsked, &config, 1, &configs))
    context = eglCreateContext(display, configs == 1 ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT,
                               contextAsked);
  if (context == EGL_NO_CONTEXT ||
      !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) ||
      !gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
    if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
    eglTerminate(display);
    return false;
  }
  eglDisplay_ = display;
  eglContext_ = context;
  ImGui_ImplOpenGL3_Init("#version 330 core");
  return true;
#else
  return false;
#endif
}

Platform::~Platform() {
  ImGui_ImplOpenGL3_Shutdown();
  if (window_) {
    ImGui_ImplGlfw_Shutdown();
    glfwDestroyWindow(window_);
  }
  glfwTerminate();
#ifdef RLAB_HAVE_EGL
  if (eglContext_) {
    eglMakeCurrent(eglDisplay_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(eglDisplay_, eglContext_);
    eglTerminate(eglDisplay_);
  }
#endif
}

bool Platform::shouldClose() const {
  return !window_ || glfwWindowShouldClose(window_);
}

std::string Platform::renderer() const {
  auto text = [](GLenum name) {
    const GLubyte* value = glGetString(name);
    return value ? std::string(reinterpret_cast<const char*>(value)) : std::string("?");
  };
  return text(GL_VENDOR) + ", " + text(GL_RENDERER) + ", OpenGL " + text(GL_VERSION);
}

void Platform::beginFrame() {
  ImGui_ImplOpenGL3_NewFrame();
  if (window_) {
    glfwPollEvents();
    ImGui_ImplGlfw_NewFrame();
  } else {  // no window: the display is the size asked for, a frame a sixtieth of a second
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(width_), float(height_));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    io.DeltaTime = 1.f / 60;
  }
  ImGui::NewFrame();
}

void Platform::endFrame() {
  ImGui::Render();
  int w, h;
  glfwGetFramebufferSize(window_, &w, &h);
  glViewport(0, 0, w, h);
  glClearColor(0.08f, 0.08f, 0.1f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glfwSwapBuffers(window_);
}

std::vector<unsigned char> Platform::endFrameOffscreen(int width, int height) {
  ImGui::Render();
  GLuint framebuffer, colour;
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glGenTextures(1, &colour);
  glBindTexture(GL_TEXTURE_2D, colour);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour, 0);
  glViewport(0, 0, width, height);
  glClearColor(0.08f, 0.08f, 0.1f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  std::vector<unsigned char> pixels(size_t(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteTextures(1, &colour);
  glDeleteFramebuffers(1, &framebuffer);
  // GL's rows run bottom-up; PNG's top-down.
  std::vector<unsigned char> flipped(pixels.size());
  const size_t row = size_t(width) * 4;
  for (int y = 0; y < height; ++y)
    std::copy_n(&pixels[size_t(height - 1 - y) * row], row, &flipped[size_t(y) * row]);
  return flipped;
}

void Platform::reloadFontTexture() {
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void Platform::windowSize(int& width, int& height) const {
  width = width_;
  height = height_;
  if (window_) glfwGetWindowSize(window_, &width, &height);
}

float Platform::contentScale() const {
  float x = 1, y = 1;
  if (window_) glfwGetWindowContentScale(window_, &x, &y);
  return std::clamp(std::max(x, y), 1.0f, 4.0f);
}

bool writePng(const std::string& path, int width, int height,
              const std::vector<unsigned char>& rgba) {
  return stbi_write_png(path.c_str(), width, height, 4, rgba.data(), width * 4) != 0;
}

}  // namespace rlab::gui
