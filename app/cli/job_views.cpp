// Text views for the terminal of the jobs besides a run: the lessons, a race's histogram, a
// race witness, bench tables and a sanitizer report. They read results; they compute nothing.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

#include "app/cli/terminal.hpp"
#include "app/cli/terminal_style.hpp"
#include "app/cli/views.hpp"
#include "kernels/sim/runtime.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::cli {

namespace {
constexpr size_t kShownHazards = 20;

// The switches a variant takes beyond every lesson's options.
std::vector<std::string> variantSwitches(const LessonInfo& l, const VariantInfo& v) {
  std::vector<std::string> options;
  auto add = [&](bool has, const char* option) {
    if (has) options.push_back(option);
  };
  add(v.barrierSwitch, "--no-barrier");
  add(v.syncwarpSwitch, "--no-syncwarp");
  add(v.perturbs, "--perturb");
  add(l.switchableBarrier, "--printf");
  add(v.delays, "--delay");
  return options;
}

}  // namespace

void printLessonList(std::ostream& out) {
  for (const LessonInfo& l : lessons()) {
    out << l.id << " — " << l.title << "\n  variants: ";
    out << l.variantIds();
    out << "\n  n: 1 to " << l.maxN << " (default " << l.defaultN << ")"
        << (l.oneBlock ? ", one block: block >= n" : "");
    // The switches every variant takes, once; then each variant's own, with its name.
    std::vector<std::string> common = variantSwitches(l, l.variants.front());
    for (const VariantInfo& v : l.variants) {
      const std::vector<std::string> own = variantSwitches(l, v);
      std::erase_if(common, [&](const std::string& o) {
        return std::find(own.begin(), own.end(), o) == own.end();
      });
    }
    for (const std::string& option : common) out << ", " << option;
    for (const VariantInfo& v : l.variants)
      for (const std::string& option : variantSwitches(l, v))
        if (std::find(common.begin(), common.end(), option) == common.end())
          out << ", " << option << " (" << v.id << ")";
    out << "\n";
  }
  out << "\nEvery lesson: --op sum|max|min|product, --type int|float, --data "
         "iota|ones|random:SEED|mixed:SEED"
         " or --values LIST,\n--block (power of two, at most 1024), --schedule "
      << sim::kScheduleHelp << ", --backend sim|gpu|auto.\n"
      << "--op subtract, a demonstration that a reduction needs an associative operator: "
      << subtractRunsText() << ".\n";
}

void printRaceText(const RaceResult& race, std::ostream& out, bool colour, int width) {
  const Params& p = race.params;
  printWrapped(p.lesson + " " + p.variant + ", " + std::to_string(race.runs) + " runs on " +
                   race.device + (p.barrier ? "" : ", barrier off") +
                   (p.perturb ? ", perturbed" : "") + (p.printing ? ", printing" : "") +
                   (p.delayThread >= 0 ? ", thread " + std::to_string(p.delayThread) +
                                             " paused before level " + std::to_string(p.delayLevel)
                                       : ""),
               "", "  ", width, out);
  printWrapped(race.schedules, "", "  ", width, out);
  out << "wrong: " << race.wrong << " of " << race.runs << " (expected "
      << formatValue(race.expected, p.type) << ")\n";
  int widest = 1;
  for (const auto& entry : race.histogram) widest = std::max(widest, entry.second);
  // The bars: 40 columns at most, less where the value, the count and "(right)" need the room.
  const int longest = std::max(1, std::min(40, width - 36));
  for (const auto& [value, count] : race.histogram) {
    const std::string label = formatValue(value, p.type);
    out << "  " << std::string(std::max<int>(0, 12 - int(label.size())), ' ') << label << "  "
        << std::string(size_t(std::max(1, count * longest / widest)), '#') << " " << count
        << (value == race.expected ? "  (right)" : "") << "\n";
  }
  if (!race.wrongRuns.empty()) {
    out << "\nThe first wrong run:\n";
    printTraceText(*race.wrongRuns.front(), out, colour, width);
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
  else if (s.lane)
    out << "witness: " << s.str() << " — thread " << s.thread << " (lane " << s.thread % 32
        << " of warp " << s.thread / 32 << ") sits out " << s.rounds
        << (s.rounds == 1 ? " round" : " rounds") << " after its warp step " << s.from
        << ", every other thread runs in lockstep\n";
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
    const char* family = s.lane ? "lane" : "stall";
    if (w.smallest && w.smallerTotal == 0)
      out << "  the smallest: no " << family << " schedule is smaller but lockstep\n";
    else if (w.smallest)
      out << "  the smallest: all " << w.smallerChecked << " " << family
          << " schedules of a smaller size were run, and none is wrong\n";
    else
      out << "  not shown to be the smallest: " << w.smallerTotal << " " << family
          << " schedules of a smaller size are more than the search runs\n";
  }
  if (w.readFound) {
    const EarlyRead& r = w.read;
    out << (r.afterOverwrite ? "the read that came too late, after the value was overwritten"
                             : "the read that came too early")
        << ", in step " << r.step << " (" << r.stepLabel << "):\n  " << (colour ? kWrong : "")
        << r.text << (colour ? kReset : "") << "\n";
    if (w.combineLine.line)
      out << "  " << w.combineLine.file << ":" << w.combineLine.line << "  " << w.combineLine.text
          << "   <- the combine that read it\n";
    if (w.barrierLine.line)
      out << "  " << w.barrierLine.file << ":" << w.barrierLine.line << "  " << w.barrierLine.text
          << "   <- the barrier it needed (" << (w.barrierOn ? "on" : "off") << ")\n";
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
