// The text views rlab run adds on request: each step's global loads and stores (--memory), the
// per-thread timeline (--timeline) and the run's launches (--launches). They read results; they
// compute nothing.
#include "app/cli/run_option_views.hpp"

#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "app/cli/terminal.hpp"
#include "app/cli/terminal_style.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/timeline.hpp"

namespace rlab::cli {

namespace {

std::string spaces(size_t count) {
  return std::string(count, ' ');
}

// A view's words are core messages too (lessons/engine/texts/messages), in the command's language.
std::string say(const Message& m, Language language) {
  return render(m, language);
}

std::string percent(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

}  // namespace

void printMemoryStep(const StepSnapshot& s, std::ostream& out, int width, Language language) {
  const MemoryStepSummary sum = summarizeMemory(s.memory);
  if (sum.requests == 0) {
    out << "        " << say(Message("view.memory-none"), language) << "\n";
    return;
  }
  printWrapped(say(Message("view.memory-step", {{"requests", sum.requests},
                                                {"sectors", sum.sectors},
                                                {"useful", sum.usefulBytes},
                                                {"efficiency", percent(sum.efficiency)},
                                                {"fewest", sum.minSectors}}),
                   language),
               spaces(8), spaces(10), width, out);
  constexpr size_t kShownRequests = 16;
  for (size_t k = 0; k < s.memory.size() && k < kShownRequests; ++k) {
    const WarpMemoryRequest& r = s.memory[k];
    printWrapped(say(Message(r.write ? "view.memory-store" : "view.memory-load",
                             {{"block", r.block},
                              {"warp", r.warp},
                              {"arg", r.buffer},
                              {"lanes", r.lanes.size()},
                              {"sectors", r.sectors},
                              {"fewest", r.minSectors},
                              {"lines", r.lines},
                              {"useful", r.usefulBytes},
                              {"efficiency", percent(sectorEfficiency(r))}}),
                     language),
                 spaces(10), spaces(12), width, out);
  }
  if (s.memory.size() > kShownRequests)
    printWrapped(
        say(Message("view.memory-more", {{"more", s.memory.size() - kShownRequests}}), language),
        spaces(10), spaces(12), width, out);
}

void printLaunchesText(const Trace& t, std::ostream& out, Language language, int width) {
  const LaunchTable launches = launchTable(t);
  out << "\n";
  printWrapped(say(Message("view.launches", {{"launches", launches.rows.size()},
                                             {"file", lessonOrThrow(t.params.lesson).hostFile}}),
                   language),
               "", "  ", width, out);
  std::vector<std::string> columns;
  for (const Message& column : launches.columns) columns.push_back(say(column, language));
  Table table{columns, launches.rows, true};
  table.gap = " ";
  printTable(table, "  ", width, out);
}

void printTimelineText(const Trace& t, std::ostream& out, bool colour, Language language,
                       int width) {
  const Timeline tl = buildTimeline(t);
  out << "\n";
  if (!tl.available) {
    printWrapped(say(Message("view.timeline-none", {{"why", tl.why}}), language), "", "  ", width,
                 out);
    return;
  }
  printWrapped(
      say(tl.measured ? Message("view.timeline-measured")
                      : Message("view.timeline-simulated", {{"schedule", t.params.schedule}}),
          language),
      "", "  ", width, out);
  printWrapped(say(tl.clockText, language), "  ", "  ", width, out);
  const Params& p = t.params;
  // Each level a column; a late cell says so, and its row's gap is dots.
  const std::string waiting = say(Message("view.timeline-waiting"), language);
  Table table;
  table.header.push_back("");
  for (const Message& column : tl.columns) table.header.push_back(say(column, language));
  for (const TimelineRow& row : tl.rows) {
    std::vector<std::string> cells(tl.columns.size() + 1);
    cells[0] = say(Message("view.timeline-thread", {{"thread", row.thread}}), language);
    for (const TimelineCell& cell : row.cells) {
      std::string& s = cells[size_t(cell.column) + 1];
      if (!s.empty()) s += "; ";
      s += "#" + std::to_string(cell.readTick) + "-" + std::to_string(cell.writeTick) + " " +
           cellText(cell, p.op, p.type);
      if (cell.late)
        s += " " + say(Message("view.timeline-late", {{"level", cell.level}}), language);
      if (cell.staleRead) s += " !";
      for (int gap = cell.level - 1; gap < cell.column; ++gap)
        if (cells[size_t(gap) + 1].empty()) cells[size_t(gap) + 1] = waiting;
    }
    if (colour)
      for (std::string& s : cells)
        if (s.find(" !") != std::string::npos) s = kWrong + s + kReset;
    table.rows.push_back(cells);
  }
  printTable(table, "  ", width, out);
  for (const TimelineEarlyRead& e : tl.earlyReads)
    printWrapped(std::string(colour ? kWrong : "") +
                     say(Message("view.timeline-early-read",
                                 {{"read", e.readTick}, {"what", e.text}, {"write", e.writeTick}}),
                         language) +
                     (colour ? kReset : "") +
                     say(Message("view.colon", {{"text", e.sentence}}), language),
                 "  ", "    ", width, out);
  const int needed = tl.readsAfterTheirWrite + tl.readsBeforeTheirWrite;
  printWrapped(say(tl.readsBeforeTheirWrite == 0
                       ? Message("timeline.reads-all-after", {{"reads", needed}})
                       : Message("timeline.reads-before",
                                 {{"before", tl.readsBeforeTheirWrite}, {"reads", needed}}),
                   language),
               "  ", "    ", width, out);
}

}  // namespace rlab::cli
