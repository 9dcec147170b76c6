// Text views for the terminal of a run: its steps, launches, timeline and ranks. The views of
// the other jobs (lessons, races, witnesses, bench tables, sanitizer reports) are in
// job_views.cpp. They read results; they compute nothing.
#include "app/cli/views.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <set>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/timeline.hpp"
#include "app/cli/terminal_style.hpp"

namespace rlab::cli {

namespace {

constexpr size_t kShownValues = 24;  // per row; longer rows show both ends

// A view's words are core messages too (lessons/engine/messages), in the command's language.
std::string say(const Message& m, Language language) {
  return render(m, language);
}

// allreduce: each step as G rows, one per GPU, its chunks with the ranks each one holds, and
// the copies of the step.
void printRanksText(const Trace& t, std::ostream& out, bool colour, const text::Block* narration,
                    Language language) {
  const Params& p = t.params;
  const size_t n = size_t(p.n);
  const int chunks = int(t.chunkStarts.size()) - 1;
  size_t cell = 1;
  for (const auto& s : t.steps)
    for (size_t i = 0; i < std::min(s.values.size(), kShownValues * 4); ++i)
      cell = std::max(cell, formatValue(s.values[i], p.type).size());
  for (size_t k = 0; k < t.steps.size(); ++k) {
    const StepSnapshot& s = t.steps[k];
    const StepSnapshot* previous = k > 0 ? &t.steps[k - 1] : nullptr;
    out << std::setw(4) << k << "  " << say(s.label, language) << "\n";
    for (int r = 0; r < p.gpus && s.values.size() >= (r + 1) * n; ++r) {
      out << "      GPU " << r << " ";
      size_t shown = 0;
      for (int c = 0; c < chunks; ++c) {
        const bool changed =
            previous && !previous->contains.empty() && previous->contains[r][c] != s.contains[r][c];
        const char* style = colour && changed ? kChanged : "";
        out << " |" << style;
        for (long long i = t.chunkStarts[c]; i < t.chunkStarts[c + 1]; ++i, ++shown) {
          if (shown == kShownValues) out << " …";
          if (shown >= kShownValues) continue;
          const std::string text = formatValue(s.values[r * n + size_t(i)], p.type);
          out << ' ' << std::string(cell - std::min(cell, text.size()), ' ') << text;
        }
        if (!s.contains.empty()) {
          const std::string held = ranksText(s.contains[r][c], p.gpus);
          out << " [" << held << "]"
              << std::string(size_t(std::max(3, 2 * p.gpus - 1)) -
                                 std::min(held.size(), size_t(std::max(3, 2 * p.gpus - 1))),
                             ' ');
        }
        out << (*style ? kReset : "");
      }
      out << " |\n";
    }
    for (const Transfer& x : s.transfers)
      out << "      "
          << say(Message(x.combined ? "view.transfer-combined" : "view.transfer-copied",
                         {{"from", x.from},
                          {"to", x.to},
                          {"first", x.begin},
                          {"last", x.end - 1},
                          {"bytes", x.bytes}}),
                 language)
          << "\n";
    if (narration && k < narration->items.size()) printNarration(narration->items[k], out);
  }
}

// What the kernel printed, every line, under a heading that says how many and from where.
void printKernelOutput(const Trace& t, std::ostream& out, Language language) {
  const size_t count = t.kernelOutput.size();
  out << say(Message(t.backend == "gpu" ? "view.kernel-output-gpu" : "view.kernel-output-sim",
                     {{"lines", count}}),
             language)
      << "\n";
  for (const std::string& line : t.kernelOutput) out << "  " << line << "\n";
}

// --op subtract: what each kernel that offers it gave for the same data.
void printOtherKernels(const Trace& t, std::ostream& out, Language language) {
  if (t.otherKernels.empty()) return;
  out << say(Message("view.same-data", {{"op", name(t.params.op)}}), language) << "\n";
  auto padded = [](const std::string& name) {
    return name + std::string(size_t(std::max(1, 24 - text::columns(name))), ' ');
  };
  for (const KernelAnswer& a : t.otherKernels) {
    const bool thisRun = a.lesson == t.params.lesson && a.variant == t.params.variant;
    out << "  " << padded(a.lesson + " " + a.variant)
        << (a.notRun.empty() ? formatValue(a.result, t.params.type)
                             : say(Message("view.not-run", {{"why", a.notRun}}), language))
        << (thisRun ? "   " + say(Message("view.this-run"), language) : "") << "\n";
  }
  out << "  " << padded(say(Message("view.host-loop"), language))
      << formatValue(t.expected, t.params.type) << "\n";
}

// The step's global loads and stores (rlab run --memory): a summary, then each warp's request.
void printMemoryStep(const StepSnapshot& s, std::ostream& out, Language language) {
  const MemoryStepSummary sum = summarizeMemory(s.memory);
  if (sum.requests == 0) {
    out << "        " << say(Message("view.memory-none"), language) << "\n";
    return;
  }
  out << "        "
      << say(Message("view.memory-step", {{"requests", sum.requests},
                                          {"sectors", sum.sectors},
                                          {"useful", sum.usefulBytes},
                                          {"efficiency", printedNumber("%.1f", sum.efficiency)},
                                          {"fewest", sum.minSectors}}),
             language)
      << "\n";
  constexpr size_t kShownRequests = 16;
  for (size_t k = 0; k < s.memory.size() && k < kShownRequests; ++k) {
    const WarpMemoryRequest& r = s.memory[k];
    out << "          "
        << say(Message(r.write ? "view.memory-store" : "view.memory-load",
                       {{"block", r.block},
                        {"warp", r.warp},
                        {"arg", r.buffer},
                        {"lanes", r.lanes.size()},
                        {"sectors", r.sectors},
                        {"fewest", r.minSectors},
                        {"lines", r.lines},
                        {"useful", r.usefulBytes},
                        {"efficiency", printedNumber("%.1f", sectorEfficiency(r))}}),
               language)
        << "\n";
  }
  if (s.memory.size() > kShownRequests)
    out << "          "
        << say(Message("view.memory-more", {{"more", s.memory.size() - kShownRequests}}), language)
        << "\n";
}

}  // namespace

namespace {

// The run's first lines: what ran, with which parameters, where.
void printRunHeader(const Trace& t, std::ostream& out, Language language) {
  const Params& p = t.params;
  if (t.gpus > 0) {
    out << p.lesson << " (" << p.variant << ")  gpus=" << p.gpus << "  "
        << say(Message("view.n-per-gpu", {{"n", p.n}}), language) << "  " << name(p.op) << "  "
        << name(p.type) << "  data=" << t.dataLabel << "\n"
        << (t.backend == "gpu" ? "GPU: " : "") << say(t.device, language) << "\n";
    return;
  }
  if (t.exercise.empty())
    out << p.lesson << " (" << p.variant << ")";
  else
    out << say(Message("view.exercise-kernel", {{"exercise", t.exercise}}), language);
  out << "  n=" << p.n << "  block=" << p.block << "  " << name(p.op) << "  " << name(p.type)
      << "  data=" << (t.dataLabel.empty() ? p.data : t.dataLabel);
  const LessonInfo& lesson = *findLesson(p.lesson);
  if (t.exercise.empty() &&
      (lesson.switchableBarrier || lesson.findVariant(p.variant)->barrierSwitch))
    out << "  barrier=" << (p.barrier ? "on" : "off") << (p.perturb ? "  perturb" : "")
        << (p.printing ? "  printf" : "") << (p.delayThread >= 0 ? "  delay=" + delayText(p) : "");
  if (t.exercise.empty() && p.perThread > 0)
    out << "  per-thread=" << p.perThread << (p.loadAdd ? "" : "  no-load-add");
  out << "\n" << (t.backend == "gpu" ? "GPU: " : "") << say(t.device, language) << "\n";
}

// One line per step: its label, the array (both ends of a long one, changed cells and cells
// written by working threads coloured), who worked, then its stale reads and narration.
void printSteps(const Trace& t, std::ostream& out, bool colour, const text::Block* narration,
                Language language) {
  const Params& p = t.params;
  std::vector<std::string> labels;
  size_t widestLabel = 5;
  for (const auto& s : t.steps) {
    labels.push_back(say(s.label, language));
    widestLabel = std::max(widestLabel, size_t(text::columns(labels.back())));
  }
  size_t cell = 1;
  for (const auto& s : t.steps)
    for (size_t i = 0; i < std::min(s.values.size(), kShownValues); ++i)
      cell = std::max(cell, formatValue(s.values[i], p.type).size());
  const std::vector<double>* previous = nullptr;
  for (size_t k = 0; k < t.steps.size(); ++k) {
    const StepSnapshot& s = t.steps[k];
    std::set<int> written;
    for (const auto& pair : s.pairs) written.insert(pair.second);
    out << std::setw(4) << k << "  " << labels[k]
        << std::string(widestLabel - size_t(text::columns(labels[k])) + 2, ' ');
    auto printCell = [&](size_t i) {
      const std::string text = formatValue(s.values[i], p.type);
      const bool changed = previous && i < previous->size() && (*previous)[i] != s.values[i];
      const char* style = !colour ? "" : changed ? kChanged : written.count(int(i)) ? kWorked : "";
      out << ' ' << std::string(cell - std::min(cell, text.size()), ' ') << style << text
          << (*style ? kReset : "");
    };
    if (s.values.size() <= kShownValues) {
      for (size_t i = 0; i < s.values.size(); ++i) printCell(i);
    } else {
      for (size_t i = 0; i < 16; ++i) printCell(i);
      out << "  …";
      for (size_t i = s.values.size() - 6; i < s.values.size(); ++i) printCell(i);
      out << "  " << say(Message("view.values", {{"values", s.values.size()}}), language);
    }
    if (k > 0 && !s.active.empty()) {
      std::vector<Message> worked = {Message("view.threads", {{"threads", s.active.size()}})};
      if (!s.activeWarps.empty())
        worked.push_back(Message("view.warps", {{"warps", s.activeWarps.size()}}));
      if (s.bankConflictDegree > 1)
        worked.push_back(Message("view.bank-conflict", {{"ways", s.bankConflictDegree}}));
      out << "   " << say(Message("view.list", {{"items", worked}}), language);
    }
    out << "\n";
    if (k > 0 && t.memoryRecorded) printMemoryStep(s, out, language);
    for (const Message& stale : staleReads(s, p.type))
      out << "        " << (colour ? kWrong : "")
          << say(Message("view.stale-read", {{"read", stale}}), language) << (colour ? kReset : "")
          << "\n";
    if (narration && k < narration->items.size()) printNarration(narration->items[k], out);
    previous = &s.values;
  }
}

// The result against the expected value, or, for an operator with no single answer, every
// kernel's answer beside the host's loop.
void printResult(const Trace& t, std::ostream& out, bool colour, Language language) {
  if (!t.singleAnswer) {
    printOtherKernels(t, out, language);
    out << say(resultLine(t), language) << "   " << say(verdictWord(t), language) << "\n";
    return;
  }
  const char* verdictStyle = colour ? (t.correct ? kRight : kWrong) : "";
  const std::string verdict = verdictStyle + say(verdictWord(t), language) + (colour ? kReset : "");
  const Message off = howFarOff(t);
  out << say(resultLine(t), language) << "   "
      << (off.empty()
              ? verdict
              : say(Message("view.verdict-off", {{"verdict", verdict}, {"off", off}}), language))
      << "\n";
}

// What the run took: GPU timings, or the simulator's own time, which is no GPU's.
void printTimings(const Trace& t, std::ostream& out, Language language) {
  for (const Message& line : timingLines(t)) out << say(line, language) << "\n";
}

}  // namespace

void printTraceText(const Trace& t, std::ostream& out, bool colour, Language language,
                    const text::Block* narration) {
  const Params& p = t.params;
  printRunHeader(t, out, language);
  if (t.gpus > 0) printRanksText(t, out, colour, narration, language);
  if (!t.steps.empty() && t.gpus == 0) printSteps(t, out, colour, narration, language);
  if (!t.atomicOrder.empty() && t.atomicOrder.size() <= 64) {
    std::string threads;
    for (const auto& a : t.atomicOrder)
      threads += (threads.empty() ? "" : " ") + std::to_string(a.thread);
    out << say(Message("view.atomic-order", {{"threads", threads}}), language) << "\n";
  }
  if (!t.blockPartials.empty() && t.blockPartials.size() <= 64) {
    std::string partials;
    for (double v : t.blockPartials)
      partials += (partials.empty() ? "" : " ") + formatValue(v, p.type);
    out << say(Message("view.block-partials", {{"partials", partials}}), language) << "\n";
  }
  if (p.printing || !t.kernelOutput.empty()) printKernelOutput(t, out, language);
  for (const auto& note : t.notes)
    out << say(Message("view.note", {{"note", note}}), language) << "\n";
  printResult(t, out, colour, language);
  printTimings(t, out, language);
}

void printLaunchesText(const Trace& t, std::ostream& out, Language language) {
  const LaunchTable table = launchTable(t);
  out << "\n"
      << say(Message("view.launches", {{"launches", table.rows.size()},
                                       {"file", lessonOrThrow(t.params.lesson).hostFile}}),
             language)
      << "\n";
  std::vector<std::string> columns;
  for (const Message& column : table.columns) columns.push_back(say(column, language));
  std::vector<size_t> width(columns.size());
  for (size_t c = 0; c < width.size(); ++c) {
    width[c] = size_t(text::columns(columns[c]));
    for (const auto& row : table.rows) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    out << " ";
    for (size_t c = 0; c < cells.size(); ++c)
      out << " " << std::string(width[c] - size_t(text::columns(cells[c])), ' ') << cells[c];
    out << "\n";
  };
  line(columns);
  for (const auto& row : table.rows) line(row);
}

void printTimelineText(const Trace& t, std::ostream& out, bool colour, Language language) {
  const Timeline tl = buildTimeline(t);
  if (!tl.available) {
    out << "\n" << say(Message("view.timeline-none", {{"why", tl.why}}), language) << "\n";
    return;
  }
  out << "\n"
      << say(tl.measured ? Message("view.timeline-measured")
                         : Message("view.timeline-simulated", {{"schedule", t.params.schedule}}),
             language)
      << "\n";
  out << "  " << say(tl.clockText, language) << "\n";
  const Params& p = t.params;
  // Each column as wide as its widest cell; a late cell says so, and its row's gap is dots.
  std::vector<std::string> columns;
  for (const Message& column : tl.columns) columns.push_back(say(column, language));
  std::vector<std::vector<std::string>> text(tl.rows.size(),
                                             std::vector<std::string>(columns.size()));
  auto width = [](const std::string& s) { return size_t(text::columns(s)); };
  std::vector<size_t> widths(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) widths[c] = width(columns[c]);
  const std::string waiting = say(Message("view.timeline-waiting"), language);
  for (size_t r = 0; r < tl.rows.size(); ++r)
    for (const TimelineCell& cell : tl.rows[r].cells) {
      std::string& s = text[r][size_t(cell.column)];
      if (!s.empty()) s += "; ";
      s += "#" + std::to_string(cell.readTick) + "-" + std::to_string(cell.writeTick) + " " +
           cellText(cell, p.op, p.type);
      if (cell.late)
        s += " " + say(Message("view.timeline-late", {{"level", cell.level}}), language);
      if (cell.staleRead) s += " !";
      for (int gap = cell.level - 1; gap < cell.column; ++gap)
        if (text[r][size_t(gap)].empty()) text[r][size_t(gap)] = waiting;
    }
  for (size_t r = 0; r < tl.rows.size(); ++r)
    for (size_t c = 0; c < columns.size(); ++c) widths[c] = std::max(widths[c], width(text[r][c]));
  auto rowName = [&](int thread) {
    return say(Message("view.timeline-thread", {{"thread", thread}}), language);
  };
  const size_t nameWidth = width(rowName(tl.rows.back().thread));
  out << "  " << std::string(nameWidth, ' ');
  for (size_t c = 0; c < columns.size(); ++c)
    out << "  " << columns[c]
        << std::string(c + 1 < columns.size() ? widths[c] - width(columns[c]) : 0, ' ');
  out << "\n";
  for (size_t r = 0; r < tl.rows.size(); ++r) {
    const std::string name = rowName(tl.rows[r].thread);
    out << "  " << name << std::string(nameWidth - width(name), ' ');
    size_t used = columns.size();  // no padding after the last cell of the row
    while (used > 0 && text[r][used - 1].empty()) --used;
    for (size_t c = 0; c < used; ++c) {
      const std::string& s = text[r][c];
      const bool marked = colour && s.find(" !") != std::string::npos;
      out << "  " << (marked ? kWrong : "") << s << (marked ? kReset : "")
          << std::string(c + 1 < used ? widths[c] - width(s) : 0, ' ');
    }
    out << "\n";
  }
  for (const TimelineEarlyRead& e : tl.earlyReads)
    out << "  " << (colour ? kWrong : "")
        << say(Message("view.timeline-early-read",
                       {{"read", e.readTick}, {"what", e.text}, {"write", e.writeTick}}),
               language)
        << (colour ? kReset : "") << say(Message("view.colon", {{"text", e.sentence}}), language)
        << "\n";
  const int needed = tl.readsAfterTheirWrite + tl.readsBeforeTheirWrite;
  out << "  "
      << say(tl.readsBeforeTheirWrite == 0
                 ? Message("timeline.reads-all-after", {{"reads", needed}})
                 : Message("timeline.reads-before",
                           {{"before", tl.readsBeforeTheirWrite}, {"reads", needed}}),
             language)
      << "\n";
}

}  // namespace rlab::cli
