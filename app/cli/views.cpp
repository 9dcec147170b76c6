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
#include <sstream>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/timeline.hpp"
#include "app/cli/terminal.hpp"
#include "app/cli/terminal_style.hpp"

namespace rlab::cli {

namespace {

// Values a row shows at most, however wide the terminal: both ends of a longer row.
constexpr size_t kMostHead = 48, kMostTail = 16;

std::string spaces(size_t count) {
  return std::string(count, ' ');
}

// What " …  (1000 values)" takes after the first part of an elided row.
int elisionColumns(size_t count) {
  return 3 + 3 + int(std::to_string(count).size()) + 8;
}

// How many of a row's `count` values, each `cell` columns after a space, fit in `columns`: all
// of them, or as many as leave room for the elision marks (at least one).
size_t valuesFitting(size_t count, size_t cell, int columns) {
  if (count <= kMostHead + kMostTail && int(count * (cell + 1)) <= columns) return count;
  const int fit = (columns - elisionColumns(count)) / int(cell + 1);
  return std::min(size_t(std::max(fit, 1)), std::min(count - 1, kMostHead + kMostTail));
}

// The indices a row of `count` values shows when `shown` of them fit: all, or its first ones and
// its last quarter; SIZE_MAX marks where the elision goes.
std::vector<size_t> shownIndices(size_t count, size_t shown) {
  std::vector<size_t> indices;
  if (shown >= count) {
    for (size_t i = 0; i < count; ++i) indices.push_back(i);
    return indices;
  }
  const size_t tail = std::min(shown / 4, kMostTail), head = std::min(shown - tail, kMostHead);
  for (size_t i = 0; i < head; ++i) indices.push_back(i);
  indices.push_back(SIZE_MAX);
  for (size_t i = count - tail; i < count; ++i) indices.push_back(i);
  return indices;
}

// The widest value among those a row could show (its first and last ones).
size_t widestValue(const std::vector<double>& values, size_t first, size_t count,
                   ElementType type) {
  size_t cell = 1;
  for (size_t k = 0; k < count; ++k)
    if (k < kMostHead || count - k <= kMostTail)
      cell = std::max(cell, formatValue(values[first + k], type).size());
  return cell;
}

// A view's words are core messages too (lessons/engine/texts/messages), in the command's language.
std::string say(const Message& m, Language language) {
  return render(m, language);
}

// allreduce: each step as G rows, one per GPU, its chunks with the ranks each one holds, and
// the copies of the step. Every chunk shows the same number of its first values (all where they
// fit); a GPU's chunks that do not fit on one line go on under it.
void printRanksText(const Trace& t, std::ostream& out, bool colour, int width,
                    const text::Block* narration, Language language) {
  const Params& p = t.params;
  const size_t n = size_t(p.n);
  const int chunks = int(t.chunkStarts.size()) - 1;
  size_t cell = 1, label = 3, longestChunk = 0;
  for (int c = 0; c < chunks; ++c)
    longestChunk = std::max(longestChunk, size_t(t.chunkStarts[c + 1] - t.chunkStarts[c]));
  for (const auto& s : t.steps) {
    for (int r = 0; r < p.gpus && s.values.size() >= (r + 1) * n; ++r)
      for (int c = 0; c < chunks; ++c)
        cell = std::max(cell, widestValue(s.values, r * n + size_t(t.chunkStarts[c]),
                                          size_t(t.chunkStarts[c + 1] - t.chunkStarts[c]), p.type));
    for (const auto& rank : s.contains)
      for (unsigned mask : rank) label = std::max(label, ranksText(mask, p.gpus).size());
  }
  const std::string rowStart = "      GPU " + std::to_string(p.gpus - 1) + " ";
  // A chunk: " |", its values, " [ranks]" padded to the widest.
  const int labelColumns = 3 + int(label);
  const int available = width - int(rowStart.size()) - 2;  // the row's closing " |"
  // Values a chunk shows in `columns`: all, or its first ones and " …" (at least one).
  auto valuesInChunk = [&](int columns) {
    if (int(longestChunk * (cell + 1)) <= columns) return longestChunk;
    return size_t(std::max(1, (columns - 2) / int(cell + 1)));
  };
  auto chunkColumns = [&](size_t shown) {
    return 2 + int(shown * (cell + 1)) + (shown < longestChunk ? 2 : 0) + labelColumns;
  };
  // As many values a chunk as let a GPU's chunks share one line; where they cannot share one
  // even with a value each, as many as the lines they take anyway leave room for.
  const int count = std::max(chunks, 1);
  size_t shownPerChunk = valuesInChunk(available / count - 2 - labelColumns);
  const int perLine = std::max(1, available / chunkColumns(shownPerChunk));
  if (perLine < count) {
    const int lines = (count + perLine - 1) / perLine;
    shownPerChunk = valuesInChunk(available / ((count + lines - 1) / lines) - 2 - labelColumns);
  }

  for (size_t k = 0; k < t.steps.size(); ++k) {
    const StepSnapshot& s = t.steps[k];
    const StepSnapshot* previous = k > 0 ? &t.steps[k - 1] : nullptr;
    printWrapped(std::to_string(k) + "  " + say(s.label, language),
                 spaces(4 - std::min<size_t>(4, std::to_string(k).size())), spaces(6), width, out);
    for (int r = 0; r < p.gpus && s.values.size() >= (r + 1) * n; ++r) {
      std::string name = "      GPU " + std::to_string(r);
      std::string line = name + spaces(rowStart.size() - name.size());
      int column = int(rowStart.size());
      for (int c = 0; c < chunks; ++c) {
        const bool changed =
            previous && !previous->contains.empty() && previous->contains[r][c] != s.contains[r][c];
        const char* style = colour && changed ? kChanged : "";
        std::string chunk = " |";
        chunk += style;
        const size_t first = r * n + size_t(t.chunkStarts[c]);
        const size_t count = size_t(t.chunkStarts[c + 1] - t.chunkStarts[c]);
        for (size_t i : shownIndices(count, std::min(shownPerChunk, count))) {
          if (i == SIZE_MAX) {
            chunk += " …";
            break;  // a chunk shows its first values only: the ranks say the rest
          }
          const std::string text = formatValue(s.values[first + i], p.type);
          chunk += ' ' + spaces(cell - std::min(cell, text.size())) + text;
        }
        if (!s.contains.empty()) {
          const std::string held = ranksText(s.contains[r][c], p.gpus);
          chunk += " [" + held + "]" + spaces(label - std::min(label, held.size()));
        }
        chunk += *style ? kReset : "";
        const int chunkColumns = visibleColumns(chunk);
        if (c > 0 && column + chunkColumns + 2 > width) {  // on under the GPU's name
          out << line << " |\n";
          line = spaces(rowStart.size());
          column = int(rowStart.size());
        }
        line += chunk;
        column += chunkColumns;
      }
      out << line << " |\n";
    }
    for (const Transfer& x : s.transfers)
      printWrapped(say(Message(x.combined ? "view.transfer-combined" : "view.transfer-copied",
                               {{"from", x.from},
                                {"to", x.to},
                                {"first", x.begin},
                                {"last", x.end - 1},
                                {"bytes", x.bytes}}),
                       language),
                   spaces(6), spaces(8), width, out);
    if (narration && k < narration->items.size()) printNarration(narration->items[k], out, width);
  }
}

// What the kernel printed, every line, under a heading that says how many and from where.
void printKernelOutput(const Trace& t, std::ostream& out, int width, Language language) {
  const size_t count = t.kernelOutput.size();
  printWrapped(say(Message(t.backend == "gpu" ? "view.kernel-output-gpu" : "view.kernel-output-sim",
                           {{"lines", count}}),
                   language),
               "", "  ", width, out);
  for (const std::string& line : t.kernelOutput) printWrapped(line, "  ", "    ", width, out);
}

// --op subtract: what each kernel that offers it gave for the same data.
void printOtherKernels(const Trace& t, std::ostream& out, int width, Language language) {
  if (t.otherKernels.empty()) return;
  printWrapped(say(Message("view.same-data", {{"op", name(t.params.op)}}), language), "", "  ",
               width, out);
  auto padded = [](const std::string& name) {
    return name + spaces(size_t(std::max(1, 24 - text::columns(name))));
  };
  for (const KernelAnswer& a : t.otherKernels) {
    const bool thisRun = a.lesson == t.params.lesson && a.variant == t.params.variant;
    const std::string kernel = a.lesson + " " + a.variant;
    printWrapped(
        padded(kernel) +
            (a.notRun.empty() ? formatValue(a.result, t.params.type)
                              : say(Message("view.not-run", {{"why", a.notRun}}), language)) +
            (thisRun ? "   " + say(Message("view.this-run"), language) : ""),
        "  ", spaces(26), width, out);
  }
  out << "  " << padded(say(Message("view.host-loop"), language))
      << formatValue(t.expected, t.params.type) << "\n";
}

std::string percent(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

// The step's global loads and stores (rlab run --memory): a summary, then each warp's request.
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

// A gather step (coarsening): the elements each of the first threads read, in its order, and
// the values, then the last threads (where a short last block reads fewer), as recorded.
void printGathers(const StepSnapshot& s, ElementType type, std::ostream& out, int width,
                  Language language) {
  constexpr size_t kFirst = 6, kLast = 2;
  const size_t threads = s.gathers.size();
  auto printThread = [&](size_t t) {
    const ThreadGather& g = s.gathers[t];
    std::string elements, values;
    for (size_t k = 0; k < g.elements.size(); ++k) {
      elements += (k ? " + " : "") + s.array + "[" + std::to_string(g.elements[k]) + "]";
      values += (k ? " + " : "") + formatValue(g.values[k], type);
    }
    printWrapped(say(g.elements.empty()
                         ? Message("view.gather-none", {{"thread", t}})
                         : Message("view.gather-thread",
                                   {{"thread", t}, {"elements", elements}, {"values", values}}),
                     language),
                 spaces(8), spaces(10), width, out);
  };
  for (size_t t = 0; t < threads && t < kFirst; ++t) printThread(t);
  if (threads <= kFirst + kLast) {
    for (size_t t = kFirst; t < threads; ++t) printThread(t);
    return;
  }
  printWrapped(say(Message("view.gather-more", {{"threads", threads - kFirst - kLast}}), language),
               spaces(8), spaces(10), width, out);
  for (size_t t = threads - kLast; t < threads; ++t) printThread(t);
}

// The run's first lines: what ran, with which parameters, where.
void printRunHeader(const Trace& t, std::ostream& out, int width, Language language) {
  const Params& p = t.params;
  const std::string device = (t.backend == "gpu" ? "GPU: " : "") + say(t.device, language);
  if (t.gpus > 0) {
    printWrapped(p.lesson + " (" + p.variant + ")  gpus=" + std::to_string(p.gpus) + "  " +
                     say(Message("view.n-per-gpu", {{"n", p.n}}), language) + "  " + name(p.op) +
                     "  " + name(p.type) + "  data=" + t.dataLabel,
                 "", "  ", width, out);
    printWrapped(device, "", "  ", width, out);
    return;
  }
  std::string header =
      t.exercise.empty()
          ? p.lesson + " (" + p.variant + ")"
          : say(Message("view.exercise-kernel", {{"exercise", t.exercise}}), language);
  header += "  n=" + std::to_string(p.n) + "  block=" + std::to_string(p.block) + "  " +
            name(p.op) + "  " + name(p.type) +
            "  data=" + (t.dataLabel.empty() ? p.data : t.dataLabel);
  if (t.exercise.empty()) {
    const VariantInfo& variant = *findLesson(p.lesson)->findVariant(p.variant);
    if (variant.barrierSwitch) header += std::string("  barrier=") + (p.barrier ? "on" : "off");
    if (variant.syncwarpSwitch) header += std::string("  syncwarp=") + (p.syncwarp ? "on" : "off");
    header += std::string(p.perturb ? "  perturb" : "") + (p.printing ? "  printf" : "") +
              (p.delayThread >= 0 ? "  delay=" + delayText(p) : "");
  }
  if (t.exercise.empty() && p.perThread > 0)
    header += "  per-thread=" + std::to_string(p.perThread) + (p.loadAdd ? "" : "  no-load-add");
  printWrapped(header, "", "  ", width, out);
  printWrapped(device, "", "  ", width, out);
}

// Who worked in a step: "   4 threads, 1 warp, 2-way bank conflict"; empty for the input.
std::string workersText(const StepSnapshot& s, size_t k, Language language) {
  if (k == 0 || s.active.empty()) return "";
  std::vector<Message> worked = {Message("view.threads", {{"threads", s.active.size()}})};
  if (!s.activeWarps.empty())
    worked.push_back(Message("view.warps", {{"warps", s.activeWarps.size()}}));
  if (s.bankConflictDegree > 1)
    worked.push_back(Message("view.bank-conflict", {{"ways", s.bankConflictDegree}}));
  return "   " + say(Message("view.list", {{"items", worked}}), language);
}

// One line per step where the terminal is wide enough: its number and label, the array (both
// ends of a long one; changed cells and cells written by working threads coloured) and who
// worked. Where it is not, the array goes under the label, and who worked after whichever of
// the two has room for it. Then the step's stale reads and narration.
void printSteps(const Trace& t, std::ostream& out, bool colour, int width,
                const text::Block* narration, Language language) {
  const Params& p = t.params;
  size_t widestLabel = 5, widestWorkers = 0, cell = 1;
  std::vector<std::string> labels, workers;
  for (size_t k = 0; k < t.steps.size(); ++k) {
    const StepSnapshot& s = t.steps[k];
    labels.push_back(say(s.label, language));
    workers.push_back(workersText(s, k, language));
    widestLabel = std::max(widestLabel, size_t(visibleColumns(labels.back())));
    widestWorkers = std::max(widestWorkers, size_t(visibleColumns(workers.back())));
    cell = std::max(cell, widestValue(s.values, 0, s.values.size(), p.type));
  }
  // One line a step where every row shows all its values, or at least 8 of them.
  const int oneLineColumns = width - int(6 + widestLabel + 2 + widestWorkers);
  const int underColumns = width - 5;  // the array under the label, from column 6
  bool oneLine = true;
  for (const auto& s : t.steps)
    oneLine &= valuesFitting(s.values.size(), cell, oneLineColumns) >=
               std::min<size_t>(s.values.size(), 8);

  const std::vector<double>* previous = nullptr;
  for (size_t k = 0; k < t.steps.size(); ++k) {
    const StepSnapshot& s = t.steps[k];
    std::set<int> written;
    for (const auto& pair : s.pairs) written.insert(pair.second);
    std::string row;
    const size_t shown =
        valuesFitting(s.values.size(), cell, oneLine ? oneLineColumns : underColumns);
    for (size_t i : shownIndices(s.values.size(), shown)) {
      if (i == SIZE_MAX) {
        row += "  …";
        continue;
      }
      const std::string text = formatValue(s.values[i], p.type);
      const bool changed = previous && i < previous->size() && (*previous)[i] != s.values[i];
      const char* style = !colour                    ? ""
                          : int(i) == s.racedElement ? kWrong
                          : changed                  ? kChanged
                          : written.count(int(i))    ? kWorked
                                                     : "";
      row +=
          ' ' + spaces(cell - std::min(cell, text.size())) + style + text + (*style ? kReset : "");
    }
    if (shown < s.values.size())
      row += "  " + say(Message("view.values", {{"values", s.values.size()}}), language);
    const std::string number = std::to_string(k);
    const std::string start = spaces(4 - std::min<size_t>(4, number.size())) + number + "  ";
    const std::string& label = labels[k];
    const std::string& who = workers[k];
    if (oneLine) {
      out << start << label << spaces(widestLabel - size_t(visibleColumns(label)) + 2) << row << who
          << "\n";
    } else if (visibleColumns(start + label + who) <= width) {
      out << start << label << who << "\n" << spaces(5) << row << "\n";
    } else {
      printWrapped(label, start, spaces(6), width, out);
      if (5 + visibleColumns(row + who) <= width)
        out << spaces(5) << row << who << "\n";
      else
        out << spaces(5) << row << "\n" << spaces(6) << who.substr(3) << "\n";
    }
    if (!s.gathers.empty()) printGathers(s, p.type, out, width, language);
    if (k > 0 && t.memoryRecorded) printMemoryStep(s, out, width, language);
    if (s.racedElement >= 0)
      printWrapped(
          std::string(colour ? kWrong : "") +
              say(Message("view.raced-element",
                          {{"element", s.array + "[" + std::to_string(s.racedElement) + "]"}}),
                  language) +
              (colour ? kReset : ""),
          spaces(8), spaces(10), width, out);
    for (const Message& stale : staleReads(s, p.type))
      printWrapped(std::string(colour ? kWrong : "") +
                       say(Message("view.stale-read", {{"read", stale}}), language) +
                       (colour ? kReset : ""),
                   spaces(8), spaces(10), width, out);
    if (narration && k < narration->items.size()) printNarration(narration->items[k], out, width);
    previous = &s.values;
  }
}

// The result against the expected value, or, for an operator with no single answer, every
// kernel's answer beside the host's loop.
void printResult(const Trace& t, std::ostream& out, bool colour, int width, Language language) {
  if (!t.singleAnswer) {
    printOtherKernels(t, out, width, language);
    printWrapped(say(resultLine(t), language) + "   " + say(verdictWord(t), language), "", "  ",
                 width, out);
    return;
  }
  const char* verdictStyle = colour ? (t.correct ? kRight : kWrong) : "";
  const std::string verdict = verdictStyle + say(verdictWord(t), language) + (colour ? kReset : "");
  const Message off = howFarOff(t);
  printWrapped(
      say(resultLine(t), language) + "   " +
          (off.empty()
               ? verdict
               : say(Message("view.verdict-off", {{"verdict", verdict}, {"off", off}}), language)),
      "", "  ", width, out);
}

// What the run took: GPU timings, or the simulator's own time, which is no GPU's.
void printTimings(const Trace& t, std::ostream& out, int width, Language language) {
  for (const Message& line : timingLines(t))
    printWrapped(say(line, language), "", "  ", width, out);
}

}  // namespace

void printTraceText(const Trace& t, std::ostream& out, bool colour, Language language, int width,
                    const text::Block* narration) {
  const Params& p = t.params;
  printRunHeader(t, out, width, language);
  if (t.gpus > 0) printRanksText(t, out, colour, width, narration, language);
  if (!t.steps.empty() && t.gpus == 0) printSteps(t, out, colour, width, narration, language);
  if (!t.atomicOrder.empty() && t.atomicOrder.size() <= 64) {
    std::string threads;
    for (const auto& a : t.atomicOrder)
      threads += (threads.empty() ? "" : " ") + std::to_string(a.thread);
    printWrapped(say(Message("view.atomic-order", {{"threads", threads}}), language), "", "  ",
                 width, out);
  }
  if (!t.blockPartials.empty() && t.blockPartials.size() <= 64) {
    std::string partials;
    for (double v : t.blockPartials)
      partials += (partials.empty() ? "" : " ") + formatValue(v, p.type);
    printWrapped(say(Message("view.block-partials", {{"partials", partials}}), language), "", "  ",
                 width, out);
  }
  if (p.printing || !t.kernelOutput.empty()) printKernelOutput(t, out, width, language);
  for (const auto& note : t.notes)
    printWrapped(say(Message("view.note", {{"note", note}}), language), "", "      ", width, out);
  printResult(t, out, colour, width, language);
  printTimings(t, out, width, language);
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
