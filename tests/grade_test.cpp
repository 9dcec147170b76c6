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
#include "lessons/engine/exercise/runner_protocol.hpp"
#include "tests/cli_driver.hpp"
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

namespace {

// The exercise runner as a GPU machine's would be, for the leaderboard's plumbing where there
// is no GPU: the simulator's runs go to the real runner; a --gpu run writes `gpuLines` (the
// GPU's check and the leaderboard's lines) where the runner reports, on descriptor 3, and notes
// its arguments in `gpu-arguments`.
struct RunnerOnAFakeGpu {
  explicit RunnerOnAFakeGpu(const std::vector<std::string>& gpuLines) : folder("fake-gpu") {
    std::ofstream(folder / "gpu-lines") << [&] {
      std::string text;
      for (const std::string& line : gpuLines) text += line + "\n";
      return text;
    }();
    const fs::path script = folder / "runner";
    std::ofstream(script) << "#!/bin/sh\n"
                          << "case \" $* \" in *\" --gpu \"*)\n"
                          << "  echo \"$*\" > '" << (folder / "gpu-arguments").string() << "'\n"
                          << "  cat '" << (folder / "gpu-lines").string() << "' >&3; exit 0 ;;\n"
                          << "esac\n"
                          << "exec '" << realRunner << "' \"$@\"\n";
    fs::permissions(script, fs::perms::owner_all);
    setenv("RLAB_EXERCISE_RUNNER", script.c_str(), 1);
  }
  ~RunnerOnAFakeGpu() {
    if (realRunner.empty())
      unsetenv("RLAB_EXERCISE_RUNNER");
    else
      setenv("RLAB_EXERCISE_RUNNER", realRunner.c_str(), 1);
  }
  bool askedForLeaderboard() const {
    return textOf((folder / "gpu-arguments").string()).find("--leaderboard") != std::string::npos;
  }
  const std::string realRunner = findExerciseRunner();
  TempFolder folder;
};

std::string line(const std::vector<std::string>& fields) {
  std::string text;
  for (const std::string& f : fields) text += (text.empty() ? "" : "\t") + f;
  return text;
}

GradeReport gradeForBoard(const std::string& file, BackendChoice backend) {
  ExerciseRequest request;
  request.file = file;
  request.caseSeconds = kCaseSeconds;
  request.backend = backend;
  request.leaderboard = true;
  return gradeExercise(exerciseOrThrow("one-queue"), request);
}

}  // namespace

TEST_CASE("rlab exercise grade --leaderboard: only a kernel right everywhere gets a time") {
  const std::string right = kSource + "/lessons/atomic/exercises/one-queue/solution.cu";
  const Message figures("runner.leaderboard", {{"mine", "0.0310"},
                                               {"runs", 25},
                                               {"rounds", 5},
                                               {"fastest", "0.0250"},
                                               {"cub", "0.0400"},
                                               {"vs-fastest", "0.81"},
                                               {"vs-cub", "1.29"}});
  const std::vector<std::string> checkPassed = {"@cases\t1", "@case\t0", "@pass\t0"};
  SUBCASE("every round right: the figures, on the board, no points") {
    std::vector<std::string> lines = checkPassed;
    for (int round = 1; round <= 5; ++round)
      lines.push_back(
          line({"@leaderboard-round", std::to_string(round), "1", "0.0310",
                encodeMessage(Message(
                    "runner.leaderboard-round",
                    {{"round", round}, {"data", "random"}, {"ms", "0.0310"}, {"runs", 5}}))}));
    lines.push_back(line({"@leaderboard", "0.0310", "0.0250", "0.0400", encodeMessage(figures)}));
    lines.push_back("@done");
    const RunnerOnAFakeGpu gpu(lines);
    const GradeReport g = gradeForBoard(right, BackendChoice::Gpu);
    CHECK(gpu.askedForLeaderboard());
    CHECK(g.points == 120);
    CHECK(g.maxPoints == 120);
    const GradeTest& board = testOf(g, GradeTestId::Leaderboard);
    CHECK(board.passed);
    CHECK(board.maxPoints == 0);
    CHECK(board.cases == 5);
    CHECK(board.casesPassed == 5);
    CHECK(english(board.sentence) == english(figures));
    CHECK(g.leaderboard.right);
    CHECK(g.leaderboard.kernelMs == doctest::Approx(0.031));
    CHECK(g.leaderboard.fastestMs == doctest::Approx(0.025));
    CHECK(g.leaderboard.cubMs == doctest::Approx(0.04));
  }
  SUBCASE("a wrong round: the GPU's test fails with its sentence, and no time") {
    const Message wrong = verbatim("one-queue: n = 16777216, the sum is 75497012, not 75497015.");
    std::vector<std::string> lines = checkPassed;
    lines.push_back(line({"@leaderboard-round", "1", "0", "0.0100", encodeMessage(wrong)}));
    lines.push_back("@done");
    const RunnerOnAFakeGpu gpu(lines);
    const GradeReport g = gradeForBoard(right, BackendChoice::Gpu);
    CHECK(g.points == 100);
    CHECK_FALSE(testOf(g, GradeTestId::Gpu).passed);
    CHECK(english(testOf(g, GradeTestId::Gpu).sentence) == english(wrong));
    CHECK_FALSE(testOf(g, GradeTestId::Leaderboard).passed);
    CHECK(english(testOf(g, GradeTestId::Leaderboard).sentence) == english(wrong));
    CHECK(g.leaderboard.rounds == 1);
    CHECK(g.leaderboard.roundsRight == 0);
    CHECK_FALSE(g.leaderboard.right);
  }
  SUBCASE("a runner that ends in a round: that round is wrong, and says how it ended") {
    std::vector<std::string> lines = checkPassed;
    lines.push_back("@leaderboard-start");  // and no @done: the runner died in the round
    const RunnerOnAFakeGpu gpu(lines);
    const GradeReport g = gradeForBoard(right, BackendChoice::Gpu);
    const GradeTest& board = testOf(g, GradeTestId::Leaderboard);
    CHECK_FALSE(testOf(g, GradeTestId::Gpu).passed);
    CHECK_FALSE(board.passed);
    CHECK(g.leaderboard.rounds == 1);
    CHECK(english(board.sentence) == english(testOf(g, GradeTestId::Gpu).sentence));
    CHECK(english(board.sentence).find("exit code 0") != std::string::npos);
  }
  SUBCASE("a kernel the simulator finds racing is not timed at all") {
    std::vector<std::string> lines = checkPassed;
    lines.push_back("@done");
    const RunnerOnAFakeGpu gpu(lines);
    const GradeReport g = gradeForBoard(kFixtures + "plain_add.cu", BackendChoice::Gpu);
    CHECK_FALSE(gpu.askedForLeaderboard());
    CHECK_FALSE(g.leaderboard.right);
    CHECK(english(testOf(g, GradeTestId::Leaderboard).sentence).starts_with("Not timed: only a "));
  }
  SUBCASE("on the simulator the test says that the board needs a GPU") {
    const GradeReport g = gradeForBoard(right, BackendChoice::Sim);
    CHECK(g.maxPoints == 100);
    CHECK(english(testOf(g, GradeTestId::Leaderboard).sentence) ==
          english(Message("grade.leaderboard-needs-gpu")));
  }
}

TEST_CASE("rlab exercise grade --leaderboard on the simulator alone is refused in one sentence") {
  const Outcome o =
      rlabWith({"exercise", "grade", "one-queue",
                kSource + "/lessons/atomic/exercises/one-queue/solution.cu", "--leaderboard"});
  CHECK(o.code == 2);
  CHECK(o.out.empty());
  CHECK(o.err == "rlab: " + english(Message("usage.leaderboard-needs-gpu")) + "\n");
}

namespace {

// The CodeRunner question's template as CodeRunner's Twig would render it for `kernel`: the
// answer and the template parameters put in as e('py') escapes them.
std::string codeRunnerProgram(const std::string& kernel, const std::string& exercise,
                              int caseSeconds = kCaseSeconds) {
  const std::string xml = textOf(kSource + "/assets/graders/moodle-coderunner/question.xml");
  const size_t open = xml.find("<template><![CDATA["), close = xml.find("]]></template>");
  REQUIRE(open != std::string::npos);
  REQUIRE(close != std::string::npos);
  std::string program = xml.substr(open + 19, close - open - 19);
  auto escapedForPython = [](const std::string& text) {
    std::string out;
    for (char c : text)
      out += c == '\\' ? "\\\\" : c == '"' ? "\\\"" : c == '\n' ? "\\n" : std::string(1, c);
    return out;
  };
  const std::map<std::string, std::string> twig = {
      {"{{ STUDENT_ANSWER | e('py') }}", escapedForPython(kernel)},
      {"{{ exercise | e('py') }}", exercise},
      {"{{ lang | e('py') }}", "en"},
      {"{{ case_seconds | e('py') }}", std::to_string(caseSeconds)}};
  for (const auto& [expression, value] : twig) {
    const size_t at = program.find(expression);
    REQUIRE_MESSAGE(at != std::string::npos, expression);
    program.replace(at, expression.size(), value);
  }
  CHECK(program.find("{{") == std::string::npos);  // no Twig left that this test does not know
  return program;
}

// Runs the rendered template in a folder of its own, as the sandbox does, with the build's rlab
// first on the PATH: what it printed on stdout, and whether it printed anything on stderr.
nlohmann::json runCodeRunnerTemplate(const std::string& program, bool& quiet) {
  TempFolder sandbox("coderunner");
  std::ofstream(sandbox / "prog.py") << program;
  const std::string command = "cd '" + sandbox.str() + "' && PATH='" +
                              fs::path(RLAB_CLI_BINARY).parent_path().string() +
                              "':\"$PATH\" python3 prog.py > out.json 2> err.txt";
  REQUIRE(std::system(command.c_str()) == 0);
  const std::string errors = textOf((sandbox / "err.txt").string());
  quiet = errors.empty();
  nlohmann::json result = readJson(sandbox / "out.json");
  // What CodeRunner reads, or else what the template printed: a failure, never an abort.
  REQUIRE_MESSAGE((result.is_object() && result.contains("fraction")),
                  "the template printed " << textOf((sandbox / "out.json").string()) << errors);
  return result;
}

}  // namespace

TEST_CASE("graders: Moodle CodeRunner's template grades as its combinator template grader reads") {
  for (const auto& [what, s] : submissions()) {
    CAPTURE(what);
    bool quiet = false;
    const nlohmann::json r =
        runCodeRunnerTemplate(codeRunnerProgram(textOf(s.file), s.exercise, s.caseSeconds), quiet);
    CHECK(quiet);
    CHECK(r["fraction"].get<double>() == doctest::Approx(s.points / 100.0));
    REQUIRE(r["testresults"].is_array());
    CHECK(r["testresults"][0][0] == "iscorrect");
    int points = 0;
    for (size_t k = 1; k < r["testresults"].size(); ++k) {
      const nlohmann::json& row = r["testresults"][k];
      CHECK((row[0] == 0 || row[0] == 1));
      CHECK(row[3].is_string());
      points += std::stoi(row[2].get<std::string>());
    }
    CHECK(points == s.points);
    if (what == "not compiling")
      CHECK(r["prologuehtml"].get<std::string>().find("<pre>") != std::string::npos);
  }
  // The question's own answer gets full marks; a mistyped exercise id gets 0 and rlab's sentence.
  const std::string xml = textOf(kSource + "/assets/graders/moodle-coderunner/question.xml");
  const size_t open = xml.find("<answer><![CDATA["), close = xml.find("]]></answer>");
  bool quiet = false;
  CHECK(runCodeRunnerTemplate(
            codeRunnerProgram(xml.substr(open + 17, close - open - 17), "one-queue"),
            quiet)["fraction"] == 1.0);
  const nlohmann::json typo = runCodeRunnerTemplate(codeRunnerProgram("", "one-queeu"), quiet);
  CHECK(quiet);
  CHECK(typo["fraction"] == 0);
  CHECK(typo["prologuehtml"].get<std::string>().find("one-queeu") != std::string::npos);
}
