// Text views for the terminal of the jobs besides a run: the lessons, a race's histogram, a
// race witness, bench tables and a sanitizer report. They read results; they compute nothing.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/terminal.hpp"
#include "app/cli/terminal_style.hpp"
#include "app/cli/views.hpp"
#include "kernels/sim/runtime.hpp"
#include "lessons/engine/races/distribution.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/texts/texts.hpp"

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

void printLessonList(std::ostream& out, int width) {
  for (const LessonInfo& l : lessons()) {
    printWrapped(l.id + " — " + text::lessonTitle(l.id, Language::En), "", "  ", width, out);
    printWrapped("variants: " + l.variantIds(), "  ", "    ", width, out);
    std::string limits = "n: 1 to " + std::to_string(l.maxN) + " (default " +
                         std::to_string(l.defaultN) + ")" +
                         (l.oneBlock ? ", one block: block >= n" : "");
    // The switches every variant takes, once; then each variant's own, with its name.
    std::vector<std::string> common = variantSwitches(l, l.variants.front());
    for (const VariantInfo& v : l.variants) {
      const std::vector<std::string> own = variantSwitches(l, v);
      std::erase_if(common, [&](const std::string& o) {
        return std::find(own.begin(), own.end(), o) == own.end();
      });
    }
    for (const std::string& option : common) limits += ", " + option;
    for (const VariantInfo& v : l.variants)
      for (const std::string& option : variantSwitches(l, v))
        if (std::find(common.begin(), common.end(), option) == common.end())
          limits += ", " + option + " (" + v.id + ")";
    printWrapped(limits, "  ", "    ", width, out);
  }
  out << "\n";
  printWrapped(std::string("Every lesson: --op sum|max|min|product, --type int|float, --data "
                           "iota|ones|random:SEED|mixed:SEED or --values LIST, --block (power of "
                           "two, at most 1024), --schedule ") +
                   sim::kScheduleHelp + ", --backend sim|gpu|auto.",
               "", "  ", width, out);
  printWrapped("--op subtract, a demonstration that a reduction needs an associative operator: " +
                   subtractRunsText() + ".",
               "", "  ", width, out);
}

// The run's switches as a race or witness line shows them: ", barrier off, perturbed".
std::string switchesText(const Params& p, Language language) {
  std::string text;
  auto add = [&](const Message& m) {
    text += render(Message("view.switch", {{"what", m}}), language);
  };
  if (!p.barrier) add(Message("view.switch-barrier-off"));
  if (p.perturb) add(Message("view.switch-perturbed"));
  if (p.printing) add(Message("view.switch-printing"));
  if (p.delayThread >= 0)
    add(Message("view.switch-delay", {{"thread", p.delayThread}, {"level", p.delayLevel}}));
  return text;
}

// Up to this many different results, rlab race lists each with its bar; past it, it groups them.
constexpr size_t kResultsListed = 16;

void printRaceText(const RaceResult& race, std::ostream& out, bool colour, Language language,
                   int width) {
  auto say = [&](const Message& m) { return render(m, language); };
  const Params& p = race.params;
  printWrapped(say(Message("view.race-header", {{"lesson", p.lesson},
                                                {"variant", p.variant},
                                                {"runs", race.runs},
                                                {"device", race.device},
                                                {"switches", switchesText(p, language)}})),
               "", "  ", width, out);
  printWrapped(say(race.schedules), "", "  ", width, out);
  out << say(Message("view.race-wrong", {{"wrong", race.wrong},
                                         {"runs", race.runs},
                                         {"expected", formatValue(race.expected, p.type)}}))
      << "\n";
  if (race.raced >= 0)
    printWrapped(say(Message("view.race-raced", {{"raced", race.raced}, {"runs", race.runs}})), "",
                 "  ", width, out);
  // The bars: 40 columns at most, less where the value, the count and "(right)" need the room.
  const int longest = std::max(1, std::min(40, width - 36));
  if (race.histogram.size() > kResultsListed) {
    // Many different results: a bar for each stretch of how far off they were, not one a value.
    const OffsetHistogram h = binRace(race, int(kResultsListed));
    printWrapped(
        say(Message("view.race-grouped", {{"distinct", race.histogram.size()},
                                          {"width", formatValue(h.width, ElementType::Float)}})),
        "", "  ", width, out);
    int most = 1;
    for (const OffsetBin& b : h.bins) most = std::max(most, b.right + b.wrong);
    for (const OffsetBin& b : h.bins) {
      const int count = b.right + b.wrong;
      const std::string from = formatValue(b.centre - h.width / 2, ElementType::Float),
                        to = formatValue(b.centre + h.width / 2, ElementType::Float);
      const std::string label = from + " .. " + to;
      out << "  " << std::string(std::max<int>(0, 24 - int(label.size())), ' ') << label << "  "
          << std::string(size_t(count * longest / most), '#') << (count ? " " : "") << count
          << (b.right ? "  " + say(Message("view.race-right")) : "") << "\n";
    }
  } else {
    int widest = 1;
    for (const auto& entry : race.histogram) widest = std::max(widest, entry.second);
    for (const auto& [value, count] : race.histogram) {
      const std::string label = formatValue(value, p.type);
      out << "  " << std::string(std::max<int>(0, 12 - int(label.size())), ' ') << label << "  "
          << std::string(size_t(std::max(1, count * longest / widest)), '#') << " " << count
          << (value == race.expected ? "  " + say(Message("view.race-right")) : "") << "\n";
    }
  }
  if (!race.wrongRuns.empty()) {
    out << "\n" << say(Message("view.race-first-wrong")) << "\n";
    printTraceText(*race.wrongRuns.front(), out, colour, language, width);
  }
}

namespace {

// The first wrong schedule the search met, the smallest failing one it found, and the schedules
// one step smaller that come out right.
void writeWitnessSchedule(const Witness& w, std::ostream& out, Language language) {
  auto say = [&](const Message& m) { return render(m, language); };
  out << say(Message("view.witness-first-wrong",
                     {{"schedule", w.firstWrong}, {"searched", w.searched}}))
      << "\n";
  const StallSchedule& s = w.stall;
  if (s.rounds == 0)
    out << say(Message("view.witness-lockstep")) << "\n";
  else if (s.lane)
    out << say(Message("view.witness-lane", {{"schedule", s.str()},
                                             {"thread", s.thread},
                                             {"lane", s.thread % 32},
                                             {"warp", s.thread / 32},
                                             {"rounds", s.rounds},
                                             {"from", s.from}}))
        << "\n";
  else
    out << say(Message("view.witness-stall", {{"schedule", s.str()},
                                              {"thread", s.thread},
                                              {"rounds", s.rounds},
                                              {"from", s.from}}))
        << "\n";
  if (s.rounds > 0) {
    // One round fewer than one round late is lockstep, which the search ran first.
    std::string smaller;
    if (s.rounds == 1) smaller = "lockstep";
    for (const StallSchedule& o : w.oneStepSmaller)
      smaller += (smaller.empty() ? "" : ", ") + o.str();
    out << "  " << say(Message("view.witness-smaller-right", {{"schedules", smaller}})) << "\n";
    const char* family = s.lane ? "lane" : "stall";
    if (w.smallest && w.smallerTotal == 0)
      out << "  " << say(Message("view.witness-smallest-lockstep", {{"family", family}})) << "\n";
    else if (w.smallest)
      out << "  "
          << say(Message("view.witness-smallest",
                         {{"checked", w.smallerChecked}, {"family", family}}))
          << "\n";
    else
      out << "  "
          << say(Message("view.witness-not-smallest",
                         {{"total", w.smallerTotal}, {"family", family}}))
          << "\n";
  }
}

// The read that went wrong, with the lines of the kernel that combine and that wait at the
// barrier, then the wrong run's result.
void writeWitnessRead(const Witness& w, std::ostream& out, bool colour, Language language) {
  auto say = [&](const Message& m) { return render(m, language); };
  if (w.readFound) {
    const EarlyRead& r = w.read;
    out << say(Message(r.afterOverwrite ? "view.witness-read-late" : "view.witness-read-early",
                       {{"step", r.step}, {"label", r.stepLabel}}))
        << "\n  " << (colour ? kWrong : "") << say(r.text) << (colour ? kReset : "") << "\n";
    if (w.combineLine.line)
      out << "  " << w.combineLine.file << ":" << w.combineLine.line << "  " << w.combineLine.text
          << "   " << say(Message("view.witness-combine-line")) << "\n";
    if (w.barrierLine.line)
      out << "  " << w.barrierLine.file << ":" << w.barrierLine.line << "  " << w.barrierLine.text
          << "   "
          << say(Message(w.barrierOn ? "view.witness-barrier-on" : "view.witness-barrier-off"))
          << "\n";
  } else {
    out << say(Message("view.witness-no-read")) << "\n";
  }
  if (w.trace) {
    const Trace& t = *w.trace;
    const std::string verdict =
        (colour ? kWrong : "") + say(verdictWord(t)) + (colour ? kReset : "");
    const Message off = howFarOff(t);
    out << say(resultLine(t)) << "   "
        << (off.empty() ? verdict
                        : say(Message("view.verdict-off", {{"verdict", verdict}, {"off", off}})))
        << "\n";
  }
}

// The replay line, then the pause (--delay) that makes the same race on the simulator and on a
// GPU, and what forcing it on the GPU gave.
void writeWitnessReplay(const Witness& w, std::ostream& out, Language language) {
  auto say = [&](const Message& m) { return render(m, language); };
  out << say(Message("view.witness-replay", {{"command", w.replay}})) << "\n";
  const Params& d = w.delayed;
  if (d.delayThread >= 0) {
    out << say(Message(
               w.delayWrongOnSimulator ? "view.witness-pause-wrong" : "view.witness-pause-right",
               {{"delay", "--delay " + delayText(d)},
                {"thread", d.delayThread},
                {"level", d.delayLevel},
                {"result", formatValue(w.delayResultOnSimulator, w.params.type)}}))
        << "\n";
    out << "  " << say(Message("view.witness-on-gpu", {{"command", w.delayCommand}})) << "\n";
  }
  const GpuForcing& g = w.gpu;
  if (g.ran)
    out << say(Message("view.witness-forced", {{"device", g.device},
                                               {"wrong", g.wrongDelayed},
                                               {"runs", g.runs},
                                               {"plain", g.wrongPlain}}))
        << "\n";
  else if (!g.why.empty())
    out << say(Message("view.witness-not-forced", {{"why", g.why}})) << "\n";
}

}  // namespace

void printWitnessText(const Witness& w, std::ostream& screen, bool colour, Language language,
                      int width) {
  // Written line by line (here and by the writeWitness parts above), then each line wrapped to
  // the terminal under its own indent.
  std::ostringstream out;
  auto say = [&](const Message& m) { return render(m, language); };
  const Params& p = w.params;
  out << say(Message("view.witness-header", {{"lesson", p.lesson},
                                             {"variant", p.variant},
                                             {"n", p.n},
                                             {"block", p.block},
                                             {"switches", switchesText(p, language)}}))
      << "\n";
  if (!w.found) {
    printWrapped(say(Message("view.witness-none", {{"why", w.why}})), "", "  ", width, screen);
    printWrapped(say(Message("view.witness-tried", {{"tried", w.tried}})), "", "  ", width, screen);
    return;
  }
  writeWitnessSchedule(w, out, language);
  writeWitnessRead(w, out, colour, language);
  writeWitnessReplay(w, out, language);
  out << say(Message("view.witness-tried", {{"tried", w.tried}})) << "\n";
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    const size_t text = std::min(line.find_first_not_of(' '), line.size());
    const std::string indent(text, ' ');
    printWrapped(line.substr(text), indent, indent + "  ", width, screen);
  }
}

void printBenchText(const BenchTable& bench, std::ostream& out, int width) {
  const bool gpu = bench.gpuTimes;
  printWrapped(std::string("device: ") + bench.device + ", type " + name(bench.type) +
                   (gpu ? ", kernel-only median times" : " — simulator throughput, not GPU times"),
               "", "  ", width, out);
  auto number = [](const char* format, double v) {
    char text[40];
    std::snprintf(text, sizeof text, format, v);
    return std::string(text);
  };
  // A ratio the table has no measurement for is a dash.
  auto ratio = [&](double v, const char* format) { return v > 0 ? number(format, v) : "-"; };
  // The one-GPU table, unless only allreduce (its own table) was measured.
  Table oneGpu, acrossGpus;
  oneGpu.rightAligned = acrossGpus.rightAligned = true;
  oneGpu.namesLeft = acrossGpus.namesLeft = true;
  oneGpu.header = {"kernel", "n", "ms", "GB/s"};
  if (gpu) oneGpu.header.insert(oneGpu.header.end(), {"copy%", "xCUB", "xCPU", "xprev"});
  acrossGpus.header = {"kernel", "n/GPU", "ms", "algGB/s", "busGB/s", "peerGB/s", "model ms"};
  int gpusAcross = 0;
  for (const auto& r : bench.rows) {
    const std::string n = std::to_string(r.n);
    if (gpu && r.gpus > 0) {  // allreduce: n per GPU; algorithm and bus bandwidth, peer copy
      gpusAcross = r.gpus;
      acrossGpus.rows.push_back({r.kernel, n, number("%.4f", r.ms), number("%.1f", r.gbPerSecond),
                                 number("%.1f", r.busGBs), number("%.1f", r.peerCopyGBs),
                                 number("%.4f", r.modelMs)});
    } else if (gpu) {
      oneGpu.rows.push_back({r.kernel, n, number("%.4f", r.ms), number("%.1f", r.gbPerSecond),
                             number("%.1f%%", r.copyFraction * 100), number("%.2f", r.cubRatio),
                             ratio(r.cpuRatio, "%.1f"), ratio(r.previousRatio, "%.2f")});
    } else {
      oneGpu.rows.push_back({r.kernel, n, number("%.2f", r.ms), number("%.4f", r.gbPerSecond)});
    }
  }
  if (!oneGpu.rows.empty() || !gpu) {
    printWrapped(gpu ? "xCPU: the CPU loop's time / this time; xprev: the kernel above's / this; "
                       "xCUB: CUB's (run beside it) / this"
                     : "cpu loop: this machine's plain loop; kernel times need a GPU",
                 "", "  ", width, out);
    printTable(oneGpu, "", width, out);
  }
  if (!acrossGpus.rows.empty()) {
    printWrapped("allreduce on " + std::to_string(gpusAcross) +
                     " GPUs (n per GPU; model: alpha-beta with alpha, beta measured by peer "
                     "copies here)",
                 "", "  ", width, out);
    printTable(acrossGpus, "", width, out);
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

void printSanitizerText(const SanitizerReport& report, std::ostream& out, Language language,
                        int width) {
  auto say = [&](const Message& m) { return render(m, language); };
  // A line of the report at `indent`, wrapped to the width (compute-sanitizer's kernel names
  // run to a hundred columns).
  auto line = [&](const std::string& indent, const std::string& text) {
    printWrapped(text, indent, indent + "  ", width, out);
  };
  const Params& p = report.params;
  Params barrierOnly;  // the header names the barrier alone
  barrierOnly.barrier = p.barrier;
  line("",
       say(Message("view.sanitizer-header", {{"tool", name(report.tool)},
                                             {"lesson", p.lesson},
                                             {"variant", p.variant.empty() ? "default" : p.variant},
                                             {"switches", switchesText(barrierOnly, language)}})));
  // The hazards as compute-sanitizer named them: its words, as it wrote them.
  for (size_t k = 0; k < report.hazards.size() && k < kShownHazards; ++k) {
    const SanitizerHazard& h = report.hazards[k];
    line("  ",
         (h.severity.empty() ? "" : h.severity + ": ") + h.kind +
             (h.count > 0 ? " " + say(Message("view.sanitizer-hazards", {{"hazards", h.count}}))
                          : ""));
    if (!h.kernel.empty()) line("    ", say(Message("view.sanitizer-in", {{"kernel", h.kernel}})));
    bool located = false;
    for (const SanitizerSite& s : h.sites) {
      if (s.file.empty()) continue;
      located = true;
      const std::string place = s.file + ":" + std::to_string(s.line);
      line("    ", say(s.access.empty() ? Message("view.sanitizer-place", {{"place", place}})
                                        : Message("view.sanitizer-access",
                                                  {{"access", s.access}, {"place", place}})) +
                       (s.kernel != h.kernel
                            ? " " + say(Message("view.sanitizer-in", {{"kernel", s.kernel}}))
                            : ""));
    }
    if (!h.sites.empty() && !located) line("    ", say(Message("view.sanitizer-no-line")));
    if (!h.thread.empty())
      line("    ", say(Message("view.sanitizer-thread", {{"thread", h.thread}})));
  }
  if (report.hazards.size() > kShownHazards)
    line("  ",
         say(Message("view.sanitizer-more", {{"more", report.hazards.size() - kShownHazards}})));
  line("", !report.summary.empty()
               ? report.summary
               : say(Message("view.sanitizer-no-summary", {{"code", report.exitCode}})));
  if (report.clean)
    line("", say(Message("view.sanitizer-clean")));
  else if (!report.runError.empty())
    line("", say(Message("view.sanitizer-run-failed", {{"why", report.runError}})));
  else
    line("", say(Message(report.exitCode == kSanitizerErrorExit ? "view.sanitizer-errors"
                                                                : "view.sanitizer-warnings")));
  for (const auto& note : report.notes) line("", say(Message("view.note", {{"note", note}})));
}

}  // namespace rlab::cli
