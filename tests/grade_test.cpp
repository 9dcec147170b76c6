// rlab exercise grade and the graders a course installs: the points by kind of case, and the
// shipped scripts of Gradescope's autograder and PrairieLearn's external grader run on a right,
// a racing, a non-compiling and a never-ending kernel, each results file read field by field
// against the platform's documented format.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/exercise/grade.hpp"
#include "tests/temp_folder.hpp"

using namespace rlab;
namespace fs = std::filesystem;

namespace {

const std::string kSource = RLAB_SOURCE_DIR;
const std::string kFixtures = kSource + "/tests/fixtures/exercises/";

#if defined(__SANITIZE_ADDRESS__)
constexpr int kCaseSeconds = 60;  // the simulator runs 13 to 30 times slower there
#else
constexpr int kCaseSeconds = 3;
#endif

// The kernels a class hands in, by what they do.
struct Submission {
  std::string exercise, file;
  int points;  // of 100
  int caseSeconds = kCaseSeconds;
};
const std::map<std::string, Submission>& submissions() {
  static const std::map<std::string, Submission> all = {
      {"right",
       {"tree-in-shared", kSource + "/lessons/shared/exercises/tree-in-shared/solution.cu", 100}},
      {"racing", {"tree-in-shared", kFixtures + "race_lockstep_hides.cu", 0}},
      {"not compiling", {"one-queue", kFixtures + "compile_error.cu", 0}},
      {"never ending", {"fold-any-length", kFixtures + "never_ends.cu", 0, 1}},
  };
  return all;
}

GradeReport grade(const Submission& s) {
  ExerciseRequest request;
  request.file = s.file;
  request.caseSeconds = s.caseSeconds;
  return gradeExercise(exerciseOrThrow(s.exercise), request);
}

const GradeTest& testOf(const GradeReport& g, GradeTestId id) {
  for (const GradeTest& t : g.tests)
    if (t.id == id) return t;
  FAIL("no such test");
  return g.tests.front();
}

nlohmann::json readJson(const fs::path& path) {
  std::ifstream in(path);
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

// A platform's grader as shipped, and where it wants the exercise's id and the submission.
struct Platform {
  const char *script, *rootVariable, *idFile, *submitted;
};
const Platform kGradescope{"gradescope/run_autograder", "AUTOGRADER_ROOT", "source/exercise",
                           "submission"};
const Platform kPrairieLearn{"prairielearn/question/tests/grade.sh", "GRADE_ROOT", "tests/exercise",
                             "student"};

// Lays out the platform's folders under `root` with `exercise`'s id and `kernel` (a file's
// text) handed in, runs its script with the build's rlab, and reads results/results.json.
nlohmann::json gradeOn(const Platform& p, const TempFolder& root, const std::string& exercise,
                       const std::string& kernel, int caseSeconds = kCaseSeconds) {
  fs::create_directories((root / p.idFile).parent_path());
  fs::create_directories(root / p.submitted);
  std::ofstream(root / p.idFile) << exercise << "\n";
  if (!kernel.empty()) std::ofstream(root / p.submitted / "kernel.cu") << kernel;
  const std::string command = std::string(p.rootVariable) + "='" + root.str() + "' RLAB='" +
                              RLAB_CLI_BINARY +
                              "' RLAB_CASE_SECONDS=" + std::to_string(caseSeconds) + " bash '" +
                              kSource + "/assets/graders/" + p.script + "' > /dev/null 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  return readJson(root / "results/results.json");
}

std::string textOf(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("rlab exercise grade: points by kind of case, all or nothing, never a crash") {
  for (const auto& [what, s] : submissions()) {
    CAPTURE(what);
    const GradeReport g = grade(s);
    CHECK(g.gradable);
    CHECK(g.maxPoints == 100);
    CHECK(g.points == s.points);
    int sum = 0;
    for (const GradeTest& t : g.tests) {
      CHECK(t.maxPoints == gradeTestPoints(t.id));
      CHECK(t.points == (t.passed ? t.maxPoints : 0));
      CHECK_FALSE(t.sentence.empty());
      sum += t.points;
    }
    CHECK(sum == g.points);
  }
  const GradeReport racing = grade(submissions().at("racing"));
  CHECK(english(testOf(racing, GradeTestId::RacesAndRules).sentence).find("kernel raced on s[") !=
        std::string::npos);
  const GradeReport compile = grade(submissions().at("not compiling"));
  CHECK(english(testOf(compile, GradeTestId::Sizes).sentence) ==
        "the file does not compile (1 error), so nothing ran");
  // The hang stops the check: the kinds after it did not run, and being free of races while
  // hanging earns nothing.
  const GradeReport hang = grade(submissions().at("never ending"));
  CHECK(english(testOf(hang, GradeTestId::Sizes).sentence).find("still running after 1 s") !=
        std::string::npos);
  CHECK(english(testOf(hang, GradeTestId::LateThreads).sentence)
            .starts_with("15 of these cases did not run, after: "));
  CHECK_FALSE(testOf(hang, GradeTestId::RacesAndRules).passed);
  // A kernel that drops the last element passes some sizes, no kind whole, and races nowhere.
  const GradeReport tail = grade({"fold-any-length", kFixtures + "drops_tail.cu", 15});
  CHECK(tail.points == 15);
  CHECK(testOf(tail, GradeTestId::RacesAndRules).passed);
  CHECK(testOf(tail, GradeTestId::Sizes).casesPassed > 0);
}

TEST_CASE("graders: Gradescope's run_autograder writes results.json as Gradescope reads it") {
  for (const auto& [what, s] : submissions()) {
    CAPTURE(what);
    TempFolder root("gradescope");
    const nlohmann::json j = gradeOn(kGradescope, root, s.exercise, textOf(s.file), s.caseSeconds);
    CHECK(j["score"] == s.points);
    CHECK(j["execution_time"].is_number());
    CHECK(j["output"].is_string());
    REQUIRE(j["tests"].size() == 5);
    double sum = 0;
    for (const nlohmann::json& t : j["tests"]) {
      CHECK(t["name"].is_string());
      CHECK(t["number"].is_string());
      CHECK(t["max_score"].is_number());
      CHECK((t["status"] == "passed" || t["status"] == "failed"));
      CHECK(t["output"].is_string());
      sum += t["score"].get<double>();
    }
    CHECK(sum == s.points);
  }
  TempFolder empty("gradescope-empty");  // nothing handed in: a score and a sentence
  const nlohmann::json j = gradeOn(kGradescope, empty, "one-queue", "");
  CHECK(j["score"] == 0);
  CHECK(j["output"] == "No .cu file was submitted: submit the kernel file for exercise one-queue.");
}

TEST_CASE("graders: PrairieLearn's grade.sh writes results.json as PrairieLearn reads it") {
  for (const auto& [what, s] : submissions()) {
    CAPTURE(what);
    TempFolder root("prairielearn");
    const nlohmann::json j =
        gradeOn(kPrairieLearn, root, s.exercise, textOf(s.file), s.caseSeconds);
    CHECK(j["gradable"] == true);
    CHECK(j["score"].get<double>() == doctest::Approx(s.points / 100.0));
    CHECK(j["message"].is_string());
    REQUIRE(j["tests"].size() == 5);
    for (const nlohmann::json& t : j["tests"]) {
      CHECK(t["name"].is_string());
      CHECK(t["message"].is_string());
      CHECK(t["points"].get<double>() <= t["max_points"].get<double>());
    }
  }
  TempFolder wrongId("prairielearn-id");  // the course's typo: a sentence, not a crash
  const nlohmann::json j =
      gradeOn(kPrairieLearn, wrongId, "tree-in-shard", "__global__ void reduce() {}\n");
  CHECK(j["score"] == 0);
  CHECK(j["message"].get<std::string>().find("tree-in-shard") != std::string::npos);
}

TEST_CASE("graders: GitHub Classroom's workflow runs rlab's tests by their exit status") {
  std::ifstream in(kSource + "/assets/graders/github-classroom/classroom.yml");
  REQUIRE(in);
  // Each grader step: its id, its command and its points, in the order they come.
  struct Step {
    std::string id, command;
    int points = 0;
  };
  std::vector<Step> steps;
  for (std::string line; std::getline(in, line);) {
    const std::string text = line.substr(std::min(line.size(), line.find_first_not_of(' ')));
    if (text.starts_with("- id: ")) steps.push_back({text.substr(6), "", 0});
    if (steps.empty()) continue;
    if (text.starts_with("command: ")) steps.back().command = text.substr(9);
    if (text.starts_with("max-score: ")) steps.back().points = std::stoi(text.substr(11));
  }
  REQUIRE(steps.size() == 5);
  int total = 0;
  for (const Step& step : steps) {
    CAPTURE(step.id);
    total += step.points;
    bool known = false;
    for (GradeTestId id : {GradeTestId::Sizes, GradeTestId::Ends, GradeTestId::Orders,
                           GradeTestId::LateThreads, GradeTestId::RacesAndRules})
      if (step.id == gradeTestKey(id)) {
        known = true;
        CHECK(step.points == gradeTestPoints(id));
      }
    CHECK(known);
  }
  CHECK(total == 100);
  // The commands as the runner's shell runs them, on a right and on a racing kernel.
  for (const auto& [what, passes] :
       std::vector<std::pair<std::string, bool>>{{"right", true}, {"racing", false}}) {
    const Submission& s = submissions().at(what);
    TempFolder repository("classroom");
    fs::copy_file(s.file, repository / "kernel.cu");
    for (const Step& step : steps) {
      CAPTURE(what);
      CAPTURE(step.id);
      std::string command = step.command;
      command.replace(0, 4, RLAB_CLI_BINARY);  // "rlab ..." as installed
      const std::string shell = "cd '" + repository.str() + "' && export EXERCISE=" + s.exercise +
                                " && " + command + " --case-seconds " +
                                std::to_string(s.caseSeconds) + " > /dev/null 2>&1";
      const int status = std::system(shell.c_str());
      CHECK((status == 0) == passes);
    }
  }
}
