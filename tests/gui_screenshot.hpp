// Screenshots the app renders of itself under Xvfb (reduction-lab --screenshot), read back.
#pragma once

#include <doctest/doctest.h>
#include <stb/stb_image.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>

namespace {
inline bool noXvfb() {
  return std::system("command -v xvfb-run >/dev/null 2>&1") != 0;
}

// A PNG the app wrote: its size and how many colours every seventh pixel shows.
struct Picture {
  int width = 0, height = 0;
  size_t colours = 0;
};

inline Picture readPicture(const std::string& png) {
  Picture picture;
  int channels = 0;
  unsigned char* pixels = stbi_load(png.c_str(), &picture.width, &picture.height, &channels, 4);
  REQUIRE(pixels);
  std::set<unsigned> colours;
  for (int i = 0; i < picture.width * picture.height; i += 7) {
    unsigned c;
    std::memcpy(&c, pixels + size_t(i) * 4, 4);
    colours.insert(c);
  }
  stbi_image_free(pixels);
  picture.colours = colours.size();
  return picture;
}

// Renders `options` off-screen into `png` and counts its colours (every 7th pixel): a screen of
// text, cells and panels has many, a blank one a few.
inline size_t coloursOfScreenshot(const std::filesystem::path& png, const std::string& options,
                                  int width = 1000, int height = 700) {
  std::filesystem::remove(png);
  const std::string command = std::string("xvfb-run -a ") + RLAB_GUI_BINARY + " --screenshot " +
                              png.string() + " " + options;
  CAPTURE(command);
  REQUIRE(std::system(command.c_str()) == 0);
  const Picture picture = readPicture(png.string());
  CHECK(picture.width == width);
  CHECK(picture.height == height);
  return picture.colours;
}
}  // namespace
