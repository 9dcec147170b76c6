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
  out << "\n" << render(Message("view.exercise-commands"), language) << "\n";
}

void printExerciseStatement(const Exercise& e, const ExerciseText& text, std::ostream& out,
                            Language language) {
  const text::Document doc = text::parse("# " + text.title + "\n\n" + text.statement + "\n");
  printChapterText(doc, e.lesson, out, language, kDefaultWidth);
  out << "\n"
      << render(Message("view.exercise-start-hints",
                        {{"start", "rlab exercise start " + e.id + " [DIR]"},
                         {"hint", "rlab exercise hint " + e.id},
                         {"hints", text.hints.size()}}),
                language)
      << "\n";
}

void printExerciseReport(const Exercise& e, const ExerciseReport& r, std::ostream& out, bool colour,
                         Language language) {
  auto say = [&](const Message& m) { return render(m, language); };
  const std::string fileName = std::filesystem::path(r.file).filename().string();
  out << say(Message("view.exercise-file", {{"exercise", e.id}, {"file", r.file}})) << "\n";
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
    out << say(Message("view.exercise-printed")) << "\n" << (colour ? kMuted : "");
    std::istringstream lines(r.printed);
    int shown = 0;
    for (std::string line; std::getline(lines, line) && shown < 40; ++shown)
      out << "  " << line << "\n";
    if (shown == 40) out << "  ...\n";
    out << (colour ? kReset : "");
  }
  for (const Message& f : r.failures) out << "\n" << say(withReplay(f)) << "\n";
  if (r.hasResult && !r.trace)  // else printed under the run's steps
    out << "\n"
        << say(Message("result.line", {{"result", formatValue(r.result, ElementType::Int)},
                                       {"expected", formatValue(r.expected, ElementType::Int)}}))
        << "\n";
  for (const Message& note : r.notes) out << "\n" << say(note) << "\n";
  const bool passed = r.passed();
  out << "\n" << (colour ? (passed ? kRight : kWrong) : "");
  const std::string summary = say(r.summary());
  const size_t colon = std::min(summary.find(':'), summary.size());
  std::string head = summary.substr(0, colon);
  for (char& ch : head) ch = char(std::toupper((unsigned char)ch));
  out << head << (colour ? kReset : "") << summary.substr(colon) << "   "
      << say(r.verdict == ExerciseVerdict::CompileError
                 ? Message("view.exercise-compiled", {{"compile", seconds(r.compileSeconds)}})
                 : Message("view.exercise-compiled-ran", {{"compile", seconds(r.compileSeconds)},
                                                          {"run", seconds(r.runSeconds)}}))
      << "\n";
  if (passed && !r.hasResult)
    out << say(Message("view.exercise-solution", {{"command", "rlab exercise solution " + e.id}}))
        << "\n";
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
  std::vector<std::string> failures;  // each with its replay line, as the text view says it
  for (const Message& f : r.failures) failures.push_back(english(withReplay(f)));
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const CompileDiagnostic& d : r.diagnostics)
    diagnostics.push_back(
        {{"line", d.line}, {"column", d.column}, {"severity", d.severity}, {"message", d.message}});
  nlohmann::json j = {{"exercise", e.id},
                      {"file", r.file},
                      {"verdict", verdictName(r.verdict)},
                      {"summary", english(r.summary())},
                      {"diagnostics", diagnostics},
                      {"casesRun", r.casesRun},
                      {"casesTotal", r.casesTotal},
                      {"failures", failures},
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
