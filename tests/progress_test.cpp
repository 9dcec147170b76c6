// The learner's path through the exercises (lessons/engine/exercise/progress.hpp): the folder
// rlab and the app share, found from XDG_DATA_HOME; the progress file, which survives a round
// trip and, unreadable, is one sentence and a fresh start; the marks `rlab exercise list` and
// `rlab exercise progress` print in every language; what a start and a check record; the next
// exercise in the course's order. Every test that touches files points XDG_DATA_HOME at a
// scratch folder of its own (tests/main.cpp already keeps the real home out of every test).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lessons/engine/exercise/progress.hpp"
#include "lessons/engine/registry.hpp"
#include "tests/cli_driver.hpp"
#include "tests/temp_folder.hpp"

using rlab::ExerciseMark;

namespace fs = std::filesystem;

namespace {

// XDG_DATA_HOME set to a scratch folder for as long as it lives; the variable as it was after.
struct DataHome {
  explicit DataHome(const std::string& name) : folder(name) {
    if (const char* was = std::getenv("XDG_DATA_HOME")) before = was, hadBefore = true;
    ::setenv("XDG_DATA_HOME", folder.str().c_str(), 1);
  }
  ~DataHome() {
    if (hadBefore)
      ::setenv("XDG_DATA_HOME", before.c_str(), 1);
    else
      ::unsetenv("XDG_DATA_HOME");
  }
  fs::path data() const { return folder.path / "reduction-lab"; }
  fs::path progress() const { return data() / "progress.json"; }

  TempFolder folder;
  std::string before;
  bool hadBefore = false;
};

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream all;
  all << in.rdbuf();
  return all.str();
}

void writeText(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// The line of `out` that lists exercise `id` ("  [done]  id — Title").
std::string lineOf(const std::string& out, const std::string& id) {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (line.find("  " + id + " — ") != std::string::npos) return line;
  return "";
}

std::string sourceFile(const std::string& relative) {
  return std::string(RLAB_SOURCE_DIR) + "/" + relative;
}

rlab::ExerciseReport reportOf(rlab::ExerciseVerdict verdict, int cases) {
  rlab::ExerciseReport r;
  r.verdict = verdict;
  r.casesRun = cases;
  r.casesTotal = cases;
  return r;
}

// A progress file with `done` done on the simulator and `tried` tried.
void writeProgress(const fs::path& file, const std::vector<std::string>& done,
                   const std::vector<std::string>& tried) {
  rlab::Progress p;
  for (const auto& id : done)
    rlab::recordCheck(p, rlab::exerciseOrThrow(id), reportOf(rlab::ExerciseVerdict::Passed, 126),
                      rlab::BackendChoice::Sim, "2026-03-01");
  for (const auto& id : tried) rlab::markStarted(p, id, "2026-03-02");
  rlab::Message problem;
  REQUIRE_MESSAGE(rlab::saveProgress(p, file.string(), problem), rlab::english(problem));
}

}  // namespace

TEST_CASE("progress: the learner's folder is XDG_DATA_HOME's, else ~/.local/share's") {
  const DataHome home("progress-xdg");
  CHECK(rlab::learnerDataFolder() == home.data().string());
  CHECK(rlab::progressFilePath() == home.progress().string());
  CHECK(rlab::learnerExerciseFolder() == (home.data() / "exercises").string());
  const std::string eId = "one-queue";  // g++ 14: no temporary in the call
  const rlab::Exercise& e = rlab::exerciseOrThrow(eId);
  CHECK(rlab::learnerFilePath(e, rlab::learnerExerciseFolder()) ==
        (home.data() / "exercises" / "one-queue" / "one-queue.cu").string());

  // A relative XDG_DATA_HOME is ignored, as the XDG specification says: HOME's then.
  const TempFolder fakeHome("progress-home");
  const std::string realHome = std::getenv("HOME") ? std::getenv("HOME") : "";
  ::setenv("HOME", fakeHome.str().c_str(), 1);
  ::setenv("XDG_DATA_HOME", "relative/data", 1);
  CHECK(rlab::learnerDataFolder() == (fakeHome.path / ".local/share/reduction-lab").string());
  ::unsetenv("XDG_DATA_HOME");
  CHECK(rlab::progressFilePath() ==
        (fakeHome.path / ".local/share/reduction-lab/progress.json").string());
  // RLAB_EXERCISE_DIR moves the files, not the progress.
  ::setenv("RLAB_EXERCISE_DIR", "/srv/class/exercises", 1);
  CHECK(rlab::learnerExerciseFolder() == "/srv/class/exercises");
  CHECK(rlab::progressFilePath() ==
        (fakeHome.path / ".local/share/reduction-lab/progress.json").string());
  ::unsetenv("RLAB_EXERCISE_DIR");
  ::setenv("HOME", realHome.c_str(), 1);
}

TEST_CASE("progress: marks survive a round trip through the file, written whole") {
  const DataHome home("progress-round-trip");
  rlab::Progress p;
  const std::string foldId = "fold-any-length";  // g++ 14: no temporary in the call
  const rlab::Exercise& fold = rlab::exerciseOrThrow(foldId);
  const std::string queueId = "one-queue";  // g++ 14: no temporary in the call
  const rlab::Exercise& queue = rlab::exerciseOrThrow(queueId);
  rlab::recordCheck(p, fold, reportOf(rlab::ExerciseVerdict::Passed, 126), rlab::BackendChoice::Sim,
                    "2026-03-01");
  rlab::ExerciseReport onGpu = reportOf(rlab::ExerciseVerdict::Passed, 93);
  onGpu.simulator.ran = true;
  onGpu.simulator.casesRun = 120;
  rlab::recordCheck(p, queue, onGpu, rlab::BackendChoice::Gpu, "2026-03-02");
  rlab::markStarted(p, "largest-element", "2026-03-03");

  rlab::Message problem;
  REQUIRE(rlab::saveProgress(p, home.progress().string(), problem));  // makes the folder
  const rlab::Progress back = rlab::loadProgress(home.progress().string());
  CHECK(back.problem.empty());
  CHECK_FALSE(back.unreadable);
  CHECK(back.markOf("fold-any-length") == ExerciseMark::Done);
  CHECK(back.of("fold-any-length").backend == rlab::BackendChoice::Sim);
  CHECK(back.of("fold-any-length").cases == 126);
  CHECK(back.of("fold-any-length").date == "2026-03-01");
  CHECK(back.of("one-queue").backend == rlab::BackendChoice::Gpu);
  CHECK(back.of("one-queue").cases == 93);
  CHECK(back.of("one-queue").simulatorCases == 120);
  CHECK(back.markOf("largest-element") == ExerciseMark::Tried);
  CHECK(back.markOf("shuffle-butterfly") == ExerciseMark::NotStarted);
  CHECK(back.doneCount() == 2);
  CHECK(rlab::progressJson(back) == rlab::progressJson(p));
  // Temp file and rename: nothing else is left in the folder.
  int files = 0;
  for (const auto& entry : fs::directory_iterator(home.data())) {
    CAPTURE(entry.path().string());
    CHECK(entry.path().filename() == "progress.json");
    ++files;
  }
  CHECK(files == 1);
  const auto j = nlohmann::json::parse(readText(home.progress()));
  CHECK(j["exercises"]["fold-any-length"]["mark"] == "done");

  // No file yet: a fresh start, and nothing to say about it.
  const rlab::Progress none = rlab::loadProgress((home.data() / "none.json").string());
  CHECK(none.problem.empty());
  CHECK(none.exercises.empty());
}

TEST_CASE("progress: a corrupt file is one sentence and a fresh start, and is kept aside") {
  const DataHome home("progress-corrupt");
  for (const std::string& text :
       {std::string("{\"exercises\": {\"one-queue\": "), std::string("[1, 2, 3]"),
        std::string("{\"exercises\": {\"one-queue\": {\"mark\": \"halfway\"}}}"),
        std::string("{\"exercises\": {\"one-queue\": {\"mark\": \"done\", \"backend\": "
                    "\"tpu\"}}}"),
        std::string("\x89PNG\r\n")}) {
    CAPTURE(text);
    writeText(home.progress(), text);
    const rlab::Progress p = rlab::loadProgress(home.progress().string());
    CHECK(p.unreadable);
    CHECK(p.exercises.empty());
    REQUIRE_FALSE(p.problem.empty());
    for (rlab::Language language : rlab::kLanguages) {
      const std::string sentence = rlab::render(p.problem, language);
      CAPTURE(sentence);
      CHECK(sentence.find(home.progress().string()) != std::string::npos);
      CHECK(sentence.find(home.progress().string() + ".bad") != std::string::npos);
      CHECK(sentence.find('\n') == std::string::npos);
    }
  }
  CHECK(rlab::english(rlab::loadProgress(home.progress().string()).problem)
            .rfind(home.progress().string() + " could not be read (", 0) == 0);

  // rlab says it in one line and goes on: every exercise not started.
  const Outcome list = rlabWith({"exercise", "list", "--lang", "en"});
  CHECK(list.code == 0);
  CHECK(std::count(list.err.begin(), list.err.end(), '\n') == 1);
  CHECK(list.err.rfind("rlab: " + home.progress().string() + " could not be read", 0) == 0);
  CHECK(lineOf(list.out, "one-queue").rfind("  [not started]  one-queue", 0) == 0);

  // The next save keeps the unreadable file as progress.json.bad and writes a good one.
  const std::string corrupt = readText(home.progress());
  const rlab::Progress after = rlab::recordStartInFile(home.progress().string(), "one-queue");
  CHECK_FALSE(after.problem.empty());  // said once more, by the command that saved
  CHECK(readText(home.progress().string() + ".bad") == corrupt);
  const rlab::Progress fresh = rlab::loadProgress(home.progress().string());
  CHECK(fresh.problem.empty());
  CHECK(fresh.markOf("one-queue") == ExerciseMark::Tried);
}

TEST_CASE("progress: a start is tried, a failed check tried, a pass done and it stays done") {
  rlab::Progress p;
  const std::string eId = "fold-any-length";  // g++ 14: no temporary in the call
  const rlab::Exercise& e = rlab::exerciseOrThrow(eId);
  rlab::recordCheck(p, e, reportOf(rlab::ExerciseVerdict::Cancelled, 3), rlab::BackendChoice::Sim,
                    "2026-03-01");
  rlab::recordCheck(p, e, reportOf(rlab::ExerciseVerdict::NotRun, 0), rlab::BackendChoice::Sim,
                    "2026-03-01");
  CHECK(p.markOf(e.id) == ExerciseMark::NotStarted);  // neither is a finished check
  rlab::markStarted(p, e.id, "2026-03-01");
  CHECK(p.markOf(e.id) == ExerciseMark::Tried);
  rlab::recordCheck(p, e, reportOf(rlab::ExerciseVerdict::CompileError, 0),
                    rlab::BackendChoice::Sim, "2026-03-02");
  CHECK(p.markOf(e.id) == ExerciseMark::Tried);
  CHECK(p.of(e.id).date == "2026-03-02");
  rlab::recordCheck(p, e, reportOf(rlab::ExerciseVerdict::Passed, 126), rlab::BackendChoice::Sim,
                    "2026-03-03");
  CHECK(p.markOf(e.id) == ExerciseMark::Done);
  CHECK(p.of(e.id).cases == 126);
  rlab::recordCheck(p, e, reportOf(rlab::ExerciseVerdict::Failed, 4), rlab::BackendChoice::Sim,
                    "2026-03-04");
  rlab::markStarted(p, e.id, "2026-03-04");
  CHECK(p.markOf(e.id) == ExerciseMark::Done);  // a pass stays a pass
  CHECK(p.of(e.id).date == "2026-03-03");
  CHECK(rlab::todayDate().size() == 10);
}

TEST_CASE("progress: the next exercise follows the course's order and goes round") {
  std::vector<std::string> order;
  for (const rlab::LessonInfo& lesson : rlab::lessons())
    for (const rlab::Exercise* e : rlab::exercisesOf(lesson.id)) order.push_back(e->id);
  const auto course = rlab::courseExercises();
  REQUIRE(course.size() == rlab::exercises().size());
  REQUIRE(order.size() == course.size());
  for (size_t k = 0; k < order.size(); ++k) CHECK(course[k]->id == order[k]);

  rlab::Progress p;
  CHECK(rlab::nextExercise(p)->id == order[0]);
  CHECK(rlab::nextExercise(p, order[0])->id == order[1]);
  const rlab::ExerciseReport passed = reportOf(rlab::ExerciseVerdict::Passed, 100);
  rlab::recordCheck(p, *course[1], passed, rlab::BackendChoice::Sim, "2026-03-01");
  CHECK(rlab::nextExercise(p, order[0])->id == order[2]);      // the one done is passed over
  CHECK(rlab::nextExercise(p, order.back())->id == order[0]);  // round to the start
  for (const rlab::Exercise* e : course)
    if (e != course[3]) rlab::recordCheck(p, *e, passed, rlab::BackendChoice::Sim, "2026-03-01");
  CHECK(rlab::nextExercise(p, order[5])->id == order[3]);  // the only one left
  CHECK(rlab::nextExercise(p)->id == order[3]);
  rlab::recordCheck(p, *course[3], passed, rlab::BackendChoice::Sim, "2026-03-01");
  CHECK(rlab::nextExercise(p) == nullptr);
  CHECK(p.doneCount() == int(course.size()));
}

TEST_CASE("rlab exercise list and progress show the marks, in English, Japanese and Chinese") {
  const DataHome home("progress-cli");
  writeProgress(home.progress(), {"one-queue"}, {"largest-element"});
  const rlab::Exercise* next = rlab::nextExercise(rlab::loadProgress(home.progress().string()));
  REQUIRE(next);
  const std::string total = std::to_string(rlab::exercises().size());

  struct Expected {
    const char* lang;
    const char *done, *tried, *notStarted, *heading, *next;
  };
  const Expected languages[] = {
      {"en", "  [done]         one-queue", "  [tried]        largest-element",
       "  [not started]  fold-any-length", "Your path through the course: 1 of ", "Next: "},
      {"ja", "  [完了]    one-queue", "  [挑戦中]  largest-element", "  [未着手]  fold-any-length",
       "このコースの進み具合：演習 ", "次の演習："},
      {"zh", "  [已完成]  one-queue", "  [进行中]  largest-element", "  [未开始]  fold-any-length",
       "课程进度：", "下一个练习："},
  };
  for (const Expected& x : languages) {
    CAPTURE(x.lang);
    const Outcome list = rlabWith({"exercise", "list", "--lang", x.lang});
    REQUIRE(list.code == 0);
    CHECK(list.err.empty());
    CHECK(lineOf(list.out, "one-queue").rfind(x.done, 0) == 0);
    CHECK(lineOf(list.out, "largest-element").rfind(x.tried, 0) == 0);
    CHECK(lineOf(list.out, "fold-any-length").rfind(x.notStarted, 0) == 0);

    const Outcome progress = rlabWith({"exercise", "progress", "--lang", x.lang});
    REQUIRE(progress.code == 0);
    CHECK(progress.err.empty());
    CHECK(progress.out.rfind(x.heading, 0) == 0);
    CHECK(progress.out.find(x.next + std::string("rlab exercise start ") + next->id + " — " +
                            rlab::exerciseText(*next, rlab::parseLanguage(x.lang)).title) !=
          std::string::npos);
    CHECK(lineOf(progress.out, "one-queue").rfind(x.done, 0) == 0);
    CHECK(progress.out.find("2026-03-01") != std::string::npos);              // when it passed
    CHECK(progress.out.find(home.progress().string()) != std::string::npos);  // where it is
    // Every lesson with exercises, numbered as the app lists them.
    CHECK(progress.out.find("\n1. atomic — ") != std::string::npos);
  }
  const Outcome en = rlabWith({"exercise", "progress", "--lang", "en"});
  CHECK(en.out.rfind("Your path through the course: 1 of " + total + " exercises done.\n", 0) == 0);
  CHECK(en.out.find("      2026-03-01, the simulator: all 126 cases passed\n") !=
        std::string::npos);

  const auto j = nlohmann::json::parse(rlabWith({"exercise", "progress", "--format", "json"}).out);
  CHECK(j["done"] == 1);
  CHECK(j["total"] == rlab::exercises().size());
  CHECK(j["next"] == next->id);
  CHECK(j["progressFile"] == home.progress().string());
  CHECK(j["lessons"][0]["lesson"] == "atomic");
  CHECK(j["lessons"][0]["exercises"][0]["id"] == "one-queue");
  CHECK(j["lessons"][0]["exercises"][0]["mark"] == "done");
  CHECK(j["lessons"][0]["exercises"][0]["cases"] == 126);
  const auto listed = nlohmann::json::parse(rlabWith({"exercise", "list", "--format", "json"}).out);
  for (const auto& e : listed["exercises"])
    CHECK(e["mark"] == (e["id"] == "one-queue"         ? "done"
                        : e["id"] == "largest-element" ? "tried"
                                                       : "not-started"));
}

TEST_CASE("rlab exercise check records the progress and offers the next exercise") {
  const DataHome home("progress-check");
  const std::string solution = sourceFile("lessons/folding/exercises/fold-any-length/solution.cu");
  const Outcome passed = rlabWith({"exercise", "check", "fold-any-length", solution});
  REQUIRE_MESSAGE(passed.code == 0, passed.err);
  const rlab::Progress p = rlab::loadProgress(home.progress().string());
  CHECK(p.markOf("fold-any-length") == ExerciseMark::Done);
  CHECK(p.of("fold-any-length").backend == rlab::BackendChoice::Sim);
  CHECK(p.of("fold-any-length").cases > 100);
  CHECK(p.of("fold-any-length").date == rlab::todayDate());
  const rlab::Exercise* next = rlab::nextExercise(p, "fold-any-length");
  REQUIRE(next);
  CHECK(passed.out.find("\nNext: rlab exercise start " + next->id + " — " +
                        rlab::exerciseText(*next).title + "\n") != std::string::npos);

  // A failed check: done stays done; another exercise becomes tried. No "Next" after a failure.
  const Outcome failed = rlabWith({"exercise", "check", "fold-any-length",
                                   sourceFile("tests/fixtures/exercises/drops_tail.cu")});
  CHECK(failed.code == 1);
  CHECK(failed.out.find("Next: ") == std::string::npos);
  const Outcome refused = rlabWith(
      {"exercise", "check", "one-queue", sourceFile("tests/fixtures/exercises/compile_error.cu")});
  CHECK(refused.code == 1);
  const rlab::Progress after = rlab::loadProgress(home.progress().string());
  CHECK(after.markOf("fold-any-length") == ExerciseMark::Done);
  CHECK(after.markOf("one-queue") == ExerciseMark::Tried);
  // A run of one case is no check: nothing recorded.
  const Outcome run = rlabWith({"exercise", "run", "largest-element", solution, "--n", "8"});
  CHECK(rlab::loadProgress(home.progress().string()).markOf("largest-element") ==
        ExerciseMark::NotStarted);
  (void)run;

  // The last one passed: every exercise is done, in every language.
  std::vector<std::string> others;
  for (const rlab::Exercise* e : rlab::courseExercises())
    if (e->id != "fold-any-length") others.push_back(e->id);
  writeProgress(home.progress(), others, {});
  const Outcome last = rlabWith({"exercise", "check", "fold-any-length", solution, "--lang", "ja"});
  CHECK(last.code == 0);
  CHECK(last.out.find("このコースの演習 " + std::to_string(others.size() + 1) +
                      " 問はすべて完了です。") != std::string::npos);
  const auto j = nlohmann::json::parse(
      rlabWith({"exercise", "check", "fold-any-length", solution, "--format", "json"}).out);
  CHECK(j["next"].is_null());
}

TEST_CASE("rlab exercise start writes into the shared folder, and check finds the file there") {
  const DataHome home("progress-start");
  const fs::path file = home.data() / "exercises" / "one-queue" / "one-queue.cu";
  const Outcome start = rlabWith({"exercise", "start", "one-queue"});
  REQUIRE_MESSAGE(start.code == 0, start.err);
  CHECK(fs::exists(file));
  CHECK(start.out.find("Wrote " + file.string()) == 0);
  CHECK(start.out.find("\n  rlab exercise check one-queue\n") != std::string::npos);
  CHECK(rlab::loadProgress(home.progress().string()).markOf("one-queue") == ExerciseMark::Tried);

  // Started before: the learner's work is named, never written over.
  writeText(file, "// my work\n");
  const Outcome again = rlabWith({"exercise", "start", "one-queue", "--lang", "zh"});
  CHECK(again.code == 0);
  CHECK(again.out.rfind(file.string() + " 之前就有了", 0) == 0);
  CHECK(readText(file) == "// my work\n");

  // check without FILE checks that file; the starting file compiles and fails.
  fs::copy_file(sourceFile("lessons/atomic/exercises/one-queue/start.cu"), file,
                fs::copy_options::overwrite_existing);
  const Outcome check = rlabWith({"exercise", "check", "one-queue"});
  CHECK(check.code == 1);
  CHECK(check.out.rfind("exercise one-queue: " + file.string() + "\n", 0) == 0);

  // No file yet: one sentence that says how to make one.
  const Outcome none = rlabWith({"exercise", "check", "largest-element"});
  CHECK(none.code == 2);
  CHECK(none.err.find("rlab exercise start largest-element") != std::string::npos);
  CHECK(std::count(none.err.begin(), none.err.end(), '\n') == 1);
}

TEST_CASE("progress: the app's old file is moved into the shared folder, rlab's read in place") {
  const TempFolder scratch("progress-old-places");
  const fs::path folder = scratch.path / "exercises";
  const std::string eId = "one-queue";  // g++ 14: no temporary in the call
  const rlab::Exercise& e = rlab::exerciseOrThrow(eId);
  // The app kept FOLDER/ID.cu.
  writeText(folder / "one-queue.cu", "// from the app\n");
  const rlab::LearnerFile moved = rlab::findLearnerFile(e, folder.string());
  CHECK(moved.found);
  CHECK(moved.movedFrom == (folder / "one-queue.cu").string());
  CHECK(moved.path == (folder / "one-queue" / "one-queue.cu").string());
  CHECK(readText(moved.path) == "// from the app\n");
  CHECK_FALSE(fs::exists(folder / "one-queue.cu"));
  const rlab::LearnerFile now = rlab::findLearnerFile(e, folder.string());
  CHECK(now.found);
  CHECK(now.movedFrom.empty());

  // rlab exercise start wrote ./ID.cu where it ran: read there, not moved.
  const std::string otherId = "largest-element";  // g++ 14: no temporary in the call
  const rlab::Exercise& other = rlab::exerciseOrThrow(otherId);
  const fs::path here = scratch.path / "work";
  writeText(here / "largest-element.cu", "// from rlab\n");
  const rlab::LearnerFile read = rlab::findLearnerFile(other, folder.string(), here.string());
  CHECK(read.found);
  CHECK(read.oldPlace);
  CHECK(read.path == (here / "largest-element.cu").string());
  CHECK(fs::exists(here / "largest-element.cu"));
  const rlab::LearnerFile missing = rlab::findLearnerFile(other, folder.string());
  CHECK_FALSE(missing.found);
  CHECK(missing.path == (folder / "largest-element" / "largest-element.cu").string());
}
