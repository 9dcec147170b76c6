// Each lesson's own picture of the current step: the atomic queue, the folding halves, the
// barrier's state, the warp x lane grid, the block partials (panel_block_partials.cpp), the
// butterfly network, and the copies between GPUs of the all-reduce (panel_ranks.cpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

namespace {

// What each thread of a fold does, with the operator that ran: the double buffer writes the
// other buffer and copies the odd middle element across.
std::string foldCombineText(const Params& p) {
  if (const VariantInfo* variant = variantOf(p); variant && variant->doubleBuffer)
    return "out[i] = " + applyText(p.op, "in[i]", "in[i + remain]") +
           " (i < reduce); out[reduce] = in[reduce] (len % 2 == 1)";
  return combineText(p.op, "a[i]", "a[i + remain]") + " (i < reduce)";
}

void atomicQueue(const UiState& ui, const Trace& t, const Palette& pal) {
  wrappedText(
      tr("One address, one queue: the atomics land one after another, in "
         "this order (thread: total before + its value)."));
  const int landed = std::min<int>(ui.step, int(t.atomicOrder.size()));
  for (int k = 0; k < int(t.atomicOrder.size()) && k < 512; ++k) {
    const AtomicLanding& a = t.atomicOrder[size_t(k)];
    const std::string token = "t" + std::to_string(a.thread) + ": " +
                              formatValue(a.before, t.params.type) + "+" +
                              formatValue(a.value, t.params.type);
    const ImU32 colour = k + 1 == landed ? pal.changed : k < landed ? pal.text : pal.muted;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
    ImGui::TextUnformatted(token.c_str());
    ImGui::PopStyleColor();
    if ((k + 1) % 6 != 0) ImGui::SameLine(0, ImGui::GetFontSize() * 1.2f);
  }
}

// Each box as wide as the widest value it may show, at least three digits.
float foldBoxWidth(const FoldPicture& f, ElementType type) {
  float box = ImGui::CalcTextSize("000").x;
  for (const FoldArc& a : f.arcs)
    box = std::max({box, ImGui::CalcTextSize(formatValue(a.fromValue, type).c_str()).x,
                    ImGui::CalcTextSize(formatValue(a.toValue, type).c_str()).x,
                    ImGui::CalcTextSize(formatValue(a.result, type).c_str()).x});
  return box + ImGui::GetFontSize() * 0.6f;
}

// The arcs, over the boxes: from the back element's top to the front element's, an arrow
// head where it lands.
void foldArrows(ImDrawList* draw, const std::vector<float>& front, const std::vector<float>& back,
                float box, float top, float arcHeight, const Palette& pal) {
  const float font = ImGui::GetFontSize();
  for (size_t k = 0; k < front.size(); ++k) {
    const ImVec2 from(back[k] + box / 2, top), to(front[k] + box / 2, top);
    const float lift = arcHeight * (0.55f + 0.4f * float(k % 3) / 2.f);
    const ImVec2 control((from.x + to.x) / 2, top - lift * 2 + font * 0.2f);
    draw->AddBezierQuadratic(from, control, to, pal.pair, pal.line * 1.3f);
    const float head = font * 0.35f;
    draw->AddTriangleFilled(ImVec2(to.x, to.y), ImVec2(to.x - head, to.y - head * 1.6f),
                            ImVec2(to.x + head * 0.6f, to.y - head * 1.7f), pal.pair);
  }
}

// The fold of the step on screen, from its recorded combines: the strip before the step, an
// arc from each back-half element onto the front-half element it was added to, the sum under
// it, and the odd middle element waiting. Many arcs: the first few, the elements between them
// left out, and a sentence saying how many there are.
void foldArcs(const UiState& ui, const Trace& t, const Palette& pal) {
  const FoldPicture f = foldPicture(t, ui.step);
  if (!f.valid) {
    wrappedText(tr("Step 0 is the input. Step forward to watch the first fold."), pal.muted);
    return;
  }
  const ElementType type = t.params.type;
  const long long arcs = (long long)f.arcs.size();
  const float font = ImGui::GetFontSize();
  const float box = foldBoxWidth(f, type);
  const float gap = font * 0.25f, avail = ImGui::GetContentRegionAvail().x;
  const bool waiting = f.waiting >= 0;
  // Slots: the front boxes, "...", the waiting box, the back boxes, "...".
  long long shown = arcs;
  auto slots = [&](long long k) { return 2 * k + (k < arcs ? 2 : 0) + (waiting ? 1 : 0); };
  while (shown > 1 && (slots(shown) * (box + gap) > avail || shown > 16)) --shown;
  ImGui::Text(arcs == 1 ? tr("len %lld: %lld arc, the strip is %lld long after it")
                        : tr("len %lld: %lld arcs, the strip is %lld long after them"),
              f.len, arcs, f.remain);
  if (shown < arcs)
    wrappedText(printed(tr("Showing the first %lld of %lld arcs; the elements between them are "
                           "left out (...)."),
                        shown, arcs),
                pal.muted);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float arcHeight = font * 2.2f, row = font * 1.5f;
  const float top = origin.y + arcHeight;  // the boxes' top edge
  float x = origin.x;
  auto boxAt = [&](float left, double value, ImU32 fill, const std::string& index) {
    draw->AddRectFilled(ImVec2(left, top), ImVec2(left + box, top + row), fill, 3);
    draw->AddRect(ImVec2(left, top), ImVec2(left + box, top + row), pal.cellBorder, 3);
    const std::string v = formatValue(value, type);
    const ImVec2 size = ImGui::CalcTextSize(v.c_str());
    draw->AddText(ImVec2(left + (box - size.x) / 2, top + (row - size.y) / 2), pal.text, v.c_str());
    const ImVec2 isize = ImGui::CalcTextSize(index.c_str());
    draw->AddText(ImVec2(left + (box - isize.x) / 2, top + row + 2), pal.muted, index.c_str());
  };
  auto ellipsis = [&]() {
    draw->AddText(ImVec2(x + box * 0.3f, top + row * 0.2f), pal.muted, "...");
    x += box + gap;
  };
  std::vector<float> front, back;  // the boxes' left edges
  for (long long k = 0; k < shown; ++k, x += box + gap) {
    const FoldArc& a = f.arcs[size_t(k)];
    front.push_back(x);
    boxAt(x, a.toValue, pal.worked, std::to_string(a.to));
    // The sum the thread wrote, under the element it wrote.
    const std::string r = "=" + formatValue(a.result, type);
    draw->AddText(ImVec2(x + (box - ImGui::CalcTextSize(r.c_str()).x) / 2, top + row * 2),
                  pal.accent, r.c_str());
  }
  if (shown < arcs) ellipsis();
  if (waiting) {
    const double value = size_t(f.waiting) < f.before.size() ? f.before[size_t(f.waiting)] : 0;
    boxAt(x, value, pal.changed, std::to_string(f.waiting));
    const char* label = tr("waits");
    draw->AddText(ImVec2(x + (box - ImGui::CalcTextSize(label).x) / 2, top + row * 2), pal.changed,
                  label);
    x += box + gap;
  }
  for (long long k = 0; k < shown; ++k, x += box + gap) {
    const FoldArc& a = f.arcs[size_t(k)];
    back.push_back(x);
    boxAt(x, a.fromValue, pal.cell, std::to_string(a.from));
  }
  if (shown < arcs) ellipsis();
  foldArrows(draw, front, back, box, top, arcHeight, pal);
  ImGui::Dummy(ImVec2(std::max(x - origin.x, 1.f), arcHeight + row * 2 + font * 1.3f));
  if (waiting)
    wrappedText(printed(tr("len %lld is odd: a[%lld] has no partner and waits for the next step."),
                        f.len, f.waiting),
                pal.changed);
}

// The host loop that launches the folds, with this step's numbers, as the backend recorded
// the launch (lessons/folding/driver.hpp, shown whole in the Host code tab).
void hostLoop(const UiState& ui, const Trace& t, const Palette& pal) {
  ImGui::Spacing();
  wrappedText(tr("The host loop, with this step's launch as it was recorded (the whole driver "
                 "is in the Host code tab):"),
              pal.muted);
  const int step = std::max(1, ui.step);
  if (size_t(step) > t.launches.size()) {
    ImGui::TextDisabled(tr("n = %lld: nothing to fold."), (long long)t.params.n);
    return;
  }
  const LaunchRecord& launch = t.launches[size_t(step) - 1];
  long long len = 0, reduce = 0, remain = 0;
  for (const auto& [name, v] : launch.values)
    (name == "len" ? len : name == "reduce" ? reduce : remain) = v;
  const VariantInfo* variant = lessonOrThrow(t.params.lesson).findVariant(t.params.variant);
  const std::string kernel = variant ? variant->kernelFunction : "foldStep";
  const ImVec4 code = ImGui::ColorConvertU32ToFloat4(pal.text);
  const ImVec4 value = ImGui::ColorConvertU32ToFloat4(ui.step > 0 ? pal.accent : pal.muted);
  // Each line's values as a comment after it, wrapping rather than clipped on a projector.
  auto line = [&](const std::string& text, const std::string& values) {
    ImGui::TextColored(code, "%s", text.c_str());
    if (values.empty()) return;
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0);
    ImGui::PushStyleColor(ImGuiCol_Text, value);
    ImGui::TextWrapped("// %s", values.c_str());
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
  };
  line("for (len = n; len > 1; len = remain) {", "len = " + std::to_string(len));
  line("  reduce = len / 2;", "reduce = " + std::to_string(reduce));
  line("  remain = len - reduce;", "remain = " + std::to_string(remain));
  line("  " + kernel + "<<<grid, block>>>(..., reduce, remain);",
       printed(tr("launch %d: %lld x %lld threads"), step, launch.grid, launch.block));
  line("}", "");
}

void warpGrid(const StepSnapshot& s, int block, const Palette& pal) {
  const int warps = std::min(16, std::max(1, (block + 31) / 32));
  // The grid is the first block's warps: its count says so where the grid has more blocks.
  int shownActive = 0;
  for (int w : s.activeWarps) shownActive += w < warps;
  if (int(s.activeWarps.size()) == shownActive)
    ImGui::Text(s.activeWarps.size() == 1 ? tr("%zu warp with active lanes")
                                          : tr("%zu warps with active lanes"),
                s.activeWarps.size());
  else
    ImGui::Text(tr("%d of the first block's %d warps with active lanes (%zu in the whole grid)"),
                shownActive, warps, s.activeWarps.size());
  if (s.bankConflictDegree > 1) {
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.wrong), tr("%d-way bank conflict"),
                       s.bankConflictDegree);
  }
  std::vector<char> active;
  for (int thread : s.active) {
    if (thread >= int(active.size())) active.resize(size_t(thread) + 1, 0);
    active[size_t(thread)] = 1;
  }
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // Room for the widest row name ("warp 15") and a gap.
  const float label = ImGui::CalcTextSize(printed(tr("warp %d"), warps > 10 ? 88 : 8).c_str()).x +
                      ImGui::GetFontSize() * 0.5f;
  const float cell =
      std::min((ImGui::GetContentRegionAvail().x - label) / 32.f, ImGui::GetFontSize() * 1.2f);
  // Every warp of the block in view: rows as low as the panel needs, down to a thin strip (the
  // two lines under the grid keep their room).
  const float room =
      ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing() * 2.2f;
  const float rowHeight = std::max(
      ImGui::GetFontSize() * 0.4f,
      std::min(std::max(cell + 2, ImGui::GetTextLineHeightWithSpacing()), room / float(warps)));
  const float cellHeight = std::min(cell, rowHeight - 2);
  const bool names = rowHeight >= ImGui::GetFontSize();  // "warp 3" where a row holds it
  for (int w = 0; w < warps; ++w) {
    const float y = origin.y + w * rowHeight;
    const std::string name = printed(tr("warp %d"), w);
    if (names || w == 0 || w == warps - 1)
      draw->AddText(ImGui::GetFont(), std::min(ImGui::GetFontSize(), rowHeight * 1.6f),
                    ImVec2(origin.x, y), pal.text, name.c_str());
    for (int lane = 0; lane < 32; ++lane) {
      const int thread = w * 32 + lane;
      const bool on = thread < int(active.size()) && active[size_t(thread)];
      const ImVec2 a(origin.x + label + lane * cell, y), b(a.x + cell - 2, a.y + cellHeight);
      draw->AddRectFilled(a, b, on ? pal.worked : pal.cell);
      if (!on) draw->AddRect(a, b, pal.muted);  // idle, and seen to be so on a projector
    }
  }
  ImGui::Dummy(ImVec2(label + 32 * cell, warps * rowHeight));
  int lanes = 0, working = 0;
  for (int thread = 0; thread < warps * 32 && thread < block; ++thread, ++lanes)
    working += thread < int(active.size()) && active[size_t(thread)];
  ImGui::Text(tr("%d of %d lanes idle in the warps shown"), lanes - working, lanes);
  ImGui::TextDisabled("%s", tr("Lit lanes did work in this step (the first block's warps)."));
}

// The steps as columns and the first 32 elements as rows, each combine a line from where its
// value came from to where it went: the butterfly's network, the barrier lesson's tree. With
// `barriers`, the barrier between two levels is drawn between their columns: solid where the
// kernel waits there, dashed and red where the learner switched it off; a read that came too
// early is a red line.
void network(const UiState& ui, const Trace& t, const Palette& pal, bool barriers = false) {
  const int n = int(std::min<size_t>(t.steps[0].values.size(), 32));
  const int steps = int(t.steps.size()) - 1;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float column = avail.x / float(std::max(1, steps + 1));
  const float row = std::min(avail.y / float(std::max(1, n)), ImGui::GetFontSize() * 1.3f);
  if (barriers)
    for (int s = 1; s <= steps; ++s) {
      const float x = origin.x + (s - 0.5f) * column + 8;
      const ImVec2 top(x, origin.y), bottom(x, origin.y + n * row);
      if (t.params.barrier) {
        draw->AddLine(top, bottom, pal.right, pal.line);
      } else {
        for (float y = top.y; y < bottom.y; y += 12)
          draw->AddLine(ImVec2(x, y), ImVec2(x, std::min(y + 6, bottom.y)), pal.wrong, pal.line);
      }
    }
  for (int s = 0; s <= steps; ++s) {
    for (int i = 0; i < n; ++i) {
      const ImVec2 at(origin.x + s * column + 8, origin.y + i * row + row / 2);
      draw->AddCircleFilled(at, std::max(2.f, row * 0.2f), s <= ui.step ? pal.text : pal.muted);
    }
    if (s == 0) continue;
    for (const auto& [source, target] : t.steps[size_t(s)].pairs) {
      if (source >= n || target >= n) continue;
      bool stale = false;
      for (const CombineRead& c : t.steps[size_t(s)].combines)
        stale |= c.target.element == target && c.source.element == source && c.source.stale;
      const ImVec2 from(origin.x + (s - 1) * column + 8, origin.y + source * row + row / 2);
      const ImVec2 to(origin.x + s * column + 8, origin.y + target * row + row / 2);
      // This step's lines thick, but never so thick that 32 rows of them merge into one.
      draw->AddLine(from, to,
                    stale && s <= ui.step ? pal.wrong
                    : s == ui.step        ? pal.changed
                    : s < ui.step         ? pal.pair
                                          : pal.cell,
                    s == ui.step ? std::min(pal.line * 1.5f, std::max(1.f, row * 0.15f)) : 1);
    }
  }
  ImGui::Dummy(ImVec2(avail.x, n * row));
}

// The fastest kernel's one pass as four stages, each with as many values as the run recorded
// for it: the elements, the threads' sums, the warps' totals, the blocks' totals, the result.
void pipeline(const UiState& ui, const Trace& t, const Palette& pal) {
  struct Stage {
    const char* what;
    size_t count;
  };
  std::vector<Stage> stages = {{tr("elements"), t.steps[0].values.size()}};
  const char* names[] = {tr("threads' sums"), tr("warps' totals"), tr("blocks' totals")};
  for (size_t k = 1; k < t.steps.size() && k <= 3; ++k)
    stages.push_back({names[k - 1], t.steps[k].values.size()});
  stages.push_back({tr("the sum"), 1});
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float font = ImGui::GetFontSize();
  const float width = ImGui::GetContentRegionAvail().x / float(stages.size());
  const float tallest = font * 5;
  double most = 1;
  for (const Stage& s : stages) most = std::max(most, double(s.count));
  for (size_t k = 0; k < stages.size(); ++k) {
    // Heights on a log scale, so that 1000 elements and 1 sum both show.
    const float h = font + (tallest - font) *
                               float(std::log2(double(stages[k].count) + 1) / std::log2(most + 1));
    const float x = origin.x + float(k) * width;
    const bool current = int(k) == ui.step || (k + 1 == stages.size() && ui.step >= 3);
    draw->AddRectFilled(ImVec2(x + 4, origin.y + tallest - h),
                        ImVec2(x + width * 0.6f, origin.y + tallest),
                        current ? pal.changed : pal.bar, 3);
    const std::string count = std::to_string(stages[k].count);
    placeLabel(draw, {ImVec2(x + 6, origin.y + tallest + 2)}, pal.text, count);
    placeLabel(draw, {ImVec2(x + 6, origin.y + tallest + font * 1.2f)}, pal.muted, stages[k].what);
    if (k + 1 < stages.size())
      draw->AddTriangleFilled(ImVec2(x + width * 0.68f, origin.y + tallest - font * 0.8f),
                              ImVec2(x + width * 0.68f, origin.y + tallest - font * 0.2f),
                              ImVec2(x + width * 0.85f, origin.y + tallest - font * 0.5f),
                              pal.muted);
  }
  ImGui::Dummy(ImVec2(width * float(stages.size()), tallest + font * 2.6f));
}

// The barrier on or off in large type, what that means, the schedule, and with it off what to
// try next; then the tree as a network with the barriers between its levels.
void barrierPicture(App& app, const Trace& t, const Palette& pal) {
  const bool on = t.params.barrier;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(on ? pal.right : pal.wrong));
  ImGui::SetWindowFontScale(1.6f);
  ImGui::TextUnformatted(on ? tr("__syncthreads() is ON") : tr("__syncthreads() is OFF"));
  ImGui::SetWindowFontScale(1.0f);
  ImGui::PopStyleColor();
  wrappedText(on ? tr("Every thread waits at the end of each level, so a[tid + i] is final "
                      "before anyone reads it.")
                 : tr("Nothing makes a thread wait: it may read a[tid + i] before the thread "
                      "that owns it has finished the level below."));
  ImGui::Text(tr("Schedule: %s"),
              t.backend == BackendChoice::Sim ? t.params.schedule.c_str() : tr("the GPU's own"));
  if (!on) {  // what to try next, as buttons that set the controls and run
    suggestionButton(app, tr("Thread 4 late: n = 8, stall:4:2:1"), "barrier",
                     "try:n=8&barrier=off&schedule=stall:4:2:1&backend=sim");
    ImGui::SameLine();
    if (ImGui::Button(trId("Race it 200 times"))) {
      app.ui.raceRuns = 200;
      app.startRace();
      app.ui.requestTab = ViewTab::Race;
    }
    noteWidget(app.ui, "suggestion:race");
  }
  network(app.ui, t, pal, true);
}

// The butterfly: what its partners do, the blocks' totals where there is more than one block,
// and the network.
void butterflyPicture(const UiState& ui, const Trace& t, const Palette& pal) {
  wrappedText(
      tr("Partner i ^ b: both partners end with the pair's total; after "
         "the last step every thread of a block holds that block's "
         "total, and one atomic per block adds the blocks' totals into "
         "the result."));
  if (const size_t block = size_t(t.params.block); t.steps.back().values.size() > block) {
    // More than one block: the totals each block's threads ended with, as the run left them.
    std::string totals;
    const auto& last = t.steps.back().values;
    for (size_t b = 0; b * block < last.size() && b < 8; ++b)
      totals += (b ? ", " : "") + printed(tr("block %zu: %s"), b,
                                          formatValue(last[b * block], t.params.type).c_str());
    if (last.size() > 8 * block) totals += ", ...";
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.accent), tr("After the last step: %s"),
                       totals.c_str());
  }
  network(ui, t, pal);
}

}  // namespace

void drawLessonView(App& app) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  if (!ui.trace) return;
  const Trace& t = *ui.trace;
  if (!t.traced) {
    // Too large to record step by step: where the run ran and how fast (the array panel shows
    // its sum), since on the stage there is no Result panel to look at.
    drawRunFacts(t);
    return;
  }
  const StepSnapshot& s = t.steps[size_t(ui.step)];
  switch (lessonOrThrow(t.params.lesson).picture) {
    case LessonPicture::AtomicQueue:
      atomicQueue(ui, t, pal);
      break;
    case LessonPicture::Fold:
      wrappedText(printed(tr("One launch per step: the back half folds onto the front half. "
                             "%s, with reduce = len / 2 and remain = len - reduce; an odd "
                             "middle element waits a step."),
                          foldCombineText(t.params).c_str()));
      foldArcs(ui, t, pal);
      hostLoop(ui, t, pal);
      break;
    case LessonPicture::Barrier:
      barrierPicture(app, t, pal);
      break;
    case LessonPicture::WarpGrid:
      warpGrid(s, t.params.block, pal);
      break;
    case LessonPicture::BlockPartials:
      drawBlockPartials(ui, t, pal);
      break;
    case LessonPicture::Butterfly:
      butterflyPicture(ui, t, pal);
      break;
    case LessonPicture::Pipeline:
      pipeline(ui, t, pal);
      wrappedText(
          tr("One pass: each thread walks the array in tiles of 16-byte loads with four "
             "accumulators, each warp reduces with five shuffles, each block adds its "
             "warps' totals, and the blocks' totals meet in one atomic (int) or in the "
             "block that started last (float, added in a fixed order: the same sum every "
             "run; the last block loads nothing, so it is ready when the last total "
             "lands)."));
      break;
    case LessonPicture::Ranks:
      if (t.gpus > 0) drawRanksDetails(app);
      break;
  }
}

}  // namespace rlab::gui
