// --export: every step of the run on screen, drawn as the stage draws it in presenter mode, into
// an animated GIF, an animated WebP or a folder of PNGs (animation_file.hpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/gui/app.hpp"

namespace rlab::gui {

struct ExportRequest {
  std::string path;
  int width = 1280, height = 800;
  double secondsPerStep = 1.2;  // a step with no sentence; one with a sentence stays to be read
};

// How long step `step` of the run on screen stays: `secondsPerStep`, or the time its sentence
// takes to read (15 characters a second, a CJK character two) if longer, up to 12 seconds; the
// last step, which carries the verdict, three seconds more.
double frameSeconds(const UiState& ui, int stepCount, double secondsPerStep);

// Writes one frame per step, each drawn by `render` (which returns RGBA, top row first) after
// the step is set. Prints "frame K N" on stdout after each frame and "wrote BYTES" at the end,
// lines `rlab export` and the app's File menu read. The exit status: 0, or 1 having said on
// stderr in one sentence why the file could not be written.
int exportAnimation(App& app, const ExportRequest& request,
                    const std::function<std::vector<unsigned char>()>& render);

}  // namespace rlab::gui
