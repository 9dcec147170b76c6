// Text views for the terminal: a run step by step, the lessons, a race's histogram, bench
// tables, a sanitizer report. They read results; they compute nothing.
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

namespace rlab::cli {

namespace {

constexpr size_t kShownValues = 24;  // per row; longer rows show both ends
constexpr size_t kShownHazards = 20;

const char* const kReset = "\033[0m";
const char* const kChanged = "\033[1;33m";  // bold yellow: changed in this step
const char* const kWorked = "\033[36m";     // cyan: written by a working thread
const char* const kWrong = "\033[1;31m";
const char* const kRight = "\033[1;32m";

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

void printTraceText(const Trace& t, std::ostream& out, bool colour, const text::Block* narration) {
  const Params& p = t.params;
  if (t.gpus > 0) {
    out << p.lesson << " (" << p.variant << ")  gpus=" << p.gpus << "  n=" << p.n << " per GPU  "
        << name(p.op) << "  " << name(p.type) << "  data=" << t.dataLabel << "\n"
        << (t.backend == "gpu" ? "GPU: " : "") << t.device << "\n";
    printRanksText(t, out, colour, narration);
  }
  if (t.gpus == 0) {
    if (t.exercise.empty())
      out << p.lesson << " (" << p.variant << ")";
    else
      out << "exercise " << t.exercise << " (your kernel)";
    out << "  n=" << p.n << "  block=" << p.block << "  " << name(p.op) << "  " << name(p.type)
        << "  data=" << (t.dataLabel.empty() ? p.data : t.dataLabel);
    const LessonInfo& lesson = *findLesson(p.lesson);
    if (t.exercise.empty() &&
        (lesson.switchableBarrier || lesson.findVariant(p.variant)->barrierSwitch))
      out << "  barrier=" << (p.barrier ? "on" : "off") << (p.perturb ? "  perturbed" : "")
          << (p.printing ? "  printf" : "")
          << (p.delayThread >= 0 ? "  delay=" + delayText(p) : "");
    if (t.exercise.empty() && p.perThread > 0)
      out << "  per-thread=" << p.perThread << (p.loadAdd ? "" : "  no load add");
    out << "\n" << (t.backend == "gpu" ? "GPU: " : "") << t.device << "\n";
  }

  if (!t.steps.empty() && t.gpus == 0) {
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
        const char* style = !colour                 ? ""
                            : changed               ? kChanged
                            : written.count(int(i)) ? kWorked
                                                    : "";
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
  if (!t.singleAnswer) {
    printOtherKernels(t, out);
    out << "result " << formatValue(t.result, p.type) << "   host loop, left to right "
        << formatValue(t.expected, p.type) << "   no single right answer (" << name(p.op)
        << " is not associative)\n";
  } else {
    const char* verdictStyle = colour ? (t.correct ? kRight : kWrong) : "";
    out << "result " << formatValue(t.result, p.type) << "   expected "
        << formatValue(t.expected, p.type);
    if (t.tolerance > 0) out << " (± " << std::setprecision(3) << t.tolerance << ")";
    out << "   " << verdictStyle << (t.correct ? "correct" : "WRONG") << (colour ? kReset : "");
    if (!howFarOff(t).empty()) out << " (" << howFarOff(t) << ")";
    out << "\n";
  }
  if (t.timings.measured && t.gpus > 0) {
    const Timings& m = t.timings;
    out << std::setprecision(4) << "all-reduce " << m.kernelMs << " ms (median of " << m.repetitions
        << "), algorithm bandwidth " << m.gbPerSecond << " GB/s, bus bandwidth " << m.busGBs
        << " GB/s = " << m.copyFraction * 100 << "% of a peer copy of the same bytes ("
        << m.peerCopyGBs << " GB/s)\n";
  } else if (t.timings.measured) {
    const Timings& m = t.timings;
    out << std::setprecision(4) << "kernel " << m.kernelMs << " ms (median of " << m.repetitions
        << "), with copies " << m.withCopiesMs << " ms, " << m.gbPerSecond
        << " GB/s = " << m.copyFraction * 100 << "% of copy bandwidth, CPU loop " << m.cpuMs
        << " ms, CUB " << m.cubMs << " ms (" << m.cubRatio << "x CUB)\n";
  } else if (t.backend == "sim") {
    out << std::setprecision(3) << "simulated in " << t.timings.simSeconds
        << " s (CPU time of the simulator, not a GPU time)\n";
  }
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

void printLessonList(std::ostream& out) {
  for (const LessonInfo& l : lessons()) {
    out << l.id << " — " << l.title << "\n  variants: ";
    out << l.variantIds();
    out << "\n  n: 1 to " << l.maxN << " (default " << l.defaultN << ")"
        << (l.oneBlock ? ", one block: block >= n" : "")
        << (l.switchableBarrier ? ", --no-barrier, --perturb, --printf, --delay" : "");
    if (!l.switchableBarrier)
      for (const VariantInfo& v : l.variants)
        if (v.barrierSwitch) out << ", --no-barrier (" << v.id << ")";
    out << "\n";
  }
  out << "\nEvery lesson: --op sum|max|min|product, --type int|float, --data iota|ones|random:SEED"
         " or --values LIST,\n--block (power of two, at most 1024), --schedule "
      << sim::kScheduleHelp << ", --backend sim|gpu|auto.\n"
      << "--op subtract, a demonstration that a reduction needs an associative operator: "
      << subtractRunsText() << ".\n";
}

void printRaceText(const RaceResult& race, std::ostream& out, bool colour) {
  const Params& p = race.params;
  out << p.lesson << " " << p.variant << ", " << race.runs << " runs on " << race.device
      << (p.barrier ? "" : ", barrier off") << (p.perturb ? ", perturbed" : "")
      << (p.printing ? ", printing" : "")
      << (p.delayThread >= 0 ? ", thread " + std::to_string(p.delayThread) +
                                   " paused before level " + std::to_string(p.delayLevel)
                             : "")
      << "\n";
  out << race.schedules << "\n";
  out << "wrong: " << race.wrong << " of " << race.runs << " (expected "
      << formatValue(race.expected, p.type) << ")\n";
  int widest = 1;
  for (const auto& entry : race.histogram) widest = std::max(widest, entry.second);
  for (const auto& [value, count] : race.histogram) {
    const std::string label = formatValue(value, p.type);
    out << "  " << std::string(std::max<int>(0, 12 - int(label.size())), ' ') << label << "  "
        << std::string(std::max(1, count * 40 / widest), '#') << " " << count
        << (value == race.expected ? "  (right)" : "") << "\n";
  }
  if (!race.wrongRuns.empty()) {
    out << "\nThe first wrong run:\n";
    printTraceText(*race.wrongRuns.front(), out, colour);
  }
}

void printWitnessText(const Witness& w, std::ostream& out, bool colour) {
  const Params& p = w.params;
  out << "race witness for " << p.lesson << " (" << p.variant << "), n=" << p.n
      << ", block=" << p.block << (p.barrier ? "" : ", barrier off")
      << (p.perturb ? ", perturbed" : "") << (p.printing ? ", printing" : "")
      << (p.delayThread >= 0 ? ", delay " + delayText(p) : "") << ", searched on the simulator\n";
  if (!w.found) {
    out << "no witness: " << w.why << "\n";
    out << "schedules tried: " << w.tried << "\n";
    return;
  }
  out << "first wrong run: " << w.firstWrong << " (after " << w.searched << " schedule"
      << (w.searched == 1 ? "" : "s") << ")\n";
  const StallSchedule& s = w.stall;
  if (s.rounds == 0)
    out << "witness: lockstep — no thread need be late: the run is wrong as it stands\n";
  else
    out << "witness: " << s.str() << " — thread " << s.thread << " sits out " << s.rounds
        << (s.rounds == 1 ? " round" : " rounds") << " from round " << s.from
        << ", every other thread runs in lockstep\n";
  if (s.rounds > 0) {
    // One round fewer than one round late is lockstep, which the search ran first.
    std::vector<std::string> smaller;
    if (s.rounds == 1) smaller.push_back("lockstep");
    for (const StallSchedule& o : w.oneStepSmaller) smaller.push_back(o.str());
    out << "  one step smaller, each right:";
    for (size_t k = 0; k < smaller.size(); ++k) out << (k ? ", " : " ") << smaller[k];
    out << "\n";
    if (w.smallest && w.smallerTotal == 0)
      out << "  the smallest: no stall schedule is smaller but lockstep\n";
    else if (w.smallest)
      out << "  the smallest: all " << w.smallerChecked
          << " stall schedules of a smaller size were run, and none is wrong\n";
    else
      out << "  not shown to be the smallest: " << w.smallerTotal
          << " stall schedules of a smaller size are more than the search runs\n";
  }
  if (w.readFound) {
    const EarlyRead& r = w.read;
    out << (r.afterOverwrite ? "the read that came too late, after the value was overwritten"
                             : "the read that came too early")
        << ", in step " << r.step << " (" << r.stepLabel << "):\n  " << (colour ? kWrong : "")
        << r.text << (colour ? kReset : "") << "\n";
    if (w.readLine.line)
      out << "  " << w.readLine.file << ":" << w.readLine.line << "  " << w.readLine.text
          << "   <- the read\n";
    if (w.barrierLine.line)
      out << "  " << w.barrierLine.file << ":" << w.barrierLine.line << "  " << w.barrierLine.text
          << "   <- the barrier it needed (" << (p.barrier ? "on" : "off") << ")\n";
  } else {
    out << "the witness run has no read that came too early in its steps\n";
  }
  if (w.trace) {
    const Trace& t = *w.trace;
    out << "result " << formatValue(t.result, p.type) << "   expected "
        << formatValue(t.expected, p.type) << "   " << (colour ? kWrong : "")
        << (t.correct ? "correct" : "WRONG") << (colour ? kReset : "");
    if (!howFarOff(t).empty()) out << " (" << howFarOff(t) << ")";
    out << "\n";
  }
  out << "replay: " << w.replay << "\n";
  const Params& d = w.delayed;
  if (d.delayThread >= 0) {
    out << "as a pause: --delay " << delayText(d) << " (thread " << d.delayThread
        << " pauses before level " << d.delayLevel << "); on the simulator, lockstep with it gives "
        << formatValue(w.delayResultOnSimulator, p.type)
        << (w.delayWrongOnSimulator ? " (wrong, as the witness)" : " (right)") << "\n";
    out << "  on a GPU: " << w.delayCommand << "\n";
  }
  const GpuForcing& g = w.gpu;
  if (g.ran)
    out << "forced on this GPU (" << g.device << "): wrong in " << g.wrongDelayed << " of "
        << g.runs << " runs, against " << g.wrongPlain << " of " << g.runs
        << " without the delay\n";
  else if (!g.why.empty())
    out << "not forced on a GPU: " << g.why << "\n";
  out << "schedules tried: " << w.tried << "\n";
}

void printBenchText(const BenchTable& bench, std::ostream& out) {
  const bool gpu = bench.gpuTimes;
  out << "device: " << bench.device << ", type " << name(bench.type)
      << (gpu ? ", kernel-only median times" : " — simulator throughput, not GPU times") << "\n";
  char line[200];
  // The one-GPU table's legend and header, unless only allreduce (its own header) was measured.
  bool oneGpuRows = !gpu;
  for (const auto& r : bench.rows) oneGpuRows |= r.gpus == 0;
  if (oneGpuRows) {
    if (gpu)
      out << "xCPU: the CPU loop's time / this time; xprev: the kernel above's / this; xCUB: "
             "CUB's (run beside it) / this\n";
    else
      out << "cpu loop: this machine's plain loop; kernel times need a GPU\n";
    std::snprintf(line, sizeof line, "%-30s %11s %12s %10s %8s %8s %9s %8s\n", "kernel", "n", "ms",
                  "GB/s", gpu ? "copy%" : "", gpu ? "xCUB" : "", gpu ? "xCPU" : "",
                  gpu ? "xprev" : "");
    out << line;
  }
  // A ratio the table has no measurement for is a dash.
  auto ratio = [](double v, const char* format) {
    char text[32];
    if (v > 0)
      std::snprintf(text, sizeof text, format, v);
    else
      std::snprintf(text, sizeof text, "-");
    return std::string(text);
  };
  bool acrossGpusHeader = false;
  for (const auto& r : bench.rows) {
    if (gpu && r.gpus > 0) {  // allreduce: n per GPU; algorithm and bus bandwidth, peer copy
      if (!acrossGpusHeader)
        out << "allreduce on " << r.gpus << " GPUs (n per GPU; model: alpha-beta with alpha, beta "
            << "measured by peer copies here)\n"
            << "kernel                         n/GPU           ms   algGB/s   busGB/s  peerGB/s"
               "  model ms\n";
      acrossGpusHeader = true;
      std::snprintf(line, sizeof line, "%-30s %11lld %12.4f %9.1f %9.1f %9.1f %9.4f\n",
                    r.kernel.c_str(), r.n, r.ms, r.gbPerSecond, r.busGBs, r.peerCopyGBs, r.modelMs);
    } else if (gpu)
      std::snprintf(line, sizeof line, "%-30s %11lld %12.4f %10.1f %7.1f%% %8.2f %9s %8s\n",
                    r.kernel.c_str(), r.n, r.ms, r.gbPerSecond, r.copyFraction * 100, r.cubRatio,
                    ratio(r.cpuRatio, "%.1f").c_str(), ratio(r.previousRatio, "%.2f").c_str());
    else
      std::snprintf(line, sizeof line, "%-30s %11lld %12.2f %10.4f\n", r.kernel.c_str(), r.n, r.ms,
                    r.gbPerSecond);
    out << line;
  }
}

void printBenchCsv(const BenchTable& bench, std::ostream& out) {
  out << "kernel,n,ms,gb_per_s,copy_fraction,cub_ratio,gpus,bus_gb_per_s,peer_copy_gb_per_s,"
         "model_ms,cpu_ratio,previous_ratio,per_thread,load_add\n";
  for (const auto& r : bench.rows)
    out << r.kernel << "," << r.n << "," << r.ms << "," << r.gbPerSecond << "," << r.copyFraction
        << "," << r.cubRatio << "," << r.gpus << "," << r.busGBs << "," << r.peerCopyGBs << ","
        << r.modelMs << "," << r.cpuRatio << "," << r.previousRatio << "," << r.perThread << ","
        << (r.perThread > 0 ? (r.loadAdd ? "1" : "0") : "") << "\n";
}

void printSanitizerText(const SanitizerReport& report, std::ostream& out) {
  const Params& p = report.params;
  out << name(report.tool) << " on " << p.lesson << " ("
      << (p.variant.empty() ? "default" : p.variant) << (p.barrier ? "" : ", barrier off")
      << "):\n";
  for (size_t k = 0; k < report.hazards.size() && k < kShownHazards; ++k) {
    const SanitizerHazard& h = report.hazards[k];
    out << "  " << (h.severity.empty() ? "" : h.severity + ": ") << h.kind;
    if (h.count > 0) out << " (" << h.count << (h.count == 1 ? " hazard)" : " hazards)");
    out << "\n";
    if (!h.kernel.empty()) out << "    in " << h.kernel << "\n";
    bool located = false;
    for (const SanitizerSite& s : h.sites) {
      if (s.file.empty()) continue;
      located = true;
      out << "    " << (s.access.empty() ? "" : s.access + " ") << "at " << s.file << ":" << s.line
          << (s.kernel != h.kernel ? " in " + s.kernel : "") << "\n";
    }
    if (!h.sites.empty() && !located)
      out << "    (no source line: the kernels were built without -lineinfo)\n";
    if (!h.thread.empty()) out << "    by " << h.thread << "\n";
  }
  if (report.hazards.size() > kShownHazards)
    out << "  ... and " << report.hazards.size() - kShownHazards
        << " more (--format json lists them all)\n";
  if (!report.summary.empty())
    out << report.summary << "\n";
  else
    out << "(no summary from compute-sanitizer; exit code " << report.exitCode << ")\n";
  if (report.clean)
    out << "clean\n";
  else if (!report.runError.empty())
    out << "the run failed: " << report.runError << "\n";
  else
    out << (report.exitCode == kSanitizerErrorExit ? "the sanitizer reported errors"
                                                   : "the sanitizer reported warnings")
        << "\n";
  for (const auto& note : report.notes) out << "note: " << note << "\n";
}

}  // namespace rlab::cli
