// An exported run as a file a slide deck, a course page or an LMS takes: an animated GIF
// (giflib), an animated WebP (libwebp's encoder, lossless) or a folder of numbered PNGs.
// Frames arrive one at a time and are written as they come (a GIF frame by frame, a PNG per
// frame), so a long run never holds every frame in memory as GIF or PNGs.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "lessons/engine/system/animation_export.hpp"

namespace rlab::gui {

// A file that could not be written: one sentence.
class AnimationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Up to 256 colours for a GIF frame: the colours that cover the most pixels exactly (the
// panels, cells and lines of the stage), the rest of the palette for what is left (the edges
// of anti-aliased text) by median cut. Exposed for the tests.
struct Quantized {
  std::vector<uint32_t> palette;  // 0xRRGGBB
  std::vector<uint8_t> indices;   // one per pixel of the region
};
Quantized quantize(const std::vector<uint32_t>& rgb);

class AnimationWriter {
 public:
  // Creates the file (or the folder); throws AnimationError where it cannot, ParamError for a
  // path that is none of the three (animationFormatFor).
  AnimationWriter(const std::string& path, int width, int height);
  ~AnimationWriter();
  AnimationWriter(const AnimationWriter&) = delete;
  AnimationWriter& operator=(const AnimationWriter&) = delete;

  // One frame: RGBA, top row first, width x height; shown for `seconds`.
  void add(const std::vector<unsigned char>& rgba, double seconds);
  // Writes what is left and closes the file; the bytes written (all PNGs together).
  uint64_t finish();

  AnimationFormat format() const { return format_; }

 private:
  struct Encoder;
  AnimationFormat format_;
  std::string path_;
  int width_, height_;
  int frames_ = 0;
  std::unique_ptr<Encoder> encoder_;
};

}  // namespace rlab::gui
