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

#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/races/distribution.hpp"
#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/exercise/progress.hpp"
#include "lessons/engine/run/params.hpp"
#include "lessons/engine/gpu_tools/profile.hpp"
#include "lessons/engine/races/race.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"
#include "lessons/engine/texts/texts.hpp"
#include "lessons/engine/quiz/quiz.hpp"
#include "lessons/engine/run/trace.hpp"
#include "lessons/engine/races/witness.hpp"

namespace rlab::gui {

struct RaceOutcome {
  RaceResult result;
  OffsetHistogram bins;                      // the results by how far off they were
  std::optional<SanitizerReport> racecheck;  // GPU: compute-sanitizer's racecheck on one run
  std::optional<Witness> witness;            // "Find a witness"
  std::optional<RateByBlock> byBlock;        // the share of wrong runs against block size
  std::optional<FloatSumSpread> floatSums;   // atomic float sums in ulps, beside fastest's
};

// The views under the array, in the order of their tabs (app/gui/tabs.cpp names and draws
// them).
enum class ViewTab {
  LessonText,
  LessonView,
  Timing,
  Race,
  Timeline,
  KernelOutput,
  Memory,
  Profile,
  Scale,
  Quiz
};
// The code beside the controls.
enum class CodeTab { Kernel, Host };
// The race explorer's views, in the order of its tabs.
enum class RaceTab { Results, Witness, ByBlock, FloatSums };

struct BenchOutcome {
  std::vector<BenchRow> rows;
  std::string device;
  bool gpuTimes = false;
  ElementType type = ElementType::Int;
  // Rows read from a recording (lessons/engine/gpu_tools/recording.hpp), not measured here: its
  // path, and the views label them with its card and date. Empty: measured here.
  std::string recording;
};

// The Profile tab: the last profile made here (rlab profile's, on the worker), or why it could
// not be made; recordings are looked up as it draws.
struct ProfileOutcome {
  std::optional<ProfileReport> report;
  Message error;  // one sentence: no ncu, no permission, the run failed
};

// The exercise open in the editor: the learner's text, the file it lives in, and the last
// check or run of it.
struct ExerciseState {
  std::string id;      // empty: no exercise open (the lessons' layout)
  std::string file;    // where the learner's kernel lives; the app saves there before a run
  std::string text;    // the editor's text
  bool dirty = false;  // edited since it was loaded or saved
  // Bumped whenever the text changes other than by typing (a reload): an editor that is
  // being typed in holds its own copy, which must then be dropped.
  int textGeneration = 0;
  int editorGeneration = 0;  // the generation the editor shows
  // The file's modification time when it was last loaded or saved: a later one means the
  // learner changed it in their own editor.
  long long fileStamp = 0;
  bool changedOnDisk = false;  // ... while the text here was edited too: they choose
  double diskClock = 0;        // seconds since the file was last looked at
  int hintsOpen = 0;           // hints open, one at a time
  bool passed = false;         // a check passed: the solution opens without asking
  bool solutionAsked = false;  // "show it anyway?" was asked once
  bool solutionShown = false;
  std::optional<ExerciseReport> report;  // the last check or run
  bool reportIsRun = false;
  bool onGpu = false;           // check and run on the GPU (where one works), not the simulator
  bool reportOnGpu = false;     // where the report's check or run ran
  double caseSeconds = 5;       // a case running longer is stopped as a hang (ExerciseRequest)
  Params runOptions;            // Run: n, block, data, schedule (the rest is the exercise's)
  std::string runOptionsError;  // why they are refused
  int scrollToLine = 0;         // the editor scrolls there on the next frame (a clicked error)
  // The editor takes the whole width, its longest line too long to fit beside the checks. It
  // goes back beside them only once the line is four characters shorter than the room, so the
  // desk does not flip to and fro while a line near the edge is typed.
  bool editorStacked = false;
  // The last Run's steps on the simulator, for the step player and the array view. While the
  // exercise is open they trade places with the lesson's run (App::frame), which waits.
  std::shared_ptr<const Trace> trace;
  bool showTimeline = false;  // bring its timeline's tab forward on the next frame
  int step = 0;
  bool playing = false;
  double stepClock = 0;
};

// The all-reduce at scale (panel_scale.cpp): the machine the model is drawn for.
struct ScaleView {
  int gpus = 1024;
  int perNode = 8;  // 0: every GPU in one node
};

// The Quiz view: questions drawn from real runs of the lesson on screen (lessons/engine/quiz),
// one at a time, the question's run in the array at the step before the one it asks about; its
// answer, and that step, revealed on a key.
struct QuizView {
  std::shared_ptr<const Quiz> quiz;
  std::array<char, 24> seedText{};  // as typed; a new quiz draws one where it is empty
  int current = 0;                  // the question on screen, from 0
  bool revealed = false;
};

struct ViewOptions {
  bool presenter = false;      // large type, thick lines, high contrast; the stage layout
  bool chartShowsGBs = false;  // timing chart: GB/s instead of time
  // Timing chart: every lesson's kernels, not only those of the lesson on screen (and the
  // yardsticks: CUB, the CPU loop, the copy roofline).
  bool chartAllKernels = false;
  long long speedUpN = 0;  // the speed-up table's n; 0 (or one not measured): the largest
  float textScale = 1;     // Ctrl+= / Ctrl+-
  // The stage (presenter mode, small windows): the picture and the narration fill the screen;
  // lessons, controls and code wait in a drawer that opens on demand (M).
  bool drawerOpen = false;
  ViewTab stageView = ViewTab::LessonView;  // the view under the array on the stage (V)
  // An exported animation's frames (--export, --film): the stage alone, with no menu bar and no
  // buttons, and the verdict on the last step only, where the story ends.
  bool film = false;
};

// Which part of a long array the array view shows: a screenful of cells with their values.
struct ArrayWindow {
  long long first = 0;     // the first element shown
  long long firstRow = 0;  // the gather step: the first turn of its loop (row k) shown
  // The run and step it was last placed for: a new step moves it to where that step works,
  // unless the learner moved it by hand since.
  const Trace* placedFor = nullptr;
  int placedAtStep = -1;
  bool movedByHand = false;
};

// A "predict, then run" question of the texts, as the learner answered it.
struct Prediction {
  std::array<char, 64> answer{};  // result, idle: the number typed
  int choice = -1;                // faster: 0 or 1, the variant picked
  bool waiting = false;           // its run has been asked for
  std::string verdict;            // the run's answer, once it came
  bool right = false;
};

// A run with its barrier off: how often that setting goes wrong, measured in the background
// after the run (App::followLiveRaceRate): on this GPU, or under random schedules on the
// simulator.
struct LiveRaceRate {
  std::shared_ptr<const Trace> forRun;  // shown while this run is on screen
  int runs = 0, wrong = 0;
  Message device;
  bool onGpu = false;
};

// A teacher's own chapter (--chapter, File > Open chapter): a Markdown file in the lesson
// format, checked as the course's chapters are when it is opened, then listed beside the
// lessons. Held by pointer: predictions and narrations are keyed by its blocks.
struct OwnChapter {
  std::string path;  // as opened
  std::string name;  // the file's name: the chapter its try links speak for
  text::Document doc;
};

// File > Export animation: the run on screen, drawn by the app itself off-screen
// (reduction-lab --export in a process of its own) into a GIF, a WebP or PNGs.
struct ExportDialog {
  bool wanted = false;              // its dialog opens on the next frame
  std::array<char, 1024> path{};    // empty: a name in the home folder, offered as it opens
  int size = 0;                     // of kExportSizes
  std::string said;                 // the last export: what was written, or why nothing was
  bool failed = false;
};
inline constexpr const char* kExportSizes[] = {"1280x800", "1920x1080", "1024x768"};

struct UiState {
  Params params;                       // what the controls say
  Message paramError;                  // why they are refused, shown at the widgets
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
  Message gpuName;   // the device's name, capability and memory, or why there is none
  int gpuCount = 0;  // CUDA devices the driver sees

  int raceRuns = 200;
  RaceOutcome race;
  std::optional<LiveRaceRate> liveRate;
  BenchOutcome bench;
  int memoryBlock = 0, memoryWarp = 0;  // the warp the memory view shows
  ArrayWindow arrayWindow;
  bool allStaleReadsShown = false;  // the array view lists every stale read, not the first
  ProfileOutcome profile;
  int recording = 0;  // the recording the timing chart and the Profile tab offer (recordings())
  std::optional<ViewTab> requestTab;      // a view to bring to the front on the next frame
  std::optional<CodeTab> requestCodeTab;  // the same beside the controls
  std::optional<RaceTab> requestRaceTab;  // the same, in the race explorer

  ViewOptions view;
  ScaleView scale;
  QuizView quiz;
  Language language = Language::En;  // of the course texts (and fonts)
  std::string chapter;  // the text shown: empty for the lesson's, "basics", or "file:PATH"
  std::vector<std::shared_ptr<const OwnChapter>> ownChapters;  // opened, in that order
  bool openChapterWanted = false;  // File > Open chapter: its dialog opens on the next frame
  ExportDialog exportDialog;
  std::string chapterFolder;       // where that dialog looks
  std::vector<std::string> chapterProblems;    // the last chapter refused: FILE:LINE: reason
  std::shared_ptr<OwnChapter> pendingChapter;  // checked in the background: the app shows it
  const OwnChapter* ownChapterShown() const {
    for (const auto& own : ownChapters)
      if (chapter == "file:" + own->path) return own.get();
    return nullptr;
  }
  bool fontsWanted = true;  // rebuild the font atlas before the next frame
  std::map<const text::Block*, Prediction> predictions;
  ExerciseState exercise;
  // Where the learner's files live: FOLDER/<id>/<id>.cu, shared with rlab
  // (lessons/engine/exercise/progress.hpp)
  std::string exerciseFolder;
  // The learner's marks, as the progress file rlab also writes says: read at the start and
  // again when the file changes (App::watchProgressFile); written after each start and check.
  std::string progressFile;
  Progress progress;
  long long progressStamp = -1;  // the file's modification time when last read (0: none)
  double progressClock = 0;      // seconds since the file was last looked at
  std::string sourceScrolledTo;  // the kernel function the source panel last scrolled to
  // A racecheck hazard's line the learner clicked: marked in the source panel.
  std::string markedSourceFile;  // as the sanitizer names it ("barrier.cuh")
  int markedSourceLine = 0;

  // Where named widgets were last drawn: lets tests click them like a person would.
  std::map<std::string, ImVec4> widgetRects;
};

}  // namespace rlab::gui
