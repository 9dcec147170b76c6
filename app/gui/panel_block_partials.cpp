// The shared lesson's block partials: before the trees' last step, when they will be ready and
// how they are combined (one atomic a block, or on the chip in each cluster first); after it,
// a bar a block.
#include <algorithm>
#include <cmath>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"

namespace rlab::gui {

namespace {

// shared clusters: the blocks' totals after their trees, then the clusters' levels.
void clusterPartials(const UiState& ui, const Trace& t, const Palette& pal) {
  const int last = int(t.steps.size()) - 1;
  int clusterLevels = 0;
  for (int blocks = 1; blocks < t.clusterBlocks; blocks *= 2) ++clusterLevels;
  const int trees = last - clusterLevels;
  wrappedText(ui.step < trees
                  ? printed(tr("The %zu blocks' totals are ready after the trees' last step "
                               "(step %d). Then the blocks of each cluster of %d add them up in "
                               "their shared memory, one level per step with a cluster.sync() "
                               "before each, and one atomic per cluster adds its total into the "
                               "result."),
                            t.blockPartials.size(), trees, t.clusterBlocks)
                  : printed(tr("The blocks of each cluster of %d add their totals up in their "
                               "shared memory: block rank r reads the total of rank r + stride "
                               "from that block's shared memory. After step %d one atomic per "
                               "cluster adds its total into the result."),
                            t.clusterBlocks, last),
              pal.muted);
}

}  // namespace

void drawBlockPartials(const UiState& ui, const Trace& t, const Palette& pal) {
  // The blocks' totals exist once their trees are done: after the last step, not before.
  const int last = int(t.steps.size()) - 1;
  if (t.clusterBlocks > 0 && ui.step < last) return clusterPartials(ui, t, pal);
  if (ui.step < last) {
    wrappedText(t.blockPartials.size() == 1
                    ? printed(tr("The block's total is ready after the tree's last step (step "
                                 "%d); then one atomic adds it into the result."),
                              last)
                    : printed(tr("The %zu blocks' totals are ready after the trees' last step "
                                 "(step %d); then one atomic per block adds them into the "
                                 "result."),
                              t.blockPartials.size(), last),
                pal.muted);
    return;
  }
  if (t.clusterBlocks > 0)
    ImGui::Text(tr("%zu block partials (one per block; each cluster of %d added its blocks' "
                   "totals on the chip, then made one atomic):"),
                t.blockPartials.size(), t.clusterBlocks);
  else
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

}  // namespace rlab::gui
