#include "app/gui/animation_file.hpp"

#include <gif_lib.h>
#include <stb/stb_image_write.h>
#include <webp/encode.h>
#include <webp/mux.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unordered_map>

namespace fs = std::filesystem;

namespace rlab::gui {

namespace {

int channel(uint32_t colour, int which) {
  return int(colour >> (16 - 8 * which)) & 0xff;
}

uint32_t distance(uint32_t a, uint32_t b) {
  uint32_t sum = 0;
  for (int c = 0; c < 3; ++c) {
    const int d = channel(a, c) - channel(b, c);
    sum += uint32_t(d * d);
  }
  return sum;
}

struct Counted {
  uint32_t colour;
  uint64_t count;
};

// Median cut of `colours` into at most `boxes` colours, each its box's mean weighted by count.
std::vector<uint32_t> medianCut(std::vector<Counted> colours, size_t boxes) {
  struct Box {
    size_t begin, end;
  };
  std::vector<Box> cut = {{0, colours.size()}};
  auto widest = [&colours](const Box& b, int& along) {
    int best = -1;
    for (int c = 0; c < 3; ++c) {
      int low = 255, high = 0;
      for (size_t i = b.begin; i < b.end; ++i) {
        low = std::min(low, channel(colours[i].colour, c));
        high = std::max(high, channel(colours[i].colour, c));
      }
      if (high - low > best) best = high - low, along = c;
    }
    return best;
  };
  while (cut.size() < boxes) {
    size_t chosen = cut.size();
    int chosenRange = 0, chosenAlong = 0;
    for (size_t k = 0; k < cut.size(); ++k) {
      int along = 0;
      if (cut[k].end - cut[k].begin < 2) continue;
      if (const int range = widest(cut[k], along); range > chosenRange)
        chosen = k, chosenRange = range, chosenAlong = along;
    }
    if (chosen == cut.size()) break;  // every box holds one colour
    Box& b = cut[chosen];
    std::sort(colours.begin() + long(b.begin), colours.begin() + long(b.end),
              [chosenAlong](const Counted& x, const Counted& y) {
                return channel(x.colour, chosenAlong) < channel(y.colour, chosenAlong) ||
                       (channel(x.colour, chosenAlong) == channel(y.colour, chosenAlong) &&
                        x.colour < y.colour);
              });
    uint64_t total = 0, seen = 0;
    for (size_t i = b.begin; i < b.end; ++i) total += colours[i].count;
    size_t middle = b.begin + 1;
    for (size_t i = b.begin; i + 1 < b.end; ++i) {
      seen += colours[i].count;
      middle = i + 1;
      if (seen * 2 >= total) break;
    }
    cut.push_back({middle, b.end});
    cut[chosen].end = middle;
  }
  std::vector<uint32_t> palette;
  for (const Box& b : cut) {
    double sum[3] = {0, 0, 0}, weight = 0;
    for (size_t i = b.begin; i < b.end; ++i) {
      for (int c = 0; c < 3; ++c)
        sum[c] += double(channel(colours[i].colour, c)) * colours[i].count;
      weight += double(colours[i].count);
    }
    uint32_t mean = 0;
    for (int c = 0; c < 3; ++c) mean = mean << 8 | uint32_t(std::lround(sum[c] / weight));
    palette.push_back(mean);
  }
  return palette;
}

}  // namespace

Quantized quantize(const std::vector<uint32_t>& rgb) {
  std::unordered_map<uint32_t, uint64_t> counts;
  for (uint32_t c : rgb) ++counts[c];
  std::vector<Counted> colours;
  colours.reserve(counts.size());
  for (const auto& [colour, count] : counts) colours.push_back({colour, count});
  // The most frequent first; ties by colour, so that the same frame always gets the same palette.
  std::sort(colours.begin(), colours.end(), [](const Counted& a, const Counted& b) {
    return a.count > b.count || (a.count == b.count && a.colour < b.colour);
  });
  Quantized q;
  constexpr size_t kExact = 128;
  if (colours.size() <= 256) {
    for (const Counted& c : colours) q.palette.push_back(c.colour);
  } else {
    for (size_t i = 0; i < kExact; ++i) q.palette.push_back(colours[i].colour);
    const std::vector<uint32_t> rest =
        medianCut({colours.begin() + kExact, colours.end()}, 256 - kExact);
    q.palette.insert(q.palette.end(), rest.begin(), rest.end());
  }
  std::unordered_map<uint32_t, uint8_t> nearest;
  for (const Counted& c : colours) {
    size_t best = 0;
    for (size_t k = 1; k < q.palette.size(); ++k)
      if (distance(c.colour, q.palette[k]) < distance(c.colour, q.palette[best])) best = k;
    nearest[c.colour] = uint8_t(best);
  }
  q.indices.reserve(rgb.size());
  for (uint32_t c : rgb) q.indices.push_back(nearest[c]);
  return q;
}

struct AnimationWriter::Encoder {
  // GIF: the file, and the last frame (each frame is the part that changed since it).
  GifFileType* gif = nullptr;
  std::vector<uint32_t> previous;
  // WebP: the encoder keeps the frames until it assembles the file.
  WebPAnimEncoder* webp = nullptr;
  WebPConfig config{};
  int milliseconds = 0;
  uint64_t pngBytes = 0;
};

namespace {

std::string partPath(const std::string& path) {
  return path + ".part";
}

[[noreturn]] void cannotWrite(const std::string& path, const std::string& why) {
  throw AnimationError("could not write " + path + ": " + why + ".");
}

std::string gifError(int code) {
  const char* text = GifErrorString(code);
  return text ? text : "giflib error " + std::to_string(code);
}

void openGif(GifFileType*& gif, const std::string& path, int width, int height) {
  // Opened here rather than by giflib, which would make the file readable by its owner only.
  const int file = open(partPath(path).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (file < 0) cannotWrite(path, std::strerror(errno));
  int error = 0;
  gif = EGifOpenFileHandle(file, &error);
  if (!gif) {
    close(file);
    cannotWrite(path, gifError(error));
  }
  EGifSetGifVersion(gif, true);
  if (EGifPutScreenDesc(gif, width, height, 8, 0, nullptr) == GIF_ERROR)
    cannotWrite(path, gifError(gif->Error));
  // NETSCAPE2.0, loop count 0: the animation repeats, as a slide's should.
  const unsigned char loop[3] = {1, 0, 0};
  if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_ERROR ||
      EGifPutExtensionBlock(gif, 3, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif) == GIF_ERROR)
    cannotWrite(path, gifError(gif->Error));
}

}  // namespace

AnimationWriter::AnimationWriter(const std::string& path, int width, int height)
    : format_(animationFormatFor(path)),
      path_(path),
      width_(width),
      height_(height),
      encoder_(std::make_unique<Encoder>()) {
  switch (format_) {
    case AnimationFormat::Gif:
      openGif(encoder_->gif, path_, width, height);
      break;
    case AnimationFormat::WebP: {
      WebPAnimEncoderOptions options;
      if (!WebPAnimEncoderOptionsInit(&options)) cannotWrite(path_, "libwebp's version differs");
      options.anim_params.loop_count = 0;
      options.allow_mixed = 0;  // lossless throughout: text stays sharp
      encoder_->webp = WebPAnimEncoderNew(width, height, &options);
      if (!encoder_->webp || !WebPConfigInit(&encoder_->config) ||
          !WebPConfigLosslessPreset(&encoder_->config, 3))
        cannotWrite(path_, "libwebp could not start an animation");
      std::ofstream probe(partPath(path_), std::ios::binary);  // a path we cannot write: say so now
      if (!probe) cannotWrite(path_, "it cannot be created");
      break;
    }
    case AnimationFormat::PngFolder: {
      std::error_code error;
      fs::create_directories(path_, error);
      if (error || !fs::is_directory(path_)) cannotWrite(path_, "the folder cannot be created");
      break;
    }
  }
}

AnimationWriter::~AnimationWriter() {
  // Not finished (an error, or the export was cancelled): no half-written file is left.
  if (encoder_->gif) {
    int error = 0;
    EGifCloseFile(encoder_->gif, &error);
  }
  if (encoder_->webp) WebPAnimEncoderDelete(encoder_->webp);
  if (format_ != AnimationFormat::PngFolder) {
    std::error_code ignored;
    fs::remove(partPath(path_), ignored);
  }
}

namespace {

// The smallest rectangle holding every pixel that differs from the last frame; a pixel at the
// origin where none does, so that each step is still a frame of its own.
std::array<int, 4> changedRegion(const std::vector<uint32_t>& now,
                                 const std::vector<uint32_t>& before, int width, int height) {
  if (before.empty()) return {0, 0, width, height};
  int left = width, top = height, right = -1, bottom = -1;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (now[size_t(y) * width + x] != before[size_t(y) * width + x]) {
        left = std::min(left, x), right = std::max(right, x);
        top = std::min(top, y), bottom = std::max(bottom, y);
      }
  if (right < 0) return {0, 0, 1, 1};
  return {left, top, right - left + 1, bottom - top + 1};
}

void addGifFrame(GifFileType* gif, const std::string& path, std::vector<uint32_t>& previous,
                 const std::vector<uint32_t>& rgb, int width, int height, double seconds) {
  const auto [left, top, w, h] = changedRegion(rgb, previous, width, height);
  std::vector<uint32_t> region;
  region.reserve(size_t(w) * h);
  for (int y = top; y < top + h; ++y)
    for (int x = left; x < left + w; ++x) region.push_back(rgb[size_t(y) * width + x]);
  const Quantized q = quantize(region);
  GraphicsControlBlock control{};
  control.DisposalMode = DISPOSE_DO_NOT;  // the next frame draws over this one
  control.DelayTime = std::max(2, int(std::lround(seconds * 100)));
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  const size_t length = EGifGCBToExtension(&control, extension);
  int mapSize = 2;
  while (mapSize < int(q.palette.size())) mapSize *= 2;
  std::vector<GifColorType> colours(size_t(mapSize), GifColorType{0, 0, 0});
  for (size_t k = 0; k < q.palette.size(); ++k)
    colours[k] = {GifByteType(q.palette[k] >> 16), GifByteType(q.palette[k] >> 8),
                  GifByteType(q.palette[k])};
  ColorMapObject* map = GifMakeMapObject(mapSize, colours.data());
  bool ok = map &&
            EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, int(length), extension) != GIF_ERROR &&
            EGifPutImageDesc(gif, left, top, w, h, false, map) != GIF_ERROR;
  std::vector<GifPixelType> row(static_cast<size_t>(w));
  for (int y = 0; ok && y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const uint8_t index = q.indices[size_t(y) * w + x];
      row[size_t(x)] = index;
    }
    ok = EGifPutLine(gif, row.data(), w) != GIF_ERROR;
  }
  GifFreeMapObject(map);
  if (!ok) cannotWrite(path, gifError(gif->Error));
  previous = rgb;
}

}  // namespace

void AnimationWriter::add(const std::vector<unsigned char>& rgba, double seconds) {
  const size_t pixels = size_t(width_) * height_;
  if (rgba.size() != pixels * 4)
    cannotWrite(path_, "a frame is not " + std::to_string(width_) + "x" + std::to_string(height_));
  Encoder& e = *encoder_;
  switch (format_) {
    case AnimationFormat::Gif: {
      std::vector<uint32_t> rgb(pixels);
      for (size_t i = 0; i < pixels; ++i)
        rgb[i] = uint32_t(rgba[i * 4]) << 16 | uint32_t(rgba[i * 4 + 1]) << 8 | rgba[i * 4 + 2];
      addGifFrame(e.gif, path_, e.previous, rgb, width_, height_, seconds);
      break;
    }
    case AnimationFormat::WebP: {
      WebPPicture picture;
      if (!WebPPictureInit(&picture)) cannotWrite(path_, "libwebp's version differs");
      picture.width = width_;
      picture.height = height_;
      picture.use_argb = 1;
      std::vector<unsigned char> opaque = rgba;
      for (size_t i = 0; i < pixels; ++i) opaque[i * 4 + 3] = 255;
      const bool ok = WebPPictureImportRGBA(&picture, opaque.data(), width_ * 4) &&
                      WebPAnimEncoderAdd(e.webp, &picture, e.milliseconds, &e.config);
      WebPPictureFree(&picture);
      if (!ok) cannotWrite(path_, WebPAnimEncoderGetError(e.webp));
      e.milliseconds += std::max(1, int(std::lround(seconds * 1000)));
      break;
    }
    case AnimationFormat::PngFolder: {
      char name[32];
      std::snprintf(name, sizeof name, "step-%03d.png", frames_);
      const std::string file = (fs::path(path_) / name).string();
      if (!stbi_write_png(file.c_str(), width_, height_, 4, rgba.data(), width_ * 4))
        cannotWrite(file, "the PNG could not be written");
      e.pngBytes += fs::file_size(file);
      break;
    }
  }
  ++frames_;
}

uint64_t AnimationWriter::finish() {
  Encoder& e = *encoder_;
  if (format_ == AnimationFormat::PngFolder) return e.pngBytes;
  if (format_ == AnimationFormat::Gif) {
    int error = 0;
    const int closed = EGifCloseFile(e.gif, &error);
    e.gif = nullptr;
    if (closed == GIF_ERROR) cannotWrite(path_, gifError(error));
  } else {
    WebPData data;
    WebPDataInit(&data);
    const bool ok = WebPAnimEncoderAdd(e.webp, nullptr, e.milliseconds, nullptr) &&
                    WebPAnimEncoderAssemble(e.webp, &data);
    if (!ok) cannotWrite(path_, WebPAnimEncoderGetError(e.webp));
    std::ofstream out(partPath(path_), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data.bytes), std::streamsize(data.size));
    WebPDataClear(&data);
    if (!out.flush()) cannotWrite(path_, "the disk refused it");
  }
  std::error_code error;
  fs::rename(partPath(path_), path_, error);
  if (error) cannotWrite(path_, error.message());
  return fs::file_size(path_);
}

}  // namespace rlab::gui
