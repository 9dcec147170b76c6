// Exported animations, decoded again: one frame per step of the run, the size asked for, and
// frame k what the stage draws for step k (the app's --film screenshot of that step): exactly for
// the WebP and the PNGs, within the palette's rounding for the GIF.
#include <doctest/doctest.h>
#include <gif_lib.h>
#include <stb/stb_image.h>
#include <webp/demux.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "app/gui/animation_file.hpp"
#include "app/gui/app.hpp"
#include "tests/app_driver.hpp"
#include "tests/gui_screenshot.hpp"
#include "tests/headless_imgui.hpp"
#include "tests/temp_folder.hpp"

namespace {

using Pixels = std::vector<unsigned char>;  // RGBA, top row first

struct Decoded {
  int width = 0, height = 0;
  std::vector<Pixels> frames;
  std::vector<int> milliseconds;  // how long each frame stays
};

// Every frame as a viewer shows it: each GIF frame drawn over the last (they are the parts that
// changed, kept in place).
Decoded decodeGif(const std::string& path) {
  int error = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
  REQUIRE(gif);
  REQUIRE(DGifSlurp(gif) == GIF_OK);
  Decoded d{gif->SWidth, gif->SHeight, {}, {}};
  Pixels canvas(size_t(d.width) * d.height * 4, 0);
  for (int k = 0; k < gif->ImageCount; ++k) {
    const SavedImage& image = gif->SavedImages[k];
    const GifImageDesc& desc = image.ImageDesc;
    const ColorMapObject* map = desc.ColorMap ? desc.ColorMap : gif->SColorMap;
    REQUIRE(map);
    for (int y = 0; y < desc.Height; ++y)
      for (int x = 0; x < desc.Width; ++x) {
        const GifColorType c = map->Colors[image.RasterBits[size_t(y) * desc.Width + x]];
        unsigned char* p = &canvas[(size_t(desc.Top + y) * d.width + desc.Left + x) * 4];
        p[0] = c.Red, p[1] = c.Green, p[2] = c.Blue, p[3] = 255;
      }
    GraphicsControlBlock control;
    REQUIRE(DGifSavedExtensionToGCB(gif, k, &control) == GIF_OK);
    d.frames.push_back(canvas);
    d.milliseconds.push_back(control.DelayTime * 10);
  }
  DGifCloseFile(gif, &error);
  return d;
}

Decoded decodeWebP(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  WebPData data = {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()};
  WebPAnimDecoderOptions options;
  REQUIRE(WebPAnimDecoderOptionsInit(&options));
  options.color_mode = MODE_RGBA;
  WebPAnimDecoder* decoder = WebPAnimDecoderNew(&data, &options);
  REQUIRE(decoder);
  WebPAnimInfo info;
  REQUIRE(WebPAnimDecoderGetInfo(decoder, &info));
  Decoded d{int(info.canvas_width), int(info.canvas_height), {}, {}};
  int last = 0;
  while (WebPAnimDecoderHasMoreFrames(decoder)) {
    uint8_t* rgba = nullptr;
    int timestamp = 0;
    REQUIRE(WebPAnimDecoderGetNext(decoder, &rgba, &timestamp));
    d.frames.emplace_back(rgba, rgba + size_t(d.width) * d.height * 4);
    d.milliseconds.push_back(timestamp - last);  // a frame's timestamp is when it ends
    last = timestamp;
  }
  WebPAnimDecoderDelete(decoder);
  return d;
}

Pixels readPng(const std::string& path, int& width, int& height) {
  int channels = 0;
  unsigned char* pixels = stbi_load(path.c_str(), &width, &height, &channels, 4);
  REQUIRE(pixels);
  Pixels out(pixels, pixels + size_t(width) * height * 4);
  stbi_image_free(pixels);
  return out;
}

// The share of pixels that are exactly alike, and the mean difference of a channel.
struct Likeness {
  double same = 0, meanDifference = 0;
};

Likeness compare(const Pixels& a, const Pixels& b) {
  REQUIRE(a.size() == b.size());
  size_t same = 0;
  double difference = 0;
  for (size_t i = 0; i < a.size(); i += 4) {
    bool alike = true;
    for (int c = 0; c < 3; ++c) {
      difference += std::abs(int(a[i + c]) - int(b[i + c]));
      alike = alike && a[i + c] == b[i + c];
    }
    same += alike;
  }
  const double pixels = double(a.size() / 4);
  return {double(same) / pixels, difference / (pixels * 3)};
}

int run(const std::string& command) {
  CAPTURE(command);
  return std::system(command.c_str());
}

}  // namespace

TEST_CASE("export: GIF, WebP and PNGs of the barrier race in ja at 1280x800, frame k = step k" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("export");
  // Thread 4 late: the sum comes out short, and the last frame says so.
  const std::string lesson = "barrier --no-barrier --schedule stall:4:2:1";
  const std::string cli = std::string(RLAB_CLI_BINARY) + " ";
  REQUIRE(run(cli + "run " + lesson + " --format json > " + (dir / "run.json").string()) == 0);
  std::ifstream runJson(dir / "run.json");
  const nlohmann::json trace = nlohmann::json::parse(runJson);
  const size_t steps = trace["steps"].size();
  REQUIRE(steps == 4);  // the input and three levels
  CHECK_FALSE(trace["correct"].get<bool>());

  for (const char* file : {"race.gif", "race.webp", "frames"})
    REQUIRE(run("xvfb-run -a " + cli + "export " + lesson + " --lang ja --to " +
                (dir / file).string() + " > /dev/null") == 0);
  const Decoded gif = decodeGif((dir / "race.gif").string());
  const Decoded webp = decodeWebP((dir / "race.webp").string());
  for (const Decoded* d : {&gif, &webp}) {
    CHECK(d->width == 1280);
    CHECK(d->height == 800);
    REQUIRE(d->frames.size() == steps);
    // The last frame carries the verdict: it stays longer than the one before it.
    CHECK(d->milliseconds.back() > d->milliseconds[steps - 2]);
    for (int ms : d->milliseconds) CHECK(ms >= 1200);
  }
  for (size_t k = 0; k < steps; ++k) {
    CAPTURE(k);
    const auto shot = dir / ("step-" + std::to_string(k) + ".png");
    REQUIRE(run("xvfb-run -a " + std::string(RLAB_GUI_BINARY) + " --screenshot " + shot.string() +
                " --film --lang ja --size 1280x800 --lesson " + lesson + " --step " +
                std::to_string(k)) == 0);
    int width = 0, height = 0, frameWidth = 0, frameHeight = 0;
    const Pixels stage = readPng(shot.string(), width, height);
    char name[32];
    std::snprintf(name, sizeof name, "step-%03zu.png", k);
    const Pixels png = readPng((dir / "frames" / name).string(), frameWidth, frameHeight);
    CHECK(frameWidth == width);
    CHECK(compare(png, stage).same == 1.0);
    CHECK(compare(webp.frames[k], stage).same == 1.0);
    const Likeness g = compare(gif.frames[k], stage);
    CAPTURE(g.same);
    CAPTURE(g.meanDifference);
    // Panels, cells and lines exact; the edges of letters (Japanese has many) rounded to the
    // nearest of the palette: a few levels of 255 on average.
    CHECK(g.same > 0.9);
    CHECK(g.meanDifference < 0.5);
  }
  CHECK_FALSE(std::filesystem::exists(dir / "frames" / "step-004.png"));
}

TEST_CASE("export: with no display at all, the app draws off-screen (EGL) the same frames" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("export-headless");
  const std::string lesson = "folding --n 9";
  REQUIRE(run("env -u DISPLAY -u WAYLAND_DISPLAY " + std::string(RLAB_CLI_BINARY) + " export " +
              lesson + " --to " + (dir / "headless").string() + " --size 800x600 > /dev/null") ==
          0);
  REQUIRE(run("xvfb-run -a " + std::string(RLAB_CLI_BINARY) + " export " + lesson + " --to " +
              (dir / "window").string() + " --size 800x600 > /dev/null") == 0);
  for (const char* name : {"step-000.png", "step-002.png"}) {
    int w1 = 0, h1 = 0, w2 = 0, h2 = 0;
    const Pixels a = readPng((dir / "headless" / name).string(), w1, h1);
    const Pixels b = readPng((dir / "window" / name).string(), w2, h2);
    CHECK(w1 == 800);
    CHECK(h1 == 600);
    CHECK(compare(a, b).same == 1.0);
  }
}

TEST_CASE("export: a path that is no animation, a size or a run refused, in one sentence" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("export-refused");
  const std::string cli = std::string(RLAB_CLI_BINARY) + " export ";
  const std::string err = " 2> " + (dir / "err.txt").string();
  auto oneLine = [&dir] {
    std::ifstream in(dir / "err.txt");
    std::string line, more;
    std::getline(in, line);
    CHECK_FALSE(std::getline(in, more));
    return line;
  };
  CHECK(WEXITSTATUS(run(cli + "barrier --to " + (dir / "x.png").string() + err)) == 2);
  CHECK(oneLine().find(".gif or .webp") != std::string::npos);
  CHECK(WEXITSTATUS(run(cli + "barrier --to x.gif --size 100x100" + err)) == 2);
  CHECK(oneLine().find("320x240") != std::string::npos);
  CHECK(WEXITSTATUS(run(cli + "barrier --to x.gif --seconds-per-step 0" + err)) == 2);
  CHECK(oneLine().find("0.2 to 10") != std::string::npos);
  CHECK(WEXITSTATUS(run(cli + "'try:lesson=barrier&n=5000' --to x.gif" + err)) == 2);
  CHECK(oneLine().find("--n 5000") != std::string::npos);
  // A file that cannot be written: said, and nothing half-written is left. (No display: the app
  // draws off-screen through EGL, and nothing but its own sentence reaches stderr.)
  CHECK(WEXITSTATUS(run("env -u DISPLAY " + cli + "barrier --to " +
                        (dir / "missing" / "x.gif").string() + err)) == 1);
  CHECK(oneLine().find("could not write") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "missing" / "x.gif.part"));
}

TEST_CASE("export: a GIF frame's palette keeps the most common colours exact") {
  // Two flat panels and a ramp of 2000 colours between them, as anti-aliased text has.
  std::vector<uint32_t> rgb;
  for (int i = 0; i < 20000; ++i) rgb.push_back(0x141419);
  for (int i = 0; i < 10000; ++i) rgb.push_back(0xffe600);
  std::mt19937 random(7);
  for (int i = 0; i < 2000; ++i) rgb.push_back(random() & 0xffffff);
  const rlab::gui::Quantized q = rlab::gui::quantize(rgb);
  REQUIRE(q.palette.size() == 256);
  REQUIRE(q.indices.size() == rgb.size());
  CHECK(q.palette[q.indices[0]] == 0x141419);
  CHECK(q.palette[q.indices[20000]] == 0xffe600);
  // A frame of few colours keeps every one.
  const std::vector<uint32_t> few = {1, 2, 3, 0xffffff, 2};
  const rlab::gui::Quantized exact = rlab::gui::quantize(few);
  for (size_t i = 0; i < few.size(); ++i) CHECK(exact.palette[exact.indices[i]] == few[i]);
}

TEST_CASE("export: File > Export animation writes the run on screen, and Cancel leaves no file") {
  const TempFolder dir("export-app");
  HeadlessImGui imgui;
  rlab::gui::App app;
  app.ui.params.schedule = "stall:4:2:1";
  app.ui.params.barrier = false;
  settle(app);
  REQUIRE(app.ui.trace);
  REQUIRE_FALSE(app.ui.trace->correct);
  rlab::gui::ExportDialog& d = app.ui.exportDialog;
  d.wanted = true;
  frame(app);  // the dialog opens, offering a file in the home folder
  CHECK(std::string(d.path.data()).find("reduction-lab-barrier.gif") != std::string::npos);

  const std::string webp = (dir / "race.webp").string();
  std::snprintf(d.path.data(), d.path.size(), "%s", webp.c_str());
  app.startExport();
  CHECK(app.longWorkBusy());
  settle(app);
  CAPTURE(d.said);
  CHECK_FALSE(d.failed);
  CHECK(d.said.find("4 frames of 1280x800") != std::string::npos);
  const Decoded written = decodeWebP(webp);
  CHECK(written.frames.size() == 4);
  CHECK(app.ui.trace->params.barrier == false);  // the run on screen is as it was

  // A path that is no animation: said in the dialog, nothing started.
  std::snprintf(d.path.data(), d.path.size(), "%s", (dir / "race.bmp").string().c_str());
  app.startExport();
  CHECK_FALSE(app.longWorkBusy());
  CHECK(d.failed);
  CHECK(d.said.find(".gif or .webp") != std::string::npos);

  // Cancelled while it draws: no file, not even a part of one.
  const std::string gif = (dir / "cancelled.gif").string();
  std::snprintf(d.path.data(), d.path.size(), "%s", gif.c_str());
  app.startExport();
  app.cancelLongWork();
  settle(app);
  CHECK(d.said == "Cancelled.");
  CHECK_FALSE(std::filesystem::exists(gif));
  CHECK_FALSE(std::filesystem::exists(gif + ".part"));
}

TEST_CASE("export: a learner's kernel as a film, its race on the last frame, no marks written" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("export-learner");
  const std::string cli = std::string(RLAB_CLI_BINARY);
  // The solution with its barriers taken out: it races.
  const std::string kernel = (dir / "racing.cu").string();
  REQUIRE(run(cli + " exercise solution tree-in-shared | sed 's/__syncthreads();//' > " + kernel) ==
          0);
  const std::string home = "env XDG_DATA_HOME=" + (dir / "data").string() + " ";
  // A wrong kernel's run exits non-zero; its JSON is what counts.
  run(home + cli + " exercise run tree-in-shared " + kernel + " --n 40 --format json > " +
      (dir / "run.json").string());
  std::ifstream runJson(dir / "run.json");
  const nlohmann::json report = nlohmann::json::parse(runJson);
  const size_t steps = report["run"]["steps"].size();
  REQUIRE(steps >= 2);
  std::filesystem::remove_all(dir / "data");
  REQUIRE(run("xvfb-run -a " + home + cli + " export tree-in-shared --kernel " + kernel +
              " --n 40 --to " + (dir / "film").string() + " > /dev/null") == 0);
  for (size_t k = 0; k < steps; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "step-%03zu.png", k);
    CHECK(std::filesystem::exists(dir / "film" / name));
  }
  CHECK_FALSE(std::filesystem::exists(dir / "film" / ("step-00" + std::to_string(steps) + ".png")));
  // Neither the learner's files nor their progress were touched by the export.
  CHECK_FALSE(std::filesystem::exists(dir / "data"));
}

TEST_CASE("export: a step with no sentence keeps the strip's place but draws no empty box" *
          doctest::skip(noXvfb())) {
  // The coarsened tree of 10 elements: step 2 (each thread's own element) has no sentence; the
  // last step has the verdict. The frames keep one layout; the bottom strip of step 2 is the
  // window's background alone, with no border or text.
  const TempFolder dir("export-strip");
  REQUIRE(run("env -u DISPLAY -u WAYLAND_DISPLAY " + std::string(RLAB_CLI_BINARY) +
              " export shared --variant coarsened --n 10 --to " + (dir / "frames").string() +
              " --size 1280x800 > /dev/null") == 0);
  auto bottomColours = [&](const char* name) {
    int width = 0, height = 0;
    const Pixels p = readPng((dir / "frames" / name).string(), width, height);
    std::set<uint32_t> colours;
    for (int y = height - 40; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        const size_t i = (size_t(y) * width + x) * 4;
        colours.insert(uint32_t(p[i]) << 16 | uint32_t(p[i + 1]) << 8 | p[i + 2]);
      }
    return colours.size();
  };
  CHECK(bottomColours("step-002.png") == 1);
  CHECK(bottomColours("step-006.png") > 1);  // the verdict
}
