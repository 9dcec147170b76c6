// The app's own screenshots of every lesson and view: of the asked size, and not blank.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "tests/gui_screenshot.hpp"
#include "tests/temp_folder.hpp"

TEST_CASE("gui: a screenshot of every lesson at a middle step, of the asked size, not blank" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("screenshots");
  for (const char* lesson : {"atomic", "folding", "barrier", "divergence", "shared", "lastwarp",
                             "butterfly", "fastest"}) {
    for (const char* presenter : {"", " --presenter"}) {
      const auto png = dir / (std::string(lesson) + (*presenter ? "-presenter" : "") + ".png");
      CHECK(coloursOfScreenshot(
                png, std::string("--lesson ") + lesson + " --size 1000x700" + presenter) > 40);
    }
  }
}

TEST_CASE("gui: screenshots of the allreduce lesson for 2, 4 and 8 GPUs, not blank" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("screenshots");
  for (const char* gpus : {"2", "4", "8"})
    for (const char* n : {"8", "3000"})
      for (const char* presenter : {"", " --presenter"}) {
        const auto png = dir / (std::string("allreduce-") + gpus + "-" + n +
                                (*presenter ? "-presenter" : "") + ".png");
        CHECK(coloursOfScreenshot(png,
                                  std::string("--lesson allreduce --variant ring --gpus ") + gpus +
                                      " --n " + n + " --size 1280x800" + presenter,
                                  1280, 800) > 40);
      }
  // A number of GPUs the lesson does not take is refused in one sentence, before any window.
  const std::string refused = std::string("xvfb-run -a ") + RLAB_GUI_BINARY + " --screenshot " +
                              (dir / "refused.png").string() +
                              " --lesson allreduce --gpus 3 2>/dev/null";
  CHECK(std::system(refused.c_str()) != 0);
}

TEST_CASE("gui: --gl-info names who draws the window and the OpenGL version" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("gl-info");
  const auto out = dir / "gl-info.txt";
  const std::string command =
      std::string("xvfb-run -a ") + RLAB_GUI_BINARY + " --gl-info > " + out.string();
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream in(out);
  std::string line;
  REQUIRE(std::getline(in, line));
  CAPTURE(line);
  // "VENDOR, RENDERER, OpenGL 3.3 or newer": Xvfb's is Mesa's llvmpipe.
  const size_t version = line.find(", OpenGL ");
  REQUIRE(version != std::string::npos);
  CHECK(line.compare(version + 9, 1, "3") >= 0);
  CHECK(line.find(", ") < version);
}

TEST_CASE("gui: screenshots of the race explorer's witness and charts, not blank" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("screenshots");
  const std::pair<const char*, const char*> views[] = {
      {"witness", "--lesson barrier --n 64 --no-barrier"},
      {"by-block", "--lesson barrier --no-barrier --runs 2"},
      {"float-sums", "--lesson atomic --type float --n 3000 --runs 3"},
      {"output", "--lesson barrier --n 64 --no-barrier --printf"}};
  for (const auto& [view, options] : views)
    CHECK(coloursOfScreenshot(dir / (std::string("race-") + view + ".png"),
                              std::string("--size 1000x700 --view ") + view + " " + options) > 40);
}

TEST_CASE("gui: a screenshot of the Memory view, not blank" * doctest::skip(noXvfb())) {
  const TempFolder dir("screenshots");
  CHECK(coloursOfScreenshot(dir / "memory.png",
                            "--lesson barrier --variant global --n 64 --step 2 --view memory "
                            "--size 1000x700") > 40);
}

TEST_CASE("gui: screenshots of the all-reduce at scale and of a learner's timeline, not blank" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("screenshots");
  for (const char* presenter : {"", " --presenter"})
    CHECK(coloursOfScreenshot(
              dir / (std::string("scale") + (*presenter ? "-presenter" : "") + ".png"),
              std::string("--lesson allreduce --view scale --size 1280x800") + presenter, 1280,
              800) > 40);
  CHECK(coloursOfScreenshot(dir / "learner-timeline.png",
                            std::string("--exercise tree-in-shared --exercise-file ") +
                                RLAB_SOURCE_DIR +
                                "/tests/fixtures/exercises/race_lockstep_hides.cu "
                                "--exercise-action run --n 128 --block 128 --view timeline "
                                "--size 1366x768",
                            1366, 768) > 40);
}
