// Everything the app remembers between frames, in one plain struct. Panels draw from it and
// write the user's choices back; the Trace they show is const and comes from the core.
#pragma once

#include <imgui.h>

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lessons/bench.hpp"
#include "lessons/distribution.hpp"
#include "lessons/params.hpp"
#include "lessons/race.hpp"
#include "lessons/sanitizer.hpp"
#include "lessons/texts.hpp"
#include "lessons/trace.hpp"
#include "lessons/witness.hpp"

namespace rlab::gui {

struct RaceOutcome {
  RaceResult result;
  OffsetHistogram bins;                      // the results by how far off they were
  std::optional<SanitizerReport> racecheck;  // GPU: compute-sanitizer's racecheck on one run
  std::optional<Witness> witness;            // "Find a witness"
  std::optional<RateByBlock> byBlock;        // the share of wrong runs against block size
  std::optional<FloatSumSpread> floatSums;   // atomic float sums in ulps, beside fastest's
};

// The race explorer's views, in the order of its tabs.
enum class RaceTab { Results, Witness, ByBlock, FloatSums };

struct BenchOutcome {
  std::vector<BenchRow> rows;
  std::string device;
  bool gpuTimes = false;
};

struct ViewOptions {
  bool presenter = false;      // large type, thick lines, high contrast
  bool chartShowsGBs = false;  // timing chart: GB/s instead of time
  float textScale = 1;         // Ctrl+= / Ctrl+-
};

// A "predict, then run" question of the texts, as the learner answered it.
struct Prediction {
  std::array<char, 64> answer{};  // result, idle: the number typed
  int choice = -1;                // faster: 0 or 1, the variant picked
  bool waiting = false;           // its run has been asked for
  std::string verdict;            // the run's answer, once it came
  bool right = false;
};

struct UiState {
  Params params;                       // what the controls say
  std::string paramError;              // why they are refused, shown at the widgets
  std::array<char, 512> valuesText{};  // the values box as typed; cleared when n changes
  std::shared_ptr<const Trace> trace;  // the run on screen
  bool rerunWanted = true;             // params changed: run again when the worker is free
  std::string status;                  // one line under the controls
  bool statusIsError = false;

  int step = 0;
  bool playing = false;
  float stepsPerSecond = 1.5f;
  double stepClock = 0;

  bool gpuUsable = false;
  std::string gpuName;  // the device's name, capability and memory, or why there is none

  int raceRuns = 200;
  RaceOutcome race;
  BenchOutcome bench;
  int requestTab = -1;                    // a tab to bring to the front on the next frame
  std::optional<RaceTab> requestRaceTab;  // the same, in the race explorer

  ViewOptions view;
  Language language = Language::En;  // of the course texts (and fonts)
  std::string chapter;               // the text shown: empty for the lesson's, or "basics"
  bool fontsWanted = true;           // rebuild the font atlas before the next frame
  std::map<const text::Block*, Prediction> predictions;
  std::string sourceScrolledTo;  // the kernel function the source panel last scrolled to

  // Where named widgets were last drawn: lets tests click them like a person would.
  std::map<std::string, ImVec4> widgetRects;
};

}  // namespace rlab::gui
