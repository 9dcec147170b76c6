// Each lesson's own picture of the current step: the atomic queue, the folding halves, the
// barrier's state, the warp x lane grid, the block partials, the butterfly network, and the
// copies between GPUs of the all-reduce (panel_ranks.cpp).
#include <algorithm>
#include <cmath>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/registry.hpp"

namespace rlab::gui {

namespace {

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

// The host loop that launches the folds, with this step's numbers: every step's array holds
// the `remain` elements still live, so len, reduce and the grid follow from the trace.
void hostLoop(const UiState& ui, const Trace& t, const Palette& pal) {
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.muted));
  wrappedText(tr("The host code (lessons/folding/driver.hpp), with this step's values:"));
  ImGui::PopStyleColor();
  const int step = std::max(1, ui.step);
  if (size_t(step) >= t.steps.size()) {
    ImGui::TextDisabled(tr("n = %lld: nothing to fold."), (long long)t.params.n);
    return;
  }
  const long long len = (long long)t.steps[size_t(step) - 1].values.size();
  const long long remain = (long long)t.steps[size_t(step)].values.size(), reduce = len - remain;
  const long long block = t.params.block, blocks = (reduce + block - 1) / block;
  const ImVec4 code = ImGui::ColorConvertU32ToFloat4(pal.text);
  const ImVec4 value = ImGui::ColorConvertU32ToFloat4(ui.step > 0 ? pal.accent : pal.muted);
  // Each line's values as a comment after it, wrapping rather than clipped on a projector.
  auto line = [&](const char* text, const std::string& values) {
    ImGui::TextColored(code, "%s", text);
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
  line("  foldStep<<<blocks, block>>>(a, reduce, remain);",
       printed(blocks == 1 ? tr("%lld block x %lld, %lld add") : tr("%lld blocks x %lld, %lld add"),
               blocks, block, reduce));
  line("}", "");
  if (len % 2 == 1) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.changed));
    wrappedText(printed(tr("len %lld is odd: a[%lld] has no partner and waits for the next step."),
                        len, reduce));
    ImGui::PopStyleColor();
  }
}

void warpGrid(const StepSnapshot& s, int block, const Palette& pal) {
  ImGui::Text(s.activeWarps.size() == 1 ? tr("%zu warp with active lanes")
                                        : tr("%zu warps with active lanes"),
              s.activeWarps.size());
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
  const int warps = std::min(16, std::max(1, (block + 31) / 32));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // Room for the widest row name ("warp 15") and a gap.
  const float label = ImGui::CalcTextSize(printed(tr("warp %d"), warps > 10 ? 88 : 8).c_str()).x +
                      ImGui::GetFontSize() * 0.5f;
  const float cell =
      std::min((ImGui::GetContentRegionAvail().x - label) / 32.f, ImGui::GetFontSize() * 1.2f);
  const float rowHeight = std::max(cell + 2, ImGui::GetTextLineHeightWithSpacing());
  for (int w = 0; w < warps; ++w) {
    const float y = origin.y + w * rowHeight;
    const std::string name = printed(tr("warp %d"), w);
    draw->AddText(ImVec2(origin.x, y), pal.text, name.c_str());
    for (int lane = 0; lane < 32; ++lane) {
      const int thread = w * 32 + lane;
      const bool on = thread < int(active.size()) && active[size_t(thread)];
      const ImVec2 a(origin.x + label + lane * cell, y);
      draw->AddRectFilled(a, ImVec2(a.x + cell - 2, a.y + cell), on ? pal.worked : pal.cell);
    }
  }
  ImGui::Dummy(ImVec2(label + 32 * cell, warps * rowHeight));
  ImGui::TextDisabled("%s", tr("Lit lanes did work in this step (the first block's warps)."));
}

void butterflyNetwork(const UiState& ui, const Trace& t, const Palette& pal) {
  const int n = int(std::min<size_t>(t.steps[0].values.size(), 32));
  const int steps = int(t.steps.size()) - 1;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float column = avail.x / float(std::max(1, steps + 1));
  const float row = std::min(avail.y / float(std::max(1, n)), ImGui::GetFontSize() * 1.3f);
  for (int s = 0; s <= steps; ++s) {
    for (int i = 0; i < n; ++i) {
      const ImVec2 at(origin.x + s * column + 8, origin.y + i * row + row / 2);
      draw->AddCircleFilled(at, std::max(2.f, row * 0.2f), s <= ui.step ? pal.text : pal.muted);
    }
    if (s == 0) continue;
    for (const auto& [source, target] : t.steps[size_t(s)].pairs) {
      if (source >= n || target >= n) continue;
      const ImVec2 from(origin.x + (s - 1) * column + 8, origin.y + source * row + row / 2);
      const ImVec2 to(origin.x + s * column + 8, origin.y + target * row + row / 2);
      draw->AddLine(from, to,
                    s == ui.step  ? pal.changed
                    : s < ui.step ? pal.pair
                                  : pal.cell,
                    s == ui.step ? pal.line * 1.5f : 1);
    }
  }
  ImGui::Dummy(ImVec2(avail.x, n * row));
}

void blockPartials(const Trace& t, const Palette& pal) {
  ImGui::Text(t.blockPartials.size() == 1
                  ? tr("%zu block partial (one per block, combined at the end):")
                  : tr("%zu block partials (one per block, combined at the end):"),
              t.blockPartials.size());
  double biggest = 1;
  for (double v : t.blockPartials) biggest = std::max(biggest, std::fabs(v));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const size_t shown = std::min<size_t>(t.blockPartials.size(), 64);
  // The bars start after the widest row name ("block 63") in this language.
  const float names = std::max(
      ImGui::GetFontSize() * 4,
      ImGui::CalcTextSize(printed(tr("block %zu"), std::max<size_t>(shown, 1) - 1).c_str()).x +
          ImGui::GetFontSize() * 0.5f);
  for (size_t b = 0; b < shown; ++b) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float length =
        float(std::fabs(t.blockPartials[b]) / biggest) * (ImGui::GetContentRegionAvail().x * 0.6f);
    draw->AddRectFilled(ImVec2(at.x + names, at.y + 2),
                        ImVec2(at.x + names + length, at.y + ImGui::GetFontSize()), pal.bar);
    ImGui::Text(tr("block %zu"), b);
    ImGui::SameLine(names + length + 12);
    ImGui::TextUnformatted(formatValue(t.blockPartials[b], t.params.type).c_str());
  }
}

}  // namespace

void drawLessonView(App& app) {
  const UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  if (!ui.trace) return;
  const Trace& t = *ui.trace;
  if (!t.traced) {
    wrappedText(
        tr("This run was too large to record step by step; its result and "
           "timings are on the right."));
    return;
  }
  const StepSnapshot& s = t.steps[size_t(ui.step)];
  switch (lessonOrThrow(t.params.lesson).picture) {
    case LessonPicture::AtomicQueue:
      atomicQueue(ui, t, pal);
      break;
    case LessonPicture::Fold:
      wrappedText(
          tr("One launch per step: the back half folds onto the front half. "
             "a[i] += a[i + remain] for i < reduce, with reduce = len / 2 "
             "and remain = len - reduce; an odd middle element waits a "
             "step."));
      hostLoop(ui, t, pal);
      break;
    case LessonPicture::Barrier: {
      const bool on = t.params.barrier;
      ImGui::PushStyleColor(ImGuiCol_Text,
                            ImGui::ColorConvertU32ToFloat4(on ? pal.right : pal.wrong));
      ImGui::SetWindowFontScale(1.6f);
      ImGui::TextUnformatted(on ? tr("__syncthreads() is ON") : tr("__syncthreads() is OFF"));
      ImGui::SetWindowFontScale(1.0f);
      ImGui::PopStyleColor();
      wrappedText(on ? tr("Every thread waits at the end of each level, so a[tid + i] is final "
                          "before anyone reads it.")
                     : tr("Nothing makes a thread wait: it may read a[tid + i] before the thread "
                          "that owns it has finished the level below. Try the schedule "
                          "stall:4:2:1 with n = 8, or race it in the Race explorer."));
      ImGui::Text(tr("Schedule: %s"),
                  t.backend == "sim" ? t.params.schedule.c_str() : tr("the GPU's own"));
      break;
    }
    case LessonPicture::WarpGrid:
      warpGrid(s, t.params.block, pal);
      break;
    case LessonPicture::BlockPartials:
      blockPartials(t, pal);
      break;
    case LessonPicture::Butterfly:
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
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.accent),
                           tr("After the last step: %s"), totals.c_str());
      }
      butterflyNetwork(ui, t, pal);
      break;
    case LessonPicture::Pipeline:
      wrappedText(
          tr("One pass: each thread walks the array in tiles of 16-byte loads with four "
             "accumulators, each warp reduces with five shuffles, each block adds its "
             "warps' totals, and the blocks' totals meet in one atomic (int) or in the "
             "block that started last (float, added in a fixed order: the same sum every "
             "run; the last block loads nothing, so it is ready when the last total "
             "lands)."));
      wrappedText(printed(tr("This step: %s, %zu values"), s.label.c_str(), s.values.size()));
      break;
    case LessonPicture::Ranks:
      if (t.gpus > 0) drawRanksDetails(app);
      break;
  }
}

}  // namespace rlab::gui
