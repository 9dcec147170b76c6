// The array after this step, readable at any n: as many cells as fit with their values, a
// pager and an overview strip of the whole array (where the window is, where this step works)
// when it is longer (the picture: array_picture.cpp; the pager: pager.cpp). The atomic lesson
// shows its input with the atomics that have landed so far. A race witness on screen frames its
// two cells: the one read too early and the one its reader wrote.
#include <algorithm>
#include <set>

#include "app/gui/array_picture.hpp"
#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

namespace {

// The window's first element for this step: where the step works, unless the learner moved it.
void placeWindow(UiState& ui, const Trace& t, const ArrayPicture& a, long long shown) {
  ArrayWindow& w = ui.arrayWindow;
  const long long count = (long long)a.values.size();
  const bool newRun = w.placedFor != &t;
  if (newRun) w.movedByHand = false;
  const bool moved = newRun || w.placedAtStep != ui.step;
  w.placedFor = &t;
  w.placedAtStep = ui.step;
  if (moved && !w.movedByHand && !a.hot.empty()) {
    bool visible = false;
    for (long long e : a.hot) visible |= e >= w.first && e < w.first + shown;
    // Pages start on a warp where a page holds one, so that the boundaries stay put. A new run
    // starts where its step works, wherever the last run's window stood.
    const long long unit = shown >= 32 ? shown / 32 * 32 : shown;
    if (!visible || newRun) w.first = a.hot.front() / unit * unit;
  }
  w.first = std::clamp(w.first, 0ll, std::max(0ll, count - shown));
}

// The pager of a long array, on the line it is called on: back, forward, and where the window is.
void drawArrayPager(UiState& ui, const Trace& t, const ArrayPicture& a, const CellLayout& l) {
  placeWindow(ui, t, a, l.shown);
  const long long first = ui.arrayWindow.first;
  drawRowPager(ui, (long long)a.values.size(), l.shown,
               printed(tr("showing %lld-%lld of %lld"), first, first + l.shown - 1,
                       (long long)a.values.size()));
}

// The step's header line, then the pager on its right where the array is paged.
CellLayout headerAndPager(UiState& ui, const Trace& t, const ArrayPicture& a) {
  const CellLayout l = fitCells(a, ImGui::GetContentRegionAvail().x);
  noteLabel(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), "step label");
  if (!l.paged) return l;
  const float pager = ImGui::GetFrameHeight() * 2 + ImGui::GetStyle().ItemSpacing.x * 3 +
                      ImGui::CalcTextSize("showing 00000000-00000000 of 00000000").x;
  const float right = ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + pager < right)
    ImGui::SameLine(right - pager);
  drawArrayPager(ui, t, a, l);
  return l;
}

// Elements a block holds in this step's cells, where the array is indexed by thread and the
// boundaries mean something; 0: not drawn.
long long elementsPerBlock(const Trace& t, const StepSnapshot& s, int step) {
  const LessonInfo& lesson = lessonOrThrow(t.params.lesson);
  switch (lesson.picture) {
    case LessonPicture::Barrier:
    case LessonPicture::WarpGrid:
    case LessonPicture::BlockPartials:
    case LessonPicture::Butterfly:
      break;
    default:
      return 0;
  }
  const VariantInfo* variant = lesson.findVariant(t.params.variant);
  const int perThread = t.params.perThread > 0 ? t.params.perThread
                        : variant              ? variant->defaultPerThread
                                               : 0;
  // The coarsened input, and the steps without the add during the load, hold a block's
  // perThread · block elements; the coarsened steps after the load one value per thread.
  if (perThread > 0 && (step == 0 || !t.params.loadAdd))
    return (long long)t.params.block * perThread;
  return s.values.size() > size_t(t.params.block) || lesson.picture == LessonPicture::WarpGrid
             ? t.params.block
             : 0;
}

// Every stale read of the step as a sentence: the first, then "and N more" that opens the rest.
void staleReadSentences(UiState& ui, const StepSnapshot& s, const Trace& t, const Palette& pal) {
  const std::vector<Message> stale = staleReads(s, t.params.type);
  if (stale.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.wrong));
  const size_t shown = ui.allStaleReadsShown ? stale.size() : 1;
  for (size_t k = 0; k < shown; ++k)
    wrappedText(printed(tr("stale read: %s"), say(stale[k]).c_str()));
  ImGui::PopStyleColor();
  if (stale.size() == 1) return;
  const std::string more = ui.allStaleReadsShown
                               ? std::string(tr("show only the first"))
                               : printed(tr("and %zu more stale reads"), stale.size() - 1);
  if (ImGui::SmallButton((more + "###stale reads").c_str()))
    ui.allStaleReadsShown = !ui.allStaleReadsShown;
  noteWidget(ui, "stale reads");
}

// The atomic lesson: the input, with the atomics that have landed so far outlined and this one
// glowing.
void drawAtomicOrder(UiState& ui, const Trace& t, const StepSnapshot& s, const Palette& pal) {
  static const std::vector<std::pair<int, int>> noPairs;
  std::set<int> landed;
  for (int k = 0; k < ui.step && k < int(t.atomicOrder.size()); ++k)
    landed.insert(t.atomicOrder[size_t(k)].thread);
  const int current = ui.step > 0 ? t.atomicOrder[size_t(ui.step - 1)].thread : -1;
  ImGui::SetWindowFontScale(1.4f);
  ImGui::Text(tr("total: %s"), ui.step > 0 ? formatValue(s.values[0], t.params.type).c_str() : "0");
  ImGui::SetWindowFontScale(1.0f);
  ImGui::SameLine(0, ImGui::GetFontSize());
  if (ui.step > 0)
    ImGui::TextDisabled(tr("%s (%d of %zu landed)"), say(s.label).c_str(), ui.step,
                        t.atomicOrder.size());
  else
    ImGui::TextDisabled("%s", say(s.label).c_str());
  ArrayPicture input{t.steps[0].values, t.params.type,
                     [current](size_t i) { return int(i) == current; }, landed, noPairs};
  if (current >= 0) input.hot = {current};
  const CellLayout l = headerAndPager(ui, t, input);
  drawPicture(ui, input, l, pal);
}

// The step's header line: the input, or the step with how many values it holds or how many
// threads worked.
void drawStepHeader(const UiState& ui, const StepSnapshot& s) {
  if (ui.step == 0)
    ImGui::Text(tr("the input: %zu values"), s.values.size());
  else if (s.active.empty())
    ImGui::Text(tr("%s   (%zu values)"), say(s.label).c_str(), s.values.size());
  else
    ImGui::Text(
        s.active.size() == 1 ? tr("%s   (%zu thread worked)") : tr("%s   (%zu threads worked)"),
        say(s.label).c_str(), s.active.size());
}

// A phase that holds something other than the array says so before its cells; nullptr where
// the cells are the array's elements.
const char* whatCellsHold(CellKind cells) {
  const char* holds = nullptr;
  switch (cells) {
    case CellKind::Threads:
      holds = tr("The cells are the threads: what each thread holds now, thread 0 first.");
      break;
    case CellKind::WarpTotals:
      holds = tr("The cells are the warps: each warp's total, warp 0 first.");
      break;
    case CellKind::BlockTotals:
      holds = tr("The cells are the blocks: each block's total, block 0 first.");
      break;
    case CellKind::LaneWarpTotals:
      holds =
          tr("The cells are the threads again, but lane l of each warp now holds warp l's "
             "total: the second butterfly runs over the warps' totals.");
      break;
    case CellKind::Elements:
      break;
  }
  return holds;
}

// The cells the run's story points at: a race witness's two, where a learner's kernel first
// raced, and the writes that landed after a read that needed them.
void markCells(const App& app, const Trace& t, const StepSnapshot& s, ArrayPicture& picture,
               const Palette& pal) {
  const UiState& ui = app.ui;
  if (app.witnessOnScreen() && ui.race.witness->readFound) {
    // Framed at every step, so that the two cells can be followed; named at the read.
    const EarlyRead& r = ui.race.witness->read;
    const bool atRead = ui.step == r.step;
    picture.marks.push_back({r.element, atRead ? tr("read too early") : "", pal.wrong});
    picture.marks.push_back(
        {r.target, atRead ? printed(tr("by thread %d"), r.reader) : "", pal.wrong});
  }
  if (s.racedElement >= 0)  // a learner's kernel: where its first race shows
    picture.marks.push_back({s.racedElement, tr("raced"), pal.wrong});
  for (const LateWrite& late : lateWrites(t, ui.step))
    picture.marks.push_back(
        {late.element,
         printed(tr("written late: t%d read it first, in step %d"), late.reader, late.readStep),
         pal.wrong, true});
}

}  // namespace

float arrayPanelHeight(const App& app, float width) {
  const UiState& ui = app.ui;
  const float line = ImGui::GetTextLineHeightWithSpacing(), font = ImGui::GetFontSize();
  if (!ui.trace || ui.trace->steps.empty()) return line * 3;
  const Trace& t = *ui.trace;
  if (lessonOrThrow(t.params.lesson).picture == LessonPicture::Ranks && t.gpus > 0)
    return line * (2.5f + 1.45f * float(t.gpus));  // the header, then a row per GPU
  // The most any step of the run needs, so that the stage does not move from step to step.
  static const std::vector<std::pair<int, int>> noPairs;
  bool phases = false, stale = false, paged = false, pairs = false;
  float gather = 0;  // the gather step's picture, where the run has one
  for (const StepSnapshot& s : t.steps) {
    if (!s.gathers.empty())
      gather = gatherPictureHeight(s, t.params.type, width - ImGui::GetStyle().WindowPadding.x * 2);
    phases |= s.cells != CellKind::Elements;
    pairs |= !s.pairs.empty();
    for (const CombineRead& c : s.combines) stale |= c.source.stale || c.target.stale;
    const ArrayPicture a{s.values, t.params.type, [](size_t) { return false; }, {}, noPairs};
    paged |= fitCells(a, width - ImGui::GetStyle().WindowPadding.x * 2).paged;
  }
  const float header = line * 1.3f;  // the step's header (and the pager beside it)
  float height = header;
  if (phases) height += line * 2;      // what the cells are
  if (stale) height += line * 2;       // the first stale read
  if (paged && pairs) height += line;  // the pairs beyond the window
  // Arcs, cells, indices and captions, in the picture's own heights (array_picture.hpp).
  height += font * ((pairs ? 3.6f : kNoArcsRoom) + kMostCellHeight + kCaptionsBelow);
  if (paged) height += font * 1.6f;  // the overview strip
  height = std::max(height, header + gather);
  return height + ImGui::GetStyle().WindowPadding.y * 2;
}

void drawArrayPanel(App& app) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  if (!ui.trace) {
    ImGui::TextDisabled("%s", tr("Running..."));
    return;
  }
  const Trace& t = *ui.trace;
  if (t.steps.empty()) {
    // Too large to record step by step (a note under it says up to which n): the sum is the
    // picture.
    ImGui::SetWindowFontScale(1.6f);
    wrappedText(say(resultLine(t)));
    ImGui::SetWindowFontScale(1.0f);
    return;
  }
  if (lessonOrThrow(t.params.lesson).picture == LessonPicture::Ranks && t.gpus > 0) {
    drawRanks(app);  // G buffers, not one array
    return;
  }
  const StepSnapshot& s = t.steps[size_t(ui.step)];
  const StepSnapshot* previous = ui.step > 0 ? &t.steps[size_t(ui.step - 1)] : nullptr;
  if (!t.atomicOrder.empty()) {
    drawAtomicOrder(ui, t, s, pal);
    return;
  }
  drawStepHeader(ui, s);
  const char* holds = whatCellsHold(s.cells);

  // A step that shows another array (the fastest lesson's per-warp totals) changed nothing.
  const bool sameArray = previous && previous->values.size() == s.values.size();
  std::set<int> targets;
  for (const auto& pr : s.pairs) targets.insert(pr.second);
  ArrayPicture picture{s.values,
                       t.params.type,
                       [&](size_t i) { return sameArray && previous->values[i] != s.values[i]; },
                       targets,
                       s.pairs,
                       &s.combines,
                       {},
                       s.array,
                       elementsPerBlock(t, s, ui.step),
                       {},
                       s.paddingFrom};
  picture.perCluster = picture.perBlock * t.clusterBlocks;
  for (int target : targets) picture.hot.push_back(target);
  markCells(app, t, s, picture, pal);
  if (!s.gathers.empty()) {  // coarsening's reads: a column per thread, not the array
    noteLabel(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), "step label");
    drawGatherPicture(app, s);
    return;
  }
  const CellLayout l = headerAndPager(ui, t, picture);
  if (holds) wrappedText(holds, pal.accent);
  staleReadSentences(ui, s, t, pal);
  drawPicture(ui, picture, l, pal);
}

}  // namespace rlab::gui
