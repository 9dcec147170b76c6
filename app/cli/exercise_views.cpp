// The exercises in a terminal and as JSON: the list with the learner's marks, their path
// through the course (rlab exercise progress), a check's report and the next exercise.
#include <algorithm>
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

// "[done]" and its kin, padded to the widest of the three in `language` (a Japanese or Chinese
// character takes two columns), coloured where `colour`: done green, not started dim.
std::string markCell(ExerciseMark mark, Language language, bool colour) {
  int widest = 0;
  for (ExerciseMark m : {ExerciseMark::NotStarted, ExerciseMark::Tried, ExerciseMark::Done})
    widest = std::max(widest, visibleColumns("[" + render(markWord(m), language) + "]"));
  const std::string cell = "[" + render(markWord(mark), language) + "]";
  const std::string pad(size_t(widest - visibleColumns(cell)), ' ');
  if (!colour || mark == ExerciseMark::Tried) return cell + pad;
  return (mark == ExerciseMark::Done ? kRight : kMuted) + cell + kReset + pad;
}

// The exercises of each lesson with their marks, under the lesson's title; `numbered`: the
// lessons numbered as the app lists them.
void printMarkedExercises(std::ostream& out, const Progress& progress, Language language,
                          bool colour, bool numbered, bool details, int width) {
  int number = 0;
  for (const LessonInfo& lesson : lessons()) {
    ++number;
    const auto mine = exercisesOf(lesson.id);
    if (mine.empty()) continue;
    printWrapped((numbered ? std::to_string(number) + ". " : "") + lesson.id + " — " +
                     text::lessonTitle(lesson.id, language),
                 "", "    ", width, out);
    for (const Exercise* e : mine) {
      const ExerciseProgress p = progress.of(e->id);
      // A row too long for the terminal goes on under its id, past the mark.
      const std::string mark = markCell(p.mark, language, colour) + "  ";
      printWrapped(mark + e->id + " — " + exerciseText(*e, language).title, "  ",
                   std::string(size_t(visibleColumns(mark)) + 4, ' '), width, out);
      if (details && p.mark == ExerciseMark::Done)
        printWrapped(
            render(
                Message("progress.passed-detail",
                        {{"date", p.date},
                         {"backend", Message(p.backend == BackendChoice::Gpu ? "progress.on-gpu"
                                                                             : "progress.on-sim")},
                         {"cases", p.cases}}),
                language),
            "      ", "      ", width, out);
    }
  }
}

}  // namespace

void printExerciseList(std::ostream& out, Language language, const Progress& progress, bool colour,
                       int width) {
  printMarkedExercises(out, progress, language, colour, false, false, width);
  out << "\n";
  printWrapped(render(Message("view.exercise-commands"), language), "", "", width, out);
}

void printNextExercise(std::ostream& out, const Progress& progress, const std::string& after,
                       Language language) {
  if (const Exercise* next = nextExercise(progress, after))
    out << render(Message("view.exercise-next", {{"command", "rlab exercise start " + next->id},
                                                 {"title", exerciseText(*next, language).title}}),
                  language)
        << "\n";
  else
    out << render(Message("view.exercise-all-done", {{"count", courseExercises().size()}}),
                  language)
        << "\n";
}

void printExerciseProgress(std::ostream& out, const Progress& progress, Language language,
                           bool colour, int width) {
  auto say = [&](const Message& m) { return render(m, language); };
  printWrapped(say(Message("view.progress-heading",
                           {{"done", progress.doneCount()}, {"total", courseExercises().size()}})),
               "", "", width, out);
  out << "\n";
  printMarkedExercises(out, progress, language, colour, true, true, width);
  out << "\n";
  printNextExercise(out, progress, "", language);
  // Paths whole, unwrapped: a learner copies them.
  out << say(Message("view.progress-files", {{"folder", learnerExerciseFolder()}})) << "\n"
      << say(Message("view.progress-file", {{"file", progressFilePath()}})) << "\n";
}

nlohmann::json exerciseProgressJson(const Progress& progress) {
  nlohmann::json lessonsJson = nlohmann::json::array();
  for (const LessonInfo& lesson : lessons()) {
    const auto mine = exercisesOf(lesson.id);
    if (mine.empty()) continue;
    nlohmann::json list = nlohmann::json::array();
    for (const Exercise* e : mine) {
      const ExerciseProgress p = progress.of(e->id);
      nlohmann::json j = {{"id", e->id}, {"title", e->title}, {"mark", markKey(p.mark)}};
      if (p.mark != ExerciseMark::NotStarted) j["date"] = p.date;
      if (p.mark == ExerciseMark::Done) {
        j["backend"] = name(p.backend);
        j["cases"] = p.cases;
      }
      list.push_back(j);
    }
    lessonsJson.push_back({{"lesson", lesson.id}, {"exercises", list}});
  }
  const Exercise* next = nextExercise(progress);
  return {{"done", progress.doneCount()},
          {"total", courseExercises().size()},
          {"next", next ? nlohmann::json(next->id) : nlohmann::json()},
          {"lessons", lessonsJson},
          {"exerciseFolder", learnerExerciseFolder()},
          {"progressFile", progressFilePath()}};
}

void printExerciseStatement(const Exercise& e, const ExerciseText& text, std::ostream& out,
                            Language language, int width) {
  const text::Document doc = text::parse("# " + text.title + "\n\n" + text.statement + "\n");
  printChapterText(doc, e.lesson, out, language, width);
  out << "\n";
  printWrapped(render(Message("view.exercise-start-hints",
                              {{"start", "rlab exercise start " + e.id + " [DIR]"},
                               {"hint", "rlab exercise hint " + e.id},
                               {"hints", text.hints.size()}}),
                      language),
               "", "", width, out);
}

void printExerciseReport(const Exercise& e, const ExerciseReport& r, std::ostream& out, bool colour,
                         Language language, int width) {
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
  for (const Message& f : r.failures) {
    // The sentence wrapped to the terminal; its replay line whole, on a line of its own, for
    // the learner to copy.
    out << "\n";
    const std::string replay = f.arg("replay"), text = say(withReplay(f));
    const size_t at = replay.empty() ? std::string::npos : text.rfind(replay);
    if (at == std::string::npos || at + replay.size() != text.size()) {
      printWrapped(text, "", "", width, out);
      continue;
    }
    printWrapped(text.substr(0, at), "", "", width, out);
    out << "  " << replay << "\n";
  }
  if (r.hasResult && !r.trace)  // else printed under the run's steps
    out << "\n"
        << say(Message("result.line", {{"result", formatValue(r.result, ElementType::Int)},
                                       {"expected", formatValue(r.expected, ElementType::Int)}}))
        << "\n";
  for (const Message& note : r.notes) {
    out << "\n";
    printWrapped(say(note), "", "", width, out);
  }
  if (r.hint > 0) {
    out << "\n";
    printWrapped(
        say(Message("view.exercise-hint-about",
                    {{"hint", r.hint},
                     {"command", "rlab exercise hint " + e.id + " " + std::to_string(r.hint)}})),
        "", "", width, out);
  }
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

nlohmann::json exercisesJson(const Progress& progress) {
  nlohmann::json all = nlohmann::json::array();
  for (const Exercise& e : exercises()) {
    const ExerciseText text = exerciseText(e);
    all.push_back({{"id", e.id},
                   {"lesson", e.lesson},
                   {"title", e.title},
                   {"kernel", e.signature()},
                   {"hints", text.hints.size()},
                   {"mark", markKey(progress.markOf(e.id))}});
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
  if (r.hint > 0) j["hint"] = r.hint;
  if (r.hasResult) {
    j["result"] = jsonNumber(r.result);
    j["expected"] = jsonNumber(r.expected);
  }
  return j;
}

}  // namespace rlab::cli
