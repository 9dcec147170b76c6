// One panel per file; each draws inside the window the layout in app.cpp opened for it.
#pragma once

#include <string>
#include <vector>

#include "app/gui/app.hpp"
#include "app/gui/theme.hpp"

namespace rlab {
struct LessonInfo;
}

namespace rlab::gui {

void drawLessonsPanel(App& app);   // lesson list, variants, lesson text
void drawControlsPanel(App& app);  // parameters, backend, Run
void drawPlayerPanel(App& app);    // scrubber, play/pause, step buttons, speed
void drawArrayPanel(App& app);     // the array after this step
void drawLessonView(App& app);     // the lesson's own picture
void drawResultPanel(App& app);    // result, expected, verdict, timings
void drawSourcePanel(App& app);    // the kernel that ran
void drawHostCodePanel(App& app);  // the host code that launched it, and the run's launches
// The files the host code panel shows for a lesson: its driver.hpp, then the helpers of lessons/
// it includes (tree_passes.hpp).
std::vector<std::string> hostFiles(const LessonInfo& lesson);
void drawTimingPanel(App& app);    // log-log chart from rlab bench's engine
// Under the chart (panel_speedups.cpp): each kernel's time x the CPU loop, the previous kernel
// and CUB, at one measured n, in `height` pixels (its rows scroll within them); the height it
// would take whole, so that the chart leaves room for it.
void drawSpeedUpTable(App& app, float height);
float speedUpTableHeight(const UiState& ui);
void drawRacePanel(App& app);      // run K times, histogram, open a wrong run
void drawTimelinePanel(App& app);  // one row per thread: when each read and wrote
void drawKernelOutputPanel(App& app);  // what the kernel printed (printf), line by line
void drawMemoryPanel(App& app);    // one warp's global loads and stores: sectors, efficiency
// The GPU's own counters for the run on screen (Nsight Compute), the simulator's prediction
// beside them; a recording of a GPU where this machine has none.
void drawProfilePanel(App& app);
// "measured on NVIDIA H100 80GB HBM3, 2026-11-03, not on this machine": how every view labels
// what a recording holds (the recording at `path`, or `path` itself where none is built in).
std::string recordedOnText(const std::string& path);
void drawTextPanel(App& app);      // the lesson's text: links, narration, predictions
void drawNarration(App& app);      // the text's sentence for the step on screen
// allreduce (panel_ranks.cpp): the G buffers after the step, chunks coloured by the ranks they
// hold, the step's copies as arrows (in the Array window); the copies listed and the bytes each
// GPU moved so far (in the lesson view).
void drawRanks(App& app);
void drawRanksDetails(App& app);

// The race explorer's parts (panel_race_witness.cpp, panel_race_charts.cpp).
struct Palette;
struct ChartMarker {
  double offset = 0;  // where on the axis
  std::string label;
  ImU32 colour = 0;
};
// Runs by how far off, stacked right and wrong, `height` pixels tall with its axis labels.
void drawOffsetHistogram(const OffsetHistogram& h, const Palette& pal, float height,
                         const std::string& axis, const std::vector<ChartMarker>& markers = {});
void drawRateByBlock(const RateByBlock& rate, const Palette& pal);
void drawFloatSums(const FloatSumSpread& spread, const Palette& pal);
void drawWitness(App& app, const Witness& w, const Palette& pal);
// Exercises: the layout switches to these three while one is open.
void drawExerciseText(App& app);    // the statement, hints one at a time, our solution
void drawExerciseEditor(App& app);  // the learner's kernel: line numbers, colours, errors
void drawExerciseCheck(App& app);   // Run and Check with progress and Cancel, the report

// Small helpers the panels share.
void helpMarker(const char* text);
void noteWidget(UiState& ui, const std::string& name);  // remember where it was drawn
// Text wrapped to the window, in the current text colour (or the disabled one): Latin breaks
// at spaces, Japanese and Chinese between characters, where ImGui's own wrapping breaks them
// only after 、 and 。 and lets the rest run past the edge. `wrapWidth` 0: the space left in the
// window (a tooltip, which has none yet, names its width).
void wrappedText(const std::string& text, bool disabled = false, float wrapWidth = 0);
void wrappedText(const std::string& text, ImU32 colour);  // the same, in this colour
// "barrier global, n = 8, barrier off, perturbed": the run a race view measured, in the UI's
// language where it has words (the lesson, variant and parameters keep their names).
std::string runSetup(const Params& p, bool withN = true);

// Kernel source, coloured the same way everywhere: CUDA words in the accent colour, comments
// muted, the rest plain. A line's pieces, as byte ranges.
struct CodePiece {
  enum Kind { Plain, Cuda, Comment };
  size_t begin = 0, end = 0;
  Kind kind = Plain;
};
std::vector<CodePiece> codePieces(const std::string& line);
ImU32 codeColour(CodePiece::Kind kind, const Palette& pal);      // 0 for plain: the text colour
void drawCodeLine(const std::string& line, const Palette& pal);  // one line, as Text widgets
// Markdown as the lesson text draws it: paragraphs wrapped, ``` blocks as code, try links that
// run (parsed once per distinct text).
void drawMarkdown(App& app, const std::string& markdown);

}  // namespace rlab::gui
