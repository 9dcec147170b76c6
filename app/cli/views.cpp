// Text views for the terminal of a run: its header, steps, ranks, result and timings. The views
// rlab run adds on request (--memory, --timeline, --launches) are in run_option_views.cpp; those
// of the other jobs (lessons, races, witnesses, bench tables, sanitizer reports) are in
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
#include "app/cli/run_option_views.hpp"
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

// How an allreduce's steps are laid out: the widest value and ranks label, the start of a GPU's
// row (as wide as the last GPU's name), and how many values each chunk shows.
struct RanksLayout {
  size_t cell = 1, label = 3, shownPerChunk = 0;
  std::string rowStart;
};

// The layout every step of the run shares, from the widest value and ranks label of all of them.
RanksLayout ranksLayout(const Trace& t, int width) {
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
  return {cell, label, shownPerChunk, rowStart};
}

// Chunk `c` of GPU `r` in step `s`: " |", its first values, " [ranks]" it holds; coloured where
// the ranks it holds changed since the previous step.
std::string chunkText(const Trace& t, const StepSnapshot& s, const StepSnapshot* previous, int r,
                      int c, const RanksLayout& layout, bool colour) {
  const Params& p = t.params;
  const size_t n = size_t(p.n);
  const bool changed =
      previous && !previous->contains.empty() && previous->contains[r][c] != s.contains[r][c];
  const char* style = colour && changed ? kChanged : "";
  std::string chunk = " |";
  chunk += style;
  const size_t first = r * n + size_t(t.chunkStarts[c]);
  const size_t count = size_t(t.chunkStarts[c + 1] - t.chunkStarts[c]);
  for (size_t i : shownIndices(count, std::min(layout.shownPerChunk, count))) {
    if (i == SIZE_MAX) {
      chunk += " …";
      break;  // a chunk shows its first values only: the ranks say the rest
    }
    const std::string text = formatValue(s.values[first + i], p.type);
    chunk += ' ' + spaces(layout.cell - std::min(layout.cell, text.size())) + text;
  }
  if (!s.contains.empty()) {
    const std::string held = ranksText(s.contains[r][c], p.gpus);
    chunk += " [" + held + "]" + spaces(layout.label - std::min(layout.label, held.size()));
  }
  chunk += *style ? kReset : "";
  return chunk;
}

// GPU `r`'s row of step `s`: its name, then its chunks; those that do not fit on one line go on
// under it.
void printGpuRow(const Trace& t, const StepSnapshot& s, const StepSnapshot* previous, int r,
                 const RanksLayout& layout, std::ostream& out, bool colour, int width) {
  const int chunks = int(t.chunkStarts.size()) - 1;
  const std::string& rowStart = layout.rowStart;
  std::string name = "      GPU " + std::to_string(r);
  std::string line = name + spaces(rowStart.size() - name.size());
  int column = int(rowStart.size());
  for (int c = 0; c < chunks; ++c) {
    const std::string chunk = chunkText(t, s, previous, r, c, layout, colour);
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

// allreduce: each step as G rows, one per GPU, its chunks with the ranks each one holds, and
// the copies of the step. Every chunk shows the same number of its first values (all where they
// fit); a GPU's chunks that do not fit on one line go on under it.
void printRanksText(const Trace& t, std::ostream& out, bool colour, int width,
                    const text::Block* narration, Language language) {
  const Params& p = t.params;
  const size_t n = size_t(p.n);
  const RanksLayout layout = ranksLayout(t, width);
  for (size_t k = 0; k < t.steps.size(); ++k) {
    const StepSnapshot& s = t.steps[k];
    const StepSnapshot* previous = k > 0 ? &t.steps[k - 1] : nullptr;
    printWrapped(std::to_string(k) + "  " + say(s.label, language),
                 spaces(4 - std::min<size_t>(4, std::to_string(k).size())), spaces(6), width, out);
    for (int r = 0; r < p.gpus && s.values.size() >= (r + 1) * n; ++r)
      printGpuRow(t, s, previous, r, layout, out, colour, width);
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
  printWrapped(say(Message(t.backend == BackendChoice::Gpu ? "view.kernel-output-gpu"
                                                           : "view.kernel-output-sim",
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
  const std::string device =
      (t.backend == BackendChoice::Gpu ? "GPU: " : "") + say(t.device, language);
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

// What the steps' lines are laid out by: each step's label and who worked in it, the widest
// label and value, and whether every step fits on one line.
struct StepsLayout {
  std::vector<std::string> labels, workers;
  size_t widestLabel = 5, cell = 1;
  int oneLineColumns = 0, underColumns = 0;
  bool oneLine = true;
};

StepsLayout stepsLayout(const Trace& t, int width, Language language) {
  const Params& p = t.params;
  StepsLayout l;
  size_t widestWorkers = 0;
  for (size_t k = 0; k < t.steps.size(); ++k) {
    const StepSnapshot& s = t.steps[k];
    l.labels.push_back(say(s.label, language));
    l.workers.push_back(workersText(s, k, language));
    l.widestLabel = std::max(l.widestLabel, size_t(visibleColumns(l.labels.back())));
    widestWorkers = std::max(widestWorkers, size_t(visibleColumns(l.workers.back())));
    l.cell = std::max(l.cell, widestValue(s.values, 0, s.values.size(), p.type));
  }
  // One line a step where every row shows all its values, or at least 8 of them.
  l.oneLineColumns = width - int(6 + l.widestLabel + 2 + widestWorkers);
  l.underColumns = width - 5;  // the array under the label, from column 6
  for (const auto& s : t.steps)
    l.oneLine &= valuesFitting(s.values.size(), l.cell, l.oneLineColumns) >=
                 std::min<size_t>(s.values.size(), 8);
  return l;
}

// A step's array as its row shows it: both ends of a long one, the raced cell, changed cells and
// cells written by working threads coloured, and how many values it holds where some are left out.
std::string stepRow(const StepSnapshot& s, const std::vector<double>* previous,
                    const StepsLayout& l, ElementType type, bool colour, Language language) {
  const size_t cell = l.cell;
  std::set<int> written;
  for (const auto& pair : s.pairs) written.insert(pair.second);
  std::string row;
  const size_t shown =
      valuesFitting(s.values.size(), cell, l.oneLine ? l.oneLineColumns : l.underColumns);
  for (size_t i : shownIndices(s.values.size(), shown)) {
    if (i == SIZE_MAX) {
      row += "  …";
      continue;
    }
    const std::string text = formatValue(s.values[i], type);
    const bool changed = previous && i < previous->size() && (*previous)[i] != s.values[i];
    const char* style = !colour                    ? ""
                        : int(i) == s.racedElement ? kWrong
                        : changed                  ? kChanged
                        : written.count(int(i))    ? kWorked
                                                   : "";
    row += ' ' + spaces(cell - std::min(cell, text.size())) + style + text + (*style ? kReset : "");
  }
  if (shown < s.values.size())
    row += "  " + say(Message("view.values", {{"values", s.values.size()}}), language);
  return row;
}

// Step `k`'s number, label, row and who worked: on one line, or the row under the label and who
// worked after whichever of the two has room for it.
void printStepLines(size_t k, const std::string& row, const StepsLayout& l, std::ostream& out,
                    int width) {
  const std::string number = std::to_string(k);
  const std::string start = spaces(4 - std::min<size_t>(4, number.size())) + number + "  ";
  const std::string& label = l.labels[k];
  const std::string& who = l.workers[k];
  if (l.oneLine) {
    out << start << label << spaces(l.widestLabel - size_t(visibleColumns(label)) + 2) << row << who
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
}

// Under step `k`'s lines: what its threads gathered, its memory requests, the element raced on
// and its stale reads.
void printStepFindings(const Trace& t, size_t k, std::ostream& out, bool colour, int width,
                       Language language) {
  const Params& p = t.params;
  const StepSnapshot& s = t.steps[k];
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
}

// One line per step where the terminal is wide enough: its number and label, the array (both
// ends of a long one; changed cells and cells written by working threads coloured) and who
// worked. Where it is not, the array goes under the label, and who worked after whichever of
// the two has room for it. Then the step's stale reads and narration.
void printSteps(const Trace& t, std::ostream& out, bool colour, int width,
                const text::Block* narration, Language language) {
  const StepsLayout layout = stepsLayout(t, width, language);
  const std::vector<double>* previous = nullptr;
  for (size_t k = 0; k < t.steps.size(); ++k) {
    const StepSnapshot& s = t.steps[k];
    printStepLines(k, stepRow(s, previous, layout, t.params.type, colour, language), layout, out,
                   width);
    printStepFindings(t, k, out, colour, width, language);
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

}  // namespace rlab::cli
