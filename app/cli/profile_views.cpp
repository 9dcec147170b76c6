// Text views of a profile (rlab profile) and of a recording made (rlab record). They read the
// core's results; they compute nothing.
#include <algorithm>
#include <cstdio>
#include <ostream>

#include "app/cli/terminal.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run_parameters.hpp"

namespace rlab::cli {

namespace {

void printStalls(const std::vector<StallReason>& stalls, Language language, std::ostream& out,
                 int width) {
  if (stalls.empty()) return;
  printWrapped("top warp stall reasons (cycles an issued instruction waited, on average):", "  ",
               "    ", width, out);
  for (size_t k = 0; k < stalls.size() && k < 3; ++k) {
    char cycles[32];
    std::snprintf(cycles, sizeof cycles, "%.2f", stalls[k].cyclesPerInstruction);
    printWrapped(std::string(cycles) + "  " + render(stalls[k].label, language), "    ",
                 "           ", width, out);
  }
}

}  // namespace

void printProfileText(const ProfileReport& report, Language language, std::ostream& out,
                      int width) {
  const Params& p = report.params;
  std::string run = "rlab run " + p.lesson;
  for (const auto& a : runArguments(p))
    if (a != p.lesson) run += " " + a;
  printWrapped(run, "", "  ", width, out);
  printWrapped("under Nsight Compute on " + (report.device.empty() ? "the GPU" : report.device) +
                   ", clocks " +
                   (report.clockControl == "base" ? "locked to base (--clock-control base)"
                                                  : "as they are (--clock-control none)") +
                   "; the kernels ran once, without the trace buffer.",
               "", "  ", width, out);
  auto notes = [&] {
    for (const auto& note : report.notes)
      printWrapped("note: " + render(note, language), "", "  ", width, out);
  };
  if (!report.runError.empty()) {
    printWrapped(render(report.runError, language), "", "  ", width, out);
    notes();
    return;
  }
  out << "result " << formatValue(report.result, p.type)
      << (report.correct ? "   correct" : "   WRONG") << "\n\n";

  const ProfiledKernel& total = report.total;
  printWrapped((total.function.empty() ? std::string("the lesson's kernels") : total.function) +
                   ": the lesson's kernel, " + std::to_string(total.launches) + " launch" +
                   (total.launches == 1 ? "" : "es") + (total.launches > 1 ? " together" : ""),
               "", "  ", width, out);
  const std::vector<Counter>& proof = proofCounters(p);
  const bool predictions = !report.predicted.empty();
  Table counters;  // the values as ncu and the simulator write them, left-aligned
  counters.header = {"  counter", "GPU (ncu)"};
  if (predictions) counters.header.push_back("simulator predicts");
  for (Counter c : shownCounters(report)) {
    const auto measured = total.counters.find(c);
    const auto predicted = report.predicted.find(c);
    const bool proves = std::find(proof.begin(), proof.end(), c) != proof.end();
    std::vector<std::string> row = {
        (proves ? "* " : "  ") + std::string(info(c).label),
        measured != total.counters.end() ? formatCounter(c, measured->second) : "-"};
    if (predicted != report.predicted.end()) row.push_back(formatCounter(c, predicted->second));
    counters.rows.push_back(row);
  }
  printTable(counters, "", width, out);
  printStalls(total.stalls, language, out, width);
  for (const ProfiledKernel& k : report.kernels) {
    if (k.lessonKernel) continue;
    const auto duration = k.counters.find(Counter::DurationUs);
    printWrapped("also ran: " + k.function + ", " + std::to_string(k.launches) + " launch" +
                     (k.launches == 1 ? "" : "es") +
                     (duration != k.counters.end()
                          ? ", " + formatCounter(Counter::DurationUs, duration->second)
                          : ""),
                 "  ", "    ", width, out);
  }
  out << "\n* proves the lesson's point:\n";
  for (Counter c : proof)
    printWrapped(std::string(info(c).label) + ": " + info(c).meaning, "  ", "    ", width, out);
  if (!report.predictionNote.empty())
    printWrapped(render(report.predictionNote, language), "", "  ", width, out);
  notes();
}

void printRecordText(const RecordingJson& recording, const std::string& file, std::ostream& out) {
  out << "recorded " << recording.value("card", "") << " into " << file << "\n";
  if (recording.contains("recorded"))
    for (const auto& [part, when] : recording["recorded"].items())
      out << "  " << part << ": " << when.value("date", "") << ", " << when.value("command", "")
          << "\n";
  out << "The build embeds assets/recordings/*.json: commit the file and rebuild, and the app, "
         "rlab and the texts offer it where there is no GPU.\n";
}

}  // namespace rlab::cli
