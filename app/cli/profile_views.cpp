// Text views of a profile (rlab profile) and of a recording made (rlab record). They read the
// core's results; they compute nothing.
#include <algorithm>
#include <cstdio>
#include <ostream>

#include "app/cli/views.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run_parameters.hpp"

namespace rlab::cli {

namespace {

std::string padded(const std::string& text, size_t width) {
  // Counts UTF-8 characters, not bytes ("µs").
  size_t shown = 0;
  for (unsigned char c : text) shown += (c & 0xC0) != 0x80;
  return text + std::string(width > shown ? width - shown : 1, ' ');
}

void printStalls(const std::vector<StallReason>& stalls, Language language, std::ostream& out) {
  if (stalls.empty()) return;
  out << "  top warp stall reasons (cycles an issued instruction waited, on average):\n";
  for (size_t k = 0; k < stalls.size() && k < 3; ++k) {
    char cycles[32];
    std::snprintf(cycles, sizeof cycles, "%.2f", stalls[k].cyclesPerInstruction);
    out << "    " << padded(cycles, 7) << render(stalls[k].label, language) << "\n";
  }
}

// A sentence in lines of at most 96 columns, the first indented by 2, the rest by 4.
void printWrapped(const std::string& text, std::ostream& out) {
  std::string line = "  ";
  size_t start = 0;
  while (start < text.size()) {
    const size_t space = std::min(text.find(' ', start), text.size());
    const std::string word = text.substr(start, space - start);
    if (line.size() + word.size() > 96 && line.find_first_not_of(' ') != std::string::npos) {
      out << line << "\n";
      line = "    ";
    }
    line += (line.back() == ' ' ? "" : " ") + word;
    start = space + 1;
  }
  out << line << "\n";
}

}  // namespace

void printProfileText(const ProfileReport& report, Language language, std::ostream& out) {
  const Params& p = report.params;
  std::string run = "rlab run " + p.lesson;
  for (const auto& a : runArguments(p))
    if (a != p.lesson) run += " " + a;
  out << run << "\n"
      << "under Nsight Compute on " << (report.device.empty() ? "the GPU" : report.device)
      << ", clocks "
      << (report.clockControl == "base" ? "locked to base (--clock-control base)"
                                        : "as they are (--clock-control none)")
      << "; the kernels ran once, without the trace buffer.\n";
  if (!report.runError.empty()) {
    out << render(report.runError, language) << "\n";
    for (const auto& note : report.notes) out << "note: " << render(note, language) << "\n";
    return;
  }
  out << "result " << formatValue(report.result, p.type)
      << (report.correct ? "   correct" : "   WRONG") << "\n\n";

  const ProfiledKernel& total = report.total;
  out << (total.function.empty() ? std::string("the lesson's kernels") : total.function)
      << ": the lesson's kernel, " << total.launches << " launch"
      << (total.launches == 1 ? "" : "es") << (total.launches > 1 ? " together" : "") << "\n";
  const std::vector<Counter>& proof = proofCounters(p);
  const bool predictions = !report.predicted.empty();
  out << "  " << padded("counter", 36) << padded("GPU (ncu)", 14)
      << (predictions ? "simulator predicts" : "") << "\n";
  for (Counter c : shownCounters(report)) {
    const auto measured = total.counters.find(c);
    const auto predicted = report.predicted.find(c);
    const bool proves = std::find(proof.begin(), proof.end(), c) != proof.end();
    const std::string gpu =
        measured != total.counters.end() ? formatCounter(c, measured->second) : "-";
    out << (proves ? "* " : "  ") << padded(info(c).label, 36)
        << (predicted != report.predicted.end()
                ? padded(gpu, 14) + formatCounter(c, predicted->second)
                : gpu)
        << "\n";
  }
  printStalls(total.stalls, language, out);
  for (const ProfiledKernel& k : report.kernels) {
    if (k.lessonKernel) continue;
    const auto duration = k.counters.find(Counter::DurationUs);
    out << "  also ran: " << k.function << ", " << k.launches << " launch"
        << (k.launches == 1 ? "" : "es")
        << (duration != k.counters.end()
                ? ", " + formatCounter(Counter::DurationUs, duration->second)
                : "")
        << "\n";
  }
  out << "\n* proves the lesson's point:\n";
  for (Counter c : proof) printWrapped(std::string(info(c).label) + ": " + info(c).meaning, out);
  if (!report.predictionNote.empty()) out << render(report.predictionNote, language) << "\n";
  for (const auto& note : report.notes) out << "note: " << render(note, language) << "\n";
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
