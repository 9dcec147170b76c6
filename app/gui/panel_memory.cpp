// Coalescing: for the step on screen, one warp's global loads and stores as the simulator saw
// them (lessons/engine/backends/sim/coalescing.hpp): each active lane's address, coloured by the
// 32-byte sector it falls in, the sectors as strips of eight 4-byte words with the words the lanes
// used filled, and "N sectors for M useful bytes (K% efficiency)"; under it, every step of the run
// summed. Variants whose steps work in shared memory point to the bank-conflict view instead.
#include <algorithm>
#include <map>
#include <set>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

namespace {

// Sectors by colour, in turn: neighbours always differ.
ImU32 sectorColour(long long sector) {
  static const ImU32 colours[] = {IM_COL32(86, 156, 214, 255),  IM_COL32(214, 157, 86, 255),
                                  IM_COL32(120, 190, 110, 255), IM_COL32(190, 110, 190, 255),
                                  IM_COL32(220, 200, 90, 255),  IM_COL32(100, 200, 200, 255)};
  return colours[size_t(sector % 6)];
}

// The lanes of one request in a row of 32 cells, each with its byte offset; then the sectors it
// touched, eight words each, the words a lane asked for filled.
void drawRequest(const WarpMemoryRequest& r, const Palette& pal) {
  const MemoryStepSummary one = summarizeMemory({r});
  const ImU32 verdict = r.sectors == r.minSectors ? pal.right : pal.wrong;
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(verdict),
                     r.write ? tr("store (argument %d): %d sectors for %lld useful bytes (%.1f%% "
                                  "efficiency), %d at best")
                             : tr("load (argument %d): %d sectors for %lld useful bytes (%.1f%% "
                                  "efficiency), %d at best"),
                     r.buffer, r.sectors, r.usefulBytes, one.efficiency, r.minSectors);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const float cell = std::max(8.f, (ImGui::GetContentRegionAvail().x - 2) / 32.f);
  ImVec2 origin = ImGui::GetCursorScreenPos();
  std::map<int, const LaneAddress*> byLane;
  for (const LaneAddress& a : r.lanes) byLane[a.lane] = &a;
  const float small = std::min(font * 0.7f, cell / 1.7f);  // "252" fits in a cell
  for (int lane = 0; lane < 32; ++lane) {
    const ImVec2 a(origin.x + cell * float(lane), origin.y);
    const ImVec2 b(a.x + cell - 1, a.y + small * 2.3f);
    auto it = byLane.find(lane);
    if (it == byLane.end()) {
      draw->AddRect(a, b, pal.cellBorder);
      continue;
    }
    draw->AddRectFilled(a, b, sectorColour(it->second->sector));
    draw->AddText(ImGui::GetFont(), small, ImVec2(a.x + 1, a.y + 1), IM_COL32(20, 20, 20, 255),
                  std::to_string(lane).c_str());
    draw->AddText(ImGui::GetFont(), small, ImVec2(a.x + 1, a.y + small * 1.15f),
                  IM_COL32(20, 20, 20, 255), std::to_string(it->second->offset).c_str());
  }
  ImGui::Dummy(ImVec2(cell * 32, small * 2.4f));
  // The sectors, in address order: 8 words of 4 bytes, the used ones filled.
  std::set<long long> sectors;
  std::set<long long> words;
  for (const LaneAddress& a : r.lanes) {
    for (long long byte = a.offset; byte < a.offset + a.bytes; byte += 4) words.insert(byte / 4);
    sectors.insert(a.sector);
  }
  origin = ImGui::GetCursorScreenPos();
  const float word = std::min(font * 0.9f, (ImGui::GetContentRegionAvail().x - 8) /
                                               (9.f * float(std::max<size_t>(4, sectors.size()))));
  float x = origin.x;
  for (long long sector : sectors) {
    for (int w = 0; w < 8; ++w) {
      const ImVec2 a(x + word * float(w), origin.y), b(a.x + word - 1, a.y + word);
      if (words.count(sector * 8 + w))
        draw->AddRectFilled(a, b, sectorColour(sector));
      else
        draw->AddRect(a, b, sectorColour(sector));
    }
    x += word * 9;
  }
  ImGui::Dummy(ImVec2(std::max(1.f, x - origin.x), word + 2));
  ImGui::TextDisabled(r.lines == 1 ? tr("sectors %lld..%lld, %d line of 128 bytes")
                                   : tr("sectors %lld..%lld, %d lines of 128 bytes"),
                      sectors.empty() ? 0 : *sectors.begin(),
                      sectors.empty() ? 0 : *sectors.rbegin(), r.lines);
}

void summaryTable(const Trace& t, int current, const Palette& pal) {
  if (!ImGui::BeginTable(
          "##memorysteps", 5,
          ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg))
    return;
  ImGui::TableSetupColumn(tr("Step"));
  ImGui::TableSetupColumn(tr("Warp requests"));
  ImGui::TableSetupColumn(tr("Sectors"));
  ImGui::TableSetupColumn(tr("Useful bytes"));
  ImGui::TableSetupColumn(tr("Efficiency"));
  ImGui::TableHeadersRow();
  for (size_t k = 1; k < t.steps.size(); ++k) {
    const MemoryStepSummary sum = summarizeMemory(t.steps[k].memory);
    ImGui::TableNextRow();
    if (int(k) == current)
      ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, (pal.accent & 0x00ffffff) | 0x50000000);
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(say(t.steps[k].label).c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::Text("%d", sum.requests);
    ImGui::TableSetColumnIndex(2);
    ImGui::Text(tr("%lld (%lld at best)"), sum.sectors, sum.minSectors);
    ImGui::TableSetColumnIndex(3);
    ImGui::Text("%lld", sum.usefulBytes);
    ImGui::TableSetColumnIndex(4);
    ImGui::Text("%.1f%%", sum.efficiency);
  }
  ImGui::EndTable();
}

}  // namespace

void drawMemoryPanel(App& app) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  if (!ui.trace) return;
  const Trace& t = *ui.trace;
  const VariantInfo* variant = variantOf(t.params);
  if (!variant || !variant->globalMemorySteps) {
    wrappedText(
        tr("This variant's steps work in shared memory or registers: global memory is read "
           "once, one element a thread, before the steps. What its steps' accesses cost is bank "
           "conflicts: the Lesson view shows them for each step."));
    if (ImGui::Button(tr("Open the Lesson view"))) ui.requestTab = ViewTab::LessonView;
    ImGui::Spacing();
    wrappedText(printed(tr("Sectors are counted for the steps in global memory: %s."),
                        globalMemoryRunsText().c_str()),
                true);
    return;
  }
  if (!t.memoryRecorded) {
    wrappedText(t.backend == BackendChoice::Gpu
                    ? tr("Sectors are counted by the simulator, from the addresses it sees each "
                         "lane touch; this run was on the GPU. Choose the simulator and run again.")
                    : printed(tr("Sectors are counted in runs of up to %lld elements."),
                              static_cast<long long>(kMemoryTraceLimit)));
    return;
  }
  const int step = std::clamp(ui.step, 0, int(t.steps.size()) - 1);
  if (step == 0) {
    wrappedText(tr("Step through the run: each step shows one warp's global loads and stores."));
  } else {
    const StepSnapshot& s = t.steps[size_t(step)];
    const MemoryStepSummary sum = summarizeMemory(s.memory);
    ImGui::Text(tr("This step: %d warp requests, %lld sectors for %lld useful bytes (%.1f%% "
                   "efficiency)"),
                sum.requests, sum.sectors, sum.usefulBytes, sum.efficiency);
    // The block and warp to show: those with requests in this step.
    std::set<std::pair<int, int>> present;
    for (const WarpMemoryRequest& r : s.memory) present.insert({r.block, r.warp});
    const int blocks = int((t.params.n + t.params.block - 1) / std::max(1, t.params.block));
    const int warps = std::max(1, (t.params.block + 31) / 32);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::SliderInt(trId("block"), &ui.memoryBlock, 0, std::max(0, blocks - 1));
    noteWidget(ui, "memory block");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::SliderInt(trId("warp"), &ui.memoryWarp, 0, warps - 1);
    noteWidget(ui, "memory warp");
    ui.memoryBlock = std::clamp(ui.memoryBlock, 0, std::max(0, blocks - 1));
    ui.memoryWarp = std::clamp(ui.memoryWarp, 0, warps - 1);
    wrappedText(tr("A cell per lane: the lane, and the byte it asked for (from the buffer's "
                   "start), coloured by its 32-byte sector; under it the sectors, 8 words each."),
                true);
    bool any = false;
    for (const WarpMemoryRequest& r : s.memory)
      if (r.block == ui.memoryBlock && r.warp == ui.memoryWarp) {
        ImGui::Separator();
        drawRequest(r, pal);
        any = true;
      }
    if (!any) {
      std::string others;
      for (const auto& [b, w] : present)
        if (others.size() < 80)
          others += (others.empty() ? "" : ", ") + printed(tr("block %d warp %d"), b, w);
      wrappedText(present.empty()
                      ? std::string(tr("No warp loads or stores global memory in this step."))
                      : printed(tr("This warp has no global loads or stores in this step; these "
                                   "do: %s."),
                                others.c_str()),
                  true);
    }
  }
  ImGui::Spacing();
  ImGui::TextUnformatted(tr("Every step of the run, all warps:"));
  summaryTable(t, step, pal);
}

}  // namespace rlab::gui
