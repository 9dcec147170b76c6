// The exercises in a terminal and as JSON: the list, and a check's report.
#include <fstream>
#include <ostream>
#include <sstream>

#include "app/cli/terminal.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::cli {

namespace {

const char* const kReset = "\033[0m";
const char* const kWrong = "\033[1;31m";
const char* const kRight = "\033[1;32m";
const char* const kMuted = "\033[2m";

std::vector<std::string> fileLines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s", s);
  return text;
}

const char* verdictName(ExerciseVerdict v) {
  switch (v) {
    case ExerciseVerdict::Passed:
      return "passed";
    case ExerciseVerdict::Failed:
      return "failed";
    case ExerciseVerdict::CompileError:
      return "compile error";
    case ExerciseVerdict::Cancelled:
      return "cancelled";
    case ExerciseVerdict::NotRun:
      break;
  }
  return "not run";
}

}  // namespace

void printExerciseList(std::ostream& out, Language language) {
  for (const LessonInfo& lesson : lessons()) {
    const auto mine = exercisesOf(lesson.id);
    if (mine.empty()) continue;
    const text::Document* chapter = text::chapter(lesson.id, language);
    out << lesson.id << " — " << (chapter ? chapter->title : lesson.title) << "\n";
    for (const Exercise* e : mine)
      out << "  " << e->id << " — " << exerciseText(*e, language).title << "\n";
  }
  out << "\nrlab exercise show ID prints the statement; rlab exercise start ID [DIR] writes the "
         "starting file;\nrlab exercise check ID FILE checks it; rlab exercise hint ID K shows a "
         "hint, rlab exercise solution ID ours.\n";
}

void printExerciseStatement(const Exercise& e, const ExerciseText& text, std::ostream& out) {
  const text::Document doc = text::parse("# " + text.title + "\n\n" + text.statement + "\n");
  printChapterText(doc, e.lesson, out, kDefaultWidth);
  out << "\nrlab exercise start " << e.id << " [DIR] writes the starting file; "
      << text.hints.size() << (text.hints.size() == 1 ? " hint: " : " hints: ")
      << "rlab exercise hint " << e.id << " 1"
      << (text.hints.size() > 1 ? " to " + std::to_string(text.hints.size()) : "") << ".\n";
}

void printExerciseReport(const Exercise& e, const ExerciseReport& r, std::ostream& out,
                         bool colour) {
  const std::string fileName = std::filesystem::path(r.file).filename().string();
  out << "exercise " << e.id << ": " << r.file << "\n";
  const std::vector<std::string> source =
      r.diagnostics.empty() ? std::vector<std::string>{} : fileLines(r.file);
  for (const CompileDiagnostic& d : r.diagnostics) {
    const bool error = d.severity == "error";
    out << (colour && error ? kWrong : "") << d.text(fileName) << (colour && error ? kReset : "")
        << "\n";
    if (d.line < 1 || size_t(d.line) > source.size()) continue;
    const std::string number = std::to_string(d.line);
    out << "  " << number << " | " << source[size_t(d.line - 1)] << "\n";
    if (d.column > 0)
      out << "  " << std::string(number.size(), ' ') << " | "
          << std::string(size_t(d.column - 1), ' ') << "^\n";
  }
  if (!r.printed.empty()) {
    out << "the kernel printed:\n" << (colour ? kMuted : "");
    std::istringstream lines(r.printed);
    int shown = 0;
    for (std::string line; std::getline(lines, line) && shown < 40; ++shown)
      out << "  " << line << "\n";
    if (shown == 40) out << "  ...\n";
    out << (colour ? kReset : "");
  }
  for (const std::string& f : r.failures) out << "\n" << f << "\n";
  if (r.hasResult && !r.trace)  // else printed under the run's steps
    out << "\nresult " << formatValue(r.result, ElementType::Int) << "   expected "
        << formatValue(r.expected, ElementType::Int) << "\n";
  for (const std::string& note : r.notes) out << "\n" << note << "\n";
  const bool passed = r.passed();
  out << "\n" << (colour ? (passed ? kRight : kWrong) : "");
  const std::string summary = r.summary();
  const size_t colon = std::min(summary.find(':'), summary.size());
  std::string head = summary.substr(0, colon);
  for (char& ch : head) ch = char(std::toupper((unsigned char)ch));
  out << head << (colour ? kReset : "") << summary.substr(colon) << "   (compiled in "
      << seconds(r.compileSeconds);
  if (r.verdict != ExerciseVerdict::CompileError) out << ", ran in " << seconds(r.runSeconds);
  out << ")\n";
  if (passed && !r.hasResult)
    out << "Our solution, to compare: rlab exercise solution " << e.id << "\n";
}

nlohmann::json exercisesJson() {
  nlohmann::json all = nlohmann::json::array();
  for (const Exercise& e : exercises()) {
    const ExerciseText text = exerciseText(e);
    all.push_back({{"id", e.id},
                   {"lesson", e.lesson},
                   {"title", e.title},
                   {"kernel", e.signature()},
                   {"hints", text.hints.size()}});
  }
  return {{"exercises", all}};
}

nlohmann::json exerciseReportJson(const Exercise& e, const ExerciseReport& r) {
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const CompileDiagnostic& d : r.diagnostics)
    diagnostics.push_back(
        {{"line", d.line}, {"column", d.column}, {"severity", d.severity}, {"message", d.message}});
  nlohmann::json j = {{"exercise", e.id},
                      {"file", r.file},
                      {"verdict", verdictName(r.verdict)},
                      {"summary", r.summary()},
                      {"diagnostics", diagnostics},
                      {"casesRun", r.casesRun},
                      {"casesTotal", r.casesTotal},
                      {"failures", r.failures},
                      {"printed", r.printed},
                      {"notes", r.notes},
                      {"compileSeconds", r.compileSeconds},
                      {"runSeconds", r.runSeconds}};
  if (r.hasResult) {
    j["result"] = jsonNumber(r.result);
    j["expected"] = jsonNumber(r.expected);
  }
  return j;
}

}  // namespace rlab::cli
