// An exported animation (rlab export, the app's File menu): what its path asks for, and the
// desktop app run to draw it (reduction-lab --export, off-screen), followed as it goes. Said
// once, so that both front ends refuse the same paths with the same sentence and read the app's
// report the same way.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lessons/engine/texts/messages.hpp"

namespace rlab {

enum class AnimationFormat { Gif, WebP, PngFolder };

// By the extension: .gif, .webp; none (or a trailing '/') names a folder for PNGs, one a step.
// Throws ParamError naming the three allowed for any other extension, or for an empty path.
AnimationFormat animationFormatFor(const std::string& path);

// What the app reported: it prints "frame K N" after each frame and "wrote BYTES" at the end;
// anything else is a sentence for the person (why it stopped).
struct AnimationExport {
  int frames = 0;
  unsigned long long bytes = 0;
  bool written = false;    // the file is whole
  bool cancelled = false;  // keepGoing said no: the app was stopped, and left no file
  int exitCode = 0;        // the app's: 2 where it refused the run or the path
  Message problem;         // why nothing was written (empty where it was)
};

// Runs `appArguments` (the app's path first) and reads its report; onFrame(K, N) after each
// frame, keepGoing about every 50 ms (false stops it). Never throws.
AnimationExport runAnimationExport(const std::vector<std::string>& appArguments,
                                   const std::function<void(int frame, int frames)>& onFrame = {},
                                   const std::function<bool()>& keepGoing = {});

}  // namespace rlab
