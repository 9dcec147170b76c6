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

// allreduce: each step as G rows, one per GPU, its chunks with the ranks each one holds, and
// the copies of the step.
void printRanksText(const Trace& t, std::ostream& out, bool colour, const text::Block* narration) {
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
    out << std::setw(4) << k << "  " << s.label << "\n";
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
      out << "      GPU " << x.from << " -> GPU " << x.to << ": elements " << x.begin << ".."
          << x.end - 1 << ", " << x.bytes << " B, " << (x.combined ? "combined" : "copied over")
          << "\n";
    if (narration && k < narration->items.size()) printNarration(narration->items[k], out);
  }
}

// What the kernel printed, every line, under a heading that says how many and from where.
void printKernelOutput(const Trace& t, std::ostream& out) {
  const size_t count = t.kernelOutput.size();
  out << "kernel output (printf), " << count << (count == 1 ? " line" : " lines") << " from "
      << (t.backend == "gpu" ? "the GPU" : "the simulator, in the order its schedule ran them")
      << (count ? ":" : "") << "\n";
  for (const std::string& line : t.kernelOutput) out << "  " << line << "\n";
}

// --op subtract: what each kernel that offers it gave for the same data.
void printOtherKernels(const Trace& t, std::ostream& out) {
  if (t.otherKernels.empty()) return;
  out << "the same data through every kernel that offers " << name(t.params.op) << ":\n";
  for (const KernelAnswer& a : t.otherKernels) {
    const bool thisRun = a.lesson == t.params.lesson && a.variant == t.params.variant;
    out << "  " << std::left << std::setw(24) << (a.lesson + " " + a.variant) << std::right
        << (a.notRun.empty() ? formatValue(a.result, t.params.type) : "not run: " + a.notRun)
        << (thisRun ? "   <- this run" : "") << "\n";
  }
  out << "  " << std::left << std::setw(24) << "host loop" << std::right
      << formatValue(t.expected, t.params.type) << "\n";
}

// The step's global loads and stores (rlab run --memory): a summary, then each warp's request.
void printMemoryStep(const StepSnapshot& s, std::ostream& out) {
  const MemoryStepSummary sum = summarizeMemory(s.memory);
  if (sum.requests == 0) {
    out << "        memory: no global loads or stores\n";
    return;
  }
  out << std::fixed << std::setprecision(1) << "        memory: " << sum.requests
      << (sum.requests == 1 ? " warp request, " : " warp requests, ") << sum.sectors
      << " sectors for " << sum.usefulBytes << " useful bytes (" << sum.efficiency
      << "% efficiency; " << sum.minSectors << " sectors at best)\n";
  constexpr size_t kShownRequests = 16;
  for (size_t k = 0; k < s.memory.size() && k < kShownRequests; ++k) {
    const WarpMemoryRequest& r = s.memory[k];
    out << "          block " << r.block << " warp " << r.warp << (r.write ? " store" : " load ")
        << " arg " << r.buffer << ": " << r.lanes.size()
        << (r.lanes.size() == 1 ? " lane, " : " lanes, ") << r.sectors
        << (r.sectors == 1 ? " sector" : " sectors") << " (" << r.minSectors << " at best), "
        << r.lines << (r.lines == 1 ? " line, " : " lines, ") << r.usefulBytes << " useful bytes, "
        << sectorEfficiency(r) << "%\n";
  }
  if (s.memory.size() > kShownRequests)
    out << "          … and " << s.memory.size() - kShownRequests
        << " more (--format json has all)\n";
  out << std::defaultfloat;
}

}  // namespace

namespace {

// The run's first lines: what ran, with which parameters, where.
void printRunHeader(const Trace& t, std::ostream& out) {
  const Params& p = t.params;
  if (t.gpus > 0) {
    out << p.lesson << " (" << p.variant << ")  gpus=" << p.gpus << "  n=" << p.n << " per GPU  "
        << name(p.op) << "  " << name(p.type) << "  data=" << t.dataLabel << "\n"
        << (t.backend == "gpu" ? "GPU: " : "") << t.device << "\n";
    return;
  }
  if (t.exercise.empty())
    out << p.lesson << " (" << p.variant << ")";
  else
    out << "exercise " << t.exercise << " (your kernel)";
  out << "  n=" << p.n << "  block=" << p.block << "  " << name(p.op) << "  " << name(p.type)
      << "  data=" << (t.dataLabel.empty() ? p.data : t.dataLabel);
  const VariantInfo& variant = *findLesson(p.lesson)->findVariant(p.variant);
  if (t.exercise.empty()) {
    if (variant.barrierSwitch) out << "  barrier=" << (p.barrier ? "on" : "off");
    if (variant.syncwarpSwitch) out << "  syncwarp=" << (p.syncwarp ? "on" : "off");
    out << (p.perturb ? "  perturbed" : "") << (p.printing ? "  printf" : "")
        << (p.delayThread >= 0 ? "  delay=" + delayText(p) : "");
  }
  if (t.exercise.empty() && p.perThread > 0)
    out << "  per-thread=" << p.perThread << (p.loadAdd ? "" : "  no load add");
  out << "\n" << (t.backend == "gpu" ? "GPU: " : "") << t.device << "\n";
}

// One line per step: its label, the array (both ends of a long one, changed cells and cells
// written by working threads coloured), who worked, then its stale reads and narration.
void printSteps(const Trace& t, std::ostream& out, bool colour, const text::Block* narration) {
  const Params& p = t.params;
  size_t widestLabel = 5;
  for (const auto& s : t.steps) widestLabel = std::max(widestLabel, s.label.size());
  size_t cell = 1;
  for (const auto& s : t.steps)
    for (size_t i = 0; i < std::min(s.values.size(), kShownValues); ++i)
      cell = std::max(cell, formatValue(s.values[i], p.type).size());
  const std::vector<double>* previous = nullptr;
  for (size_t k = 0; k < t.steps.size(); ++k) {
    const StepSnapshot& s = t.steps[k];
    std::set<int> written;
    for (const auto& pair : s.pairs) written.insert(pair.second);
    out << std::setw(4) << k << "  " << s.label
        << std::string(widestLabel - s.label.size() + 2, ' ');
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
      out << "  (" << s.values.size() << " values)";
    }
    if (k > 0 && !s.active.empty()) {
      out << "   " << s.active.size() << (s.active.size() == 1 ? " thread" : " threads");
      if (!s.activeWarps.empty())
        out << ", " << s.activeWarps.size() << (s.activeWarps.size() == 1 ? " warp" : " warps");
      if (s.bankConflictDegree > 1) out << ", " << s.bankConflictDegree << "-way bank conflict";
    }
    out << "\n";
    if (k > 0 && t.memoryRecorded) printMemoryStep(s, out);
    for (const std::string& stale : staleReads(s, p.type))
      out << "        " << (colour ? kWrong : "") << "stale read: " << stale
          << (colour ? kReset : "") << "\n";
    if (narration && k < narration->items.size()) printNarration(narration->items[k], out);
    previous = &s.values;
  }
}

// The result against the expected value, or, for an operator with no single answer, every
// kernel's answer beside the host's loop.
void printResult(const Trace& t, std::ostream& out, bool colour) {
  const Params& p = t.params;
  if (!t.singleAnswer) {
    printOtherKernels(t, out);
    out << "result " << formatValue(t.result, p.type) << "   host loop, left to right "
        << formatValue(t.expected, p.type) << "   no single right answer (" << name(p.op)
        << " is not associative)\n";
    return;
  }
  const char* verdictStyle = colour ? (t.correct ? kRight : kWrong) : "";
  out << "result " << formatValue(t.result, p.type) << "   expected "
      << formatValue(t.expected, p.type);
  if (t.tolerance > 0) out << " (± " << std::setprecision(3) << t.tolerance << ")";
  out << "   " << verdictStyle << (t.correct ? "correct" : "WRONG") << (colour ? kReset : "");
  if (!howFarOff(t).empty()) out << " (" << howFarOff(t) << ")";
  out << "\n";
}

// What the run took: GPU timings, or the simulator's own time, which is no GPU's.
void printTimings(const Trace& t, std::ostream& out) {
  const Timings& m = t.timings;
  if (m.measured && t.gpus > 0) {
    out << std::setprecision(4) << "all-reduce " << m.kernelMs << " ms (median of " << m.repetitions
        << "), algorithm bandwidth " << m.gbPerSecond << " GB/s, bus bandwidth " << m.busGBs
        << " GB/s = " << m.copyFraction * 100 << "% of a peer copy of the same bytes ("
        << m.peerCopyGBs << " GB/s)\n";
  } else if (m.measured) {
    out << std::setprecision(4) << "kernel " << m.kernelMs << " ms (median of " << m.repetitions
        << "), with copies " << m.withCopiesMs << " ms, " << m.gbPerSecond
        << " GB/s = " << m.copyFraction * 100 << "% of copy bandwidth, CPU loop " << m.cpuMs
        << " ms, CUB " << m.cubMs << " ms (" << m.cubRatio << "x CUB)\n";
  } else if (t.backend == "sim") {
    out << std::setprecision(3) << "simulated in " << m.simSeconds
        << " s (CPU time of the simulator, not a GPU time)\n";
  }
}

}  // namespace

void printTraceText(const Trace& t, std::ostream& out, bool colour, const text::Block* narration) {
  const Params& p = t.params;
  printRunHeader(t, out);
  if (t.gpus > 0) printRanksText(t, out, colour, narration);
  if (!t.steps.empty() && t.gpus == 0) printSteps(t, out, colour, narration);
  if (!t.atomicOrder.empty() && t.atomicOrder.size() <= 64) {
    out << "atomics landed in this order:";
    for (const auto& a : t.atomicOrder) out << ' ' << a.thread;
    out << "\n";
  }
  if (!t.blockPartials.empty() && t.blockPartials.size() <= 64) {
    out << "block partials:";
    for (double v : t.blockPartials) out << ' ' << formatValue(v, p.type);
    out << "\n";
  }
  if (p.printing || !t.kernelOutput.empty()) printKernelOutput(t, out);
  for (const auto& note : t.notes) out << "note: " << note << "\n";
  printResult(t, out, colour);
  printTimings(t, out);
}

void printLaunchesText(const Trace& t, std::ostream& out) {
  const LaunchTable table = launchTable(t);
  out << "\n"
      << table.rows.size() << (table.rows.size() == 1 ? " launch" : " launches") << " from "
      << lessonOrThrow(t.params.lesson).hostFile << ":\n";
  std::vector<size_t> width(table.columns.size());
  for (size_t c = 0; c < width.size(); ++c) {
    width[c] = table.columns[c].size();
    for (const auto& row : table.rows) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    out << " ";
    for (size_t c = 0; c < cells.size(); ++c)
      out << " " << std::string(width[c] - cells[c].size(), ' ') << cells[c];
    out << "\n";
  };
  line(table.columns);
  for (const auto& row : table.rows) line(row);
}

void printTimelineText(const Trace& t, std::ostream& out, bool colour) {
  const Timeline tl = buildTimeline(t);
  out << "\ntimeline";
  if (!tl.available) {
    out << ": " << tl.why << "\n";
    return;
  }
  out << (tl.measured ? " (measured on the GPU)"
                      : " (simulator, schedule " + t.params.schedule + ")")
      << ": one row per thread, the levels as columns; #R-W: the tick it read at and the tick it "
         "wrote at, counting every read and write in order\n";
  out << "  " << tl.clockText << "\n";
  const Params& p = t.params;
  // Each column as wide as its widest cell; a late cell says so, and its row's gap is dots.
  std::vector<std::vector<std::string>> text(tl.rows.size(),
                                             std::vector<std::string>(tl.columns.size()));
  std::vector<size_t> width(tl.columns.size());
  for (size_t c = 0; c < tl.columns.size(); ++c) width[c] = tl.columns[c].size();
  for (size_t r = 0; r < tl.rows.size(); ++r)
    for (const TimelineCell& cell : tl.rows[r].cells) {
      std::string& s = text[r][size_t(cell.column)];
      if (!s.empty()) s += "; ";
      s += "#" + std::to_string(cell.readTick) + "-" + std::to_string(cell.writeTick) + " " +
           cellText(cell, p.op, p.type);
      if (cell.late) s += " (level " + std::to_string(cell.level) + ", late)";
      if (cell.staleRead) s += " !";
      for (int gap = cell.level - 1; gap < cell.column; ++gap)
        if (text[r][size_t(gap)].empty()) text[r][size_t(gap)] = "...waiting...";
    }
  for (size_t r = 0; r < tl.rows.size(); ++r)
    for (size_t c = 0; c < tl.columns.size(); ++c) width[c] = std::max(width[c], text[r][c].size());
  const std::string rowName = "thread " + std::to_string(tl.rows.back().thread);
  out << "  " << std::string(rowName.size(), ' ');
  for (size_t c = 0; c < tl.columns.size(); ++c)
    out << "  " << tl.columns[c]
        << std::string(c + 1 < tl.columns.size() ? width[c] - tl.columns[c].size() : 0, ' ');
  out << "\n";
  for (size_t r = 0; r < tl.rows.size(); ++r) {
    const std::string name = "thread " + std::to_string(tl.rows[r].thread);
    out << "  " << name << std::string(rowName.size() - name.size(), ' ');
    size_t used = tl.columns.size();  // no padding after the last cell of the row
    while (used > 0 && text[r][used - 1].empty()) --used;
    for (size_t c = 0; c < used; ++c) {
      const std::string& s = text[r][c];
      const bool marked = colour && s.find(" !") != std::string::npos;
      out << "  " << (marked ? kWrong : "") << s << (marked ? kReset : "")
          << std::string(c + 1 < used ? width[c] - s.size() : 0, ' ');
    }
    out << "\n";
  }
  for (const TimelineEarlyRead& e : tl.earlyReads)
    out << "  " << (colour ? kWrong : "") << "#" << e.readTick << " " << e.text << " (#"
        << e.writeTick << ")" << (colour ? kReset : "") << ": " << e.sentence << "\n";
  const int needed = tl.readsAfterTheirWrite + tl.readsBeforeTheirWrite;
  if (tl.readsBeforeTheirWrite == 0)
    out << "  every read of a value written at an earlier level (" << needed
        << ") came after that write\n";
  else
    out << "  " << tl.readsBeforeTheirWrite << " of " << needed
        << " reads of a value written at an earlier level came before that write\n";
}

}  // namespace rlab::cli
