// rlab exercise grade: a learner's file graded (lessons/engine/exercise/grade.hpp), written as
// text, as our JSON, or as the results file of Gradescope's autograder or PrairieLearn's
// external grader, whichever the course grades in.
#include <ostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/subcommands.hpp"
#include "app/cli/terminal.hpp"
#include "app/cli/terminal_style.hpp"
#include "lessons/engine/exercise/grade.hpp"

namespace rlab::cli {

namespace {

// The compiler's errors and warnings, at the file's lines, for a results file's output.
std::string diagnosticsText(const GradeReport& g) {
  std::string text;
  const std::string name = std::filesystem::path(g.file).filename().string();
  for (const CompileDiagnostic& d : g.diagnostics) text += d.text(name) + "\n";
  return text;
}

// Gradescope's autograder results.json: the score in points, one test each with its own.
nlohmann::json gradescopeJson(const GradeReport& g, Language language) {
  nlohmann::json tests = nlohmann::json::array();
  for (const GradeTest& t : g.tests)
    tests.push_back({{"name", render(gradeTestName(t.id), language)},
                     {"number", std::to_string(tests.size() + 1)},
                     {"tags", {gradeTestKey(t.id)}},
                     {"score", t.points},
                     {"max_score", t.maxPoints},
                     {"status", t.passed ? "passed" : "failed"},
                     {"output", render(withReplay(t.sentence), language)}});
  nlohmann::json j = {{"score", g.points},
                      {"execution_time", g.seconds},
                      {"output", render(g.summary, language) + "\n" + diagnosticsText(g)},
                      {"visibility", "visible"},
                      {"tests", tests}};
  if (!g.gradable) j = {{"score", 0}, {"output", render(g.summary, language)}, {"tests", tests}};
  // Only a kernel right in every test and every round is on the board.
  if (g.gradable && g.leaderboard.right) {
    const LeaderboardResult& b = g.leaderboard;
    j["leaderboard"] = {{{"name", render(Message("grade.board-time"), language)},
                         {"value", b.kernelMs},
                         {"order", "asc"}},
                        {{"name", render(Message("grade.board-vs-cub"), language)},
                         {"value", b.cubMs / b.kernelMs}},
                        {{"name", render(Message("grade.board-vs-fastest"), language)},
                         {"value", b.fastestMs / b.kernelMs}}};
  }
  return j;
}

// PrairieLearn's external grader results.json: the score as a fraction, points per test.
nlohmann::json prairielearnJson(const GradeReport& g, Language language) {
  nlohmann::json tests = nlohmann::json::array();
  for (const GradeTest& t : g.tests)
    tests.push_back({{"name", render(gradeTestName(t.id), language)},
                     {"points", t.points},
                     {"max_points", t.maxPoints},
                     {"message", render(withReplay(t.sentence), language)},
                     {"output", ""}});
  return {{"gradable", g.gradable},
          {"score", g.maxPoints > 0 ? double(g.points) / g.maxPoints : 0.0},
          {"message", render(g.summary, language)},
          {"output", diagnosticsText(g)},
          {"tests", tests}};
}

nlohmann::json gradeJson(const GradeReport& g, Language language) {
  nlohmann::json tests = nlohmann::json::array();
  for (const GradeTest& t : g.tests)
    tests.push_back({{"id", gradeTestKey(t.id)},
                     {"name", render(gradeTestName(t.id), language)},
                     {"passed", t.passed},
                     {"points", t.points},
                     {"max_points", t.maxPoints},
                     {"cases", t.cases},
                     {"cases_passed", t.casesPassed},
                     {"sentence", render(withReplay(t.sentence), language)}});
  nlohmann::json j = {{"exercise", g.exercise},
                      {"file", g.file},
                      {"backend", name(g.backend)},
                      {"gradable", g.gradable},
                      {"points", g.points},
                      {"max_points", g.maxPoints},
                      {"seconds", g.seconds},
                      {"summary", render(g.summary, language)},
                      {"diagnostics", diagnosticsText(g)},
                      {"tests", tests}};
  for (const GradeTest& t : g.tests)
    if (t.id == GradeTestId::Leaderboard)
      j["leaderboard"] = {
          {"on_board", g.leaderboard.right},           {"rounds", g.leaderboard.rounds},
          {"rounds_right", g.leaderboard.roundsRight}, {"ms", g.leaderboard.kernelMs},
          {"fastest_ms", g.leaderboard.fastestMs},     {"cub_ms", g.leaderboard.cubMs},
          {"sentence", render(t.sentence, language)}};
  return j;
}

void printGradeText(const GradeReport& g, std::ostream& out, bool colour, Language language,
                    int width) {
  out << diagnosticsText(g);
  for (const GradeTest& t : g.tests) {
    const std::string points = std::to_string(t.points) + "/" + std::to_string(t.maxPoints);
    out << (colour ? (t.passed ? kRight : kWrong) : "") << (t.passed ? "passed " : "FAILED ")
        << (colour ? kReset : "") << points << "  " << render(gradeTestName(t.id), language)
        << "\n";
    printWrapped(render(withReplay(t.sentence), language), "        ", "        ", width, out);
  }
  if (!g.summary.empty()) out << "\n" << render(g.summary, language) << "\n";
}

// --test: that test's line and sentence, and its verdict as the exit status (0: passed, 1: not;
// a test the grade does not have, the GPU's on the simulator, is refused).
int printOneTest(const GradeReport& g, const Command& c, std::ostream& out, std::ostream& err) {
  for (const GradeTest& t : g.tests) {
    if (gradeTestKey(t.id) != c.gradeTest) continue;
    GradeReport one = g;
    one.tests = {t};
    one.summary = {};  // the whole grade's points are not this test's
    if (c.format == Format::Json)
      out << gradeJson(one, c.language).dump() << "\n";
    else
      printGradeText(one, out, c.terminal.colour, c.language, c.terminal.width);
    return t.passed ? 0 : 1;
  }
  err << "rlab: "
      << render(g.gradable ? Message("grade.no-such-test", {{"test", c.gradeTest}}) : g.summary,
                c.language)
      << "\n";
  return g.gradable ? 2 : 3;
}

}  // namespace

int gradeExerciseFile(const Exercise& e, const Command& c, std::ostream& out, std::ostream& err,
                      BackendChoice backend) {
  ExerciseRequest request;
  request.file = c.exerciseFile;
  request.caseSeconds = c.caseSeconds;
  request.backend = backend;
  request.leaderboard = c.gradeLeaderboard;
  const GradeReport g = gradeExercise(e, request);
  if (!c.gradeTest.empty()) return printOneTest(g, c, out, err);
  if (c.gradePlatform == "gradescope")
    out << gradescopeJson(g, c.language).dump(2) << "\n";
  else if (c.gradePlatform == "prairielearn")
    out << prairielearnJson(g, c.language).dump(2) << "\n";
  else if (c.format == Format::Json)
    out << gradeJson(g, c.language).dump() << "\n";
  else
    printGradeText(g, out, c.terminal.colour, c.language, c.terminal.width);
  // A grade made is a success, whatever its points; none made (the compiler or the runner
  // could not start) is not, and says why.
  if (!g.gradable) err << "rlab: " << render(g.summary, c.language) << "\n";
  return g.gradable ? 0 : 3;
}

}  // namespace rlab::cli
