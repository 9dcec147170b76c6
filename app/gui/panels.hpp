// One panel per file; each draws inside the window the layout (layout.cpp) opened for it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/gui/app.hpp"
#include "app/gui/theme.hpp"

namespace rlab {
struct LessonInfo;
}

namespace rlab::gui {

// The menu bar (File > Open chapter, Help > Manual); its height. The dialog File > Open
// chapter opens, drawn after every window (a modal popup comes last in a frame).
float drawMenuBar(App& app);
void drawOpenChapterDialog(App& app);
void drawExportDialog(App& app);
void drawQuizPanel(
    App& app);  // the Quiz view (panel_quiz.cpp)  // File > Export animation (panel_export.cpp)
void drawLessonsPanel(App& app);   // lesson list, variants, lesson text
void drawControlsPanel(App& app);  // parameters, backend, Run
float controlsPanelHeight();       // ... the height its content took when last drawn (0: not yet)
void drawPlayerPanel(App& app);    // scrubber, play/pause, step buttons, speed
// Where the step buttons leave too little of a panel this wide for the speed slider and its
// label, they go on a row of their own (the layout gives the player that row).
bool speedSliderOnItsOwnRow(float panelWidth);
void drawArrayPanel(App& app);                        // the array after this step
float arrayPanelHeight(const App& app, float width);  // ... the height it needs for this step
// Back and forward a page of `shown` of `count` (up and down for rows), and `showing` beside the
// buttons, on the line it is called on; the buttons are the widgets "NAME back" and "NAME
// forward". True when a button moved `first`.
bool drawPager(UiState& ui, long long& first, long long count, long long shown,
               const std::string& showing, const std::string& name, bool upAndDown = false);
// The array panel's pager and overview strip over another row (the gather step's threads): the
// pager (ui.arrayWindow's); the strip of `values`' magnitudes with the window framed.
void drawRowPager(UiState& ui, long long count, long long shown, const std::string& showing);
void drawRowOverview(UiState& ui, const std::vector<double>& values,
                     const std::vector<long long>& hot, ImVec2 origin, float width, float height,
                     long long shown, const Palette& pal);
// The gather step of coarsening (panel_gather.cpp): the elements each thread read.
void drawGatherPicture(App& app, const StepSnapshot& s);
float gatherPictureHeight(const StepSnapshot& s, ElementType type, float width);
void drawLessonView(App& app);  // the lesson's own picture
// The shared lesson's block partials, part of its picture (panel_block_partials.cpp).
void drawBlockPartials(const UiState& ui, const Trace& t, const Palette& pal);
void drawResultPanel(App& app);     // result, expected, verdict, timings
void drawRunFacts(const Trace& t);  // where the run ran, its timings and notes

// The verdict on the run on screen (verdict.cpp), the same on the desk and on the stage.
struct Verdict {
  enum class Kind { None, Correct, RightThisTime, Wrong, NoSingleAnswer } kind = Kind::None;
  std::string headline;  // CORRECT, RIGHT THIS TIME, WRONG, NO SINGLE ANSWER
  std::string detail;    // how far off: "15 short"
  // A racy setting (the barrier off): how often it goes wrong, or that it is being measured.
  std::string rate;
  bool measuring = false;
  ImU32 colour = 0;
};
Verdict verdictOf(const App& app);
void drawVerdict(App& app, float headlineScale);  // the headline larger, then the rest

// The stage (layout.cpp): a bar with the lesson, the player and the teacher's buttons
// (panel_stage_bar.cpp); the view under the array; the step's narration beside the verdict
// (panel_stage_narration.cpp); the drawer with the lessons, controls and code (panel_drawer.cpp).
void drawStageBar(App& app);
float stageBarHeight(App& app, float width);
void drawStageView(App& app);
void drawStageNarration(App& app);
float stageNarrationHeight(App& app, float width);
// A film's step with no sentence before its last (which has the verdict): the strip keeps its
// place, so that the picture does not jump from frame to frame, but is not drawn as an empty box.
bool stageNarrationEmpty(App& app, float width);
void drawDrawer(App& app);
// Sets the controls to a try link's run ("try:n=8&schedule=stall:4:2:1") and runs it; the
// texts' links and the lessons' suggestion buttons both do this.
void runTryLink(App& app, const std::string& chapter, const std::string& link);
// A suggestion the run on screen makes, as a button that sets the controls and runs.
bool suggestionButton(App& app, const std::string& label, const std::string& chapter,
                      const std::string& link);
void drawSourcePanel(App& app);    // the kernel that ran
void drawHostCodePanel(App& app);  // the host code that launched it, and the run's launches
// The files the host code panel shows for a lesson: its driver.hpp, then the helpers of lessons/
// it includes (tree_passes.hpp).
std::vector<std::string> hostFiles(const LessonInfo& lesson);
void drawTimingPanel(App& app);  // log-log chart from rlab bench's engine
// Under the chart (panel_speedups.cpp): each kernel's time x the CPU loop, the previous kernel
// and CUB, at one measured n, in `height` pixels (its rows scroll within them); the height it
// would take whole, so that the chart leaves room for it.
void drawSpeedUpTable(App& app, float height);
float speedUpTableHeight(const UiState& ui);
void drawRacePanel(App& app);      // run K times, histogram, open a wrong run
void drawTimelinePanel(App& app);  // one row per thread: when each read and wrote
// The learner's run on the desk: the array and, where the run kept its loads and stores, their
// timeline (panel_access_timeline.cpp) as a second tab.
void drawLearnerRunPanel(App& app);
void drawAccessTimelinePanel(App& app);
void drawKernelOutputPanel(App& app);  // what the kernel printed (printf), line by line
void drawScalePanel(App& app);         // the all-reduce's model at thousands of GPUs
void drawMemoryPanel(App& app);        // one warp's global loads and stores: sectors, efficiency
// The GPU's own counters for the run on screen (Nsight Compute), the simulator's prediction
// beside them; a recording of a GPU where this machine has none.
void drawProfilePanel(App& app);
// "measured on NVIDIA H100 80GB HBM3, 2026-11-03, not on this machine": how every view labels
// what a recording holds (the recording at `path`, or `path` itself where none is built in).
std::string recordedOnText(const std::string& path);
void drawTextPanel(App& app);                  // the lesson's text: links, narration, predictions
void drawNarration(App& app);                  // the text's sentence for the step on screen
float narrationHeight(App& app, float width);  // ... and how tall it is at that width
// ... and how long it is to read: characters, a CJK one counted twice (0: the step has none).
size_t narrationReadingLength(const UiState& ui);
// allreduce (panel_ranks.cpp): the G buffers after the step, chunks coloured by the ranks they
// hold, the step's copies as arrows (in the Array window); the copies listed and the bytes each
// GPU moved so far (in the lesson view).
void drawRanks(App& app);
void drawRanksDetails(App& app);
// The verdict of an all-reduce run for the result panel: the run's, then each GPU's (right, or
// how many of its elements are wrong).
void drawRankVerdicts(App& app);

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
// The editor's window that shows every line of `text` whole, with room for a few more.
ImVec2 exerciseEditorSizeFor(const std::string& text);
// What the editor marks at a line of the learner's file: compile errors and warnings, and the
// failed cases that name the line (where it crashed, hung or waited), as the UI says them.
struct LineNote {
  std::string text;
  bool error = false;
};
std::map<int, LineNote> notesByLine(const ExerciseState& ex);
void drawExerciseCheck(App& app);  // Run and Check with progress and Cancel, the report

// Labels drawn into pictures (labels.cpp): each placed where it overlaps no label placed
// before it in the frame and stays inside its window, else moved to the next place offered or
// left out; every one kept with its rectangle, so that the tests can check that no two overlap
// and none is cut off.
struct PlacedLabel {
  ImVec2 min, max;
  std::string text;
  std::string window;  // the window it was drawn in
};
void beginLabelFrame();
const std::vector<PlacedLabel>& labelsThisFrame();
// Draws `text` at the first of `at` (top-left corners) where it fits; false: none did. `size`
// 0: the current font size.
bool placeLabel(ImDrawList* draw, std::initializer_list<ImVec2> at, ImU32 colour,
                const std::string& text, float size = 0);
// A label ImGui drew itself (a verdict, a title): kept for the checks, and in the way of the
// labels placed after it.
void noteLabel(ImVec2 min, ImVec2 max, const std::string& text);

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
