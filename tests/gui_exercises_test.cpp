// Exercises in the app: the editor, Run and Check on a worker thread, compile errors at their
// line, crashes and hangs that leave the app running, files changed on disk.
#include <doctest/doctest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "app/gui/app.hpp"
#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/exercise/progress.hpp"
#include "tests/app_driver.hpp"
#include "tests/gui_screenshot.hpp"
#include "tests/headless_imgui.hpp"
#include "tests/temp_folder.hpp"

using rlab::gui::App;

// ---- Exercises in the app ----------------------------------------------------------------------

namespace {

// An app whose exercise files live in a folder of their own.
struct ExerciseApp {
  ExerciseApp() {
    std::filesystem::remove_all(folder.path);  // the app writes the folder itself
    app.ui.exerciseFolder = folder.str();
    app.ui.progressFile = (folder / "progress.json").string();  // its own progress too
  }
  TempFolder folder{"gui-exercises"};
  HeadlessImGui imgui{ImVec2(1280, 1600)};  // tall: every hint's button in view
  App app;
};

std::string fixture(const char* name) {
  std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/tests/fixtures/exercises/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("gui: Run once puts the learner's own steps in the player under the editor") {
  ExerciseApp t;
  App& app = t.app;
  settle(app);
  const auto lessonRun = app.ui.trace;
  const int lessonStep = app.ui.step;
  REQUIRE(lessonRun);
  app.openExercise("tree-in-shared");
  app.setExerciseText(rlab::solutionFile(rlab::exerciseOrThrow("tree-in-shared")));
  app.ui.exercise.runOptions.n = 8;
  app.ui.exercise.runOptions.block = 8;
  click(app, "exercise:run");
  settle(app);
  REQUIRE(app.ui.exercise.trace);
  CHECK(app.ui.exercise.trace->steps.size() == 6);  // input, 4 barriers, out[]
  click(app, "forward");
  click(app, "forward");
  CHECK(app.ui.exercise.step == 2);
  CHECK(app.ui.step == lessonStep);  // the lesson's player did not move ...
  CHECK(app.ui.trace == lessonRun);  // ... and its run waits behind the exercise
  app.closeExercise();
  settle(app);
  CHECK(app.ui.trace == lessonRun);
}

TEST_CASE("gui: a failed check opens the hint about it, and a run's race is marked and said") {
  ExerciseApp t;
  App& app = t.app;
  settle(app);
  app.openExercise("put-the-barrier-back");  // its starting file has no barrier: a race
  click(app, "exercise:check");
  settle(app);
  REQUIRE(app.ui.exercise.report);
  CHECK_FALSE(app.ui.exercise.report->passed());
  CHECK(app.ui.exercise.report->hint == 1);
  REQUIRE(app.ui.exercise.hintsOpen == 0);
  click(app, "exercise:hint about the failure");
  CHECK(app.ui.exercise.hintsOpen == 1);

  app.ui.exercise.runOptions.n = 8;
  app.ui.exercise.runOptions.block = 8;
  click(app, "exercise:run");
  settle(app);
  REQUIRE(app.ui.exercise.trace);
  const rlab::StepSnapshot& last = app.ui.exercise.trace->steps.back();
  CHECK(last.racedElement >= 0);
  CHECK(last.array == "a");
}

TEST_CASE("gui: an exercise opens in the editor with its starting file, and passes once solved") {
  ExerciseApp t;
  App& app = t.app;
  settle(app);
  click(app, "exercise:fold-any-length");
  const std::string eId = "fold-any-length";
  const rlab::Exercise& e = rlab::exerciseOrThrow(eId);
  REQUIRE(app.ui.exercise.id == e.id);
  CHECK(app.ui.exercise.text == rlab::startFile(e));
  CHECK(std::filesystem::exists(t.folder / "fold-any-length" / "fold-any-length.cu"));
  click(app, "exercise:editor");  // the editor is there and takes focus

  app.setExerciseText(rlab::solutionFile(e));  // as if pasted
  click(app, "exercise:check");
  settle(app);
  REQUIRE(app.ui.exercise.report);
  CHECK_MESSAGE(app.ui.exercise.report->passed(), rlab::english(app.ui.exercise.report->summary()));
  CHECK(app.ui.exercise.passed);
  CHECK_FALSE(app.ui.exercise.dirty);  // saved before the check

  // The solution opens at once after a pass; hints one at a time.
  click(app, "exercise:solution");
  CHECK(app.ui.exercise.solutionShown);
  click(app, "exercise:hint");
  click(app, "exercise:hint");
  CHECK(app.ui.exercise.hintsOpen == 2);

  click(app, "lesson:folding");  // back to the lesson
  CHECK(app.ui.exercise.id.empty());
}

TEST_CASE("gui: the lesson list marks each exercise, and a pass offers the next one") {
  ExerciseApp t;
  App& app = t.app;
  settle(app);
  const std::string eId = "fold-any-length";
  const rlab::Exercise& e = rlab::exerciseOrThrow(eId);
  CHECK(app.ui.widgetRects.count("mark:" + e.id));  // a mark before each exercise's row
  CHECK(app.ui.progress.markOf(e.id) == rlab::ExerciseMark::NotStarted);
  click(app, "exercise:" + e.id);
  CHECK(app.ui.progress.markOf(e.id) == rlab::ExerciseMark::Tried);  // its file was started
  app.setExerciseText(rlab::solutionFile(e));
  click(app, "exercise:check");
  settle(app);
  REQUIRE(app.ui.exercise.report);
  REQUIRE(app.ui.exercise.report->passed());
  CHECK(app.ui.progress.markOf(e.id) == rlab::ExerciseMark::Done);
  CHECK(rlab::loadProgress(app.ui.progressFile).of(e.id).backend ==
        rlab::BackendChoice::Sim);  // in the file too
  const rlab::Exercise* next = rlab::nextExercise(app.ui.progress, e.id);
  REQUIRE(next);
  click(app, "exercise:next");
  CHECK(app.ui.exercise.id == next->id);

  // rlab passes an exercise in the same file: the app's marks follow within a second.
  rlab::Progress p = rlab::loadProgress(app.ui.progressFile);
  rlab::ExerciseReport passed;
  passed.verdict = rlab::ExerciseVerdict::Passed;
  passed.casesRun = 120;
  rlab::recordCheck(p, *next, passed, rlab::BackendChoice::Sim, rlab::todayDate());
  rlab::Message problem;
  REQUIRE(rlab::saveProgress(p, app.ui.progressFile, problem));
  for (int k = 0; k < 75; ++k) frame(app);
  CHECK(app.ui.progress.markOf(next->id) == rlab::ExerciseMark::Done);
}

TEST_CASE("gui: a compile error comes back at its line, a crash leaves the app running") {
  ExerciseApp t;
  App& app = t.app;
  app.openExercise("one-queue");
  app.setExerciseText(fixture("compile_error.cu"));
  click(app, "exercise:check");
  settle(app);
  REQUIRE(app.ui.exercise.report);
  CHECK(app.ui.exercise.report->verdict == rlab::ExerciseVerdict::CompileError);
  REQUIRE_FALSE(app.ui.exercise.report->diagnostics.empty());
  CHECK(app.ui.exercise.report->diagnostics.front().line == 5);

  app.setExerciseText(fixture("null_pointer.cu"));
  click(app, "exercise:check");
  settle(app);
  REQUIRE(app.ui.exercise.report);
  REQUIRE(app.ui.exercise.report->verdict == rlab::ExerciseVerdict::Failed);
  CHECK(rlab::english(app.ui.exercise.report->failures.front()).find("used a null pointer") !=
        std::string::npos);
  CHECK(app.ui.exercise.text == fixture("null_pointer.cu"));  // the text is kept

  // The solution asks once before it opens without a pass.
  click(app, "exercise:solution");
  CHECK_FALSE(app.ui.exercise.solutionShown);
  click(app, "exercise:solution");
  CHECK(app.ui.exercise.solutionShown);
}

TEST_CASE("gui: the lines a stopped launch names are marked in every language") {
  ExerciseApp t;
  App& app = t.app;
  app.openExercise("put-the-barrier-back");
  app.setExerciseText(fixture("two_barriers.cu"));
  click(app, "exercise:check");
  settle(app);
  REQUIRE(app.ui.exercise.report);
  REQUIRE(app.ui.exercise.report->verdict == rlab::ExerciseVerdict::Failed);
  // Threads at the barrier of line 8, the others at line 10: Japanese and Chinese name the
  // second in brackets of their own, "（two_barriers.cu:10）".
  for (rlab::Language language : rlab::kLanguages) {
    CAPTURE(std::string(rlab::code(language)));
    rlab::gui::setUiLanguage(language);
    const auto notes = rlab::gui::notesByLine(app.ui.exercise);
    CHECK(notes.count(8));
    CHECK(notes.count(10));
  }
  rlab::gui::setUiLanguage(rlab::Language::En);
}

TEST_CASE("gui: a file changed on disk is reloaded, or the learner chooses when both changed") {
  ExerciseApp t;
  App& app = t.app;
  app.openExercise("one-queue");
  const std::string file = app.ui.exercise.file;
  const auto later = [&](const std::string& text) {
    std::ofstream(file, std::ios::trunc) << text;
    std::filesystem::last_write_time(
        file, std::filesystem::last_write_time(file) + std::chrono::seconds(2));
    for (int k = 0; k < 40; ++k) frame(app);  // the app looks twice a second
  };
  later("// edited elsewhere\n");
  CHECK(app.ui.exercise.text == "// edited elsewhere\n");
  CHECK_FALSE(app.ui.exercise.changedOnDisk);

  app.setExerciseText(app.ui.exercise.text + "// and here\n");
  later("// edited elsewhere again\n");
  CHECK(app.ui.exercise.changedOnDisk);
  CHECK(app.ui.exercise.text == "// edited elsewhere\n// and here\n");  // nothing lost
}

TEST_CASE("gui: a check that never ends can be cancelled") {
  ExerciseApp t;
  App& app = t.app;
  app.openExercise("fold-any-length");
  app.setExerciseText(fixture("never_ends.cu"));
  // No case limit can end the check first, however slow the machine: only Cancel can.
  app.ui.exercise.caseSeconds = 3600;
  click(app, "exercise:check");
  while (app.exerciseStage() != "checking") {
    REQUIRE(app.exerciseBusy());  // compiling, then checking: never done by itself
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    frame(app);
  }
  click(app, "exercise:cancel");
  settle(app);
  REQUIRE(app.ui.exercise.report);
  CHECK(app.ui.exercise.report->verdict == rlab::ExerciseVerdict::Cancelled);
}

#ifdef RLAB_GUI_BINARY
TEST_CASE("gui: a screenshot of an exercise after its check, not blank" * doctest::skip(noXvfb())) {
  const TempFolder dir("exercise-screenshot");
  const auto png = dir / "exercise.png";
  const std::string command = std::string("xvfb-run -a ") + RLAB_GUI_BINARY + " --screenshot " +
                              png.string() + " --exercise fold-any-length --exercise-dir " +
                              dir.str() + " --exercise-action check --hints 1 --size 1000x700";
  CAPTURE(command);
  REQUIRE(std::system(command.c_str()) == 0);
  // the starting file, written
  CHECK(std::filesystem::exists(dir / "fold-any-length" / "fold-any-length.cu"));
  CHECK(readPicture(png.string()).colours > 40);
}
#endif

TEST_CASE("gui: the desk does not flip while a line near the edge is typed") {
  TempFolder folder("gui-exercise-flip");
  HeadlessImGui imgui(ImVec2(1920, 1080));
  App app;
  app.ui.view.presenter = false;
  app.ui.exerciseFolder = folder.str();
  app.ui.progressFile = (folder / "progress.json").string();
  app.openExercise("one-queue");
  settle(app);
  auto checkBeside = [&] {
    ImGuiWindow* editor = ImGui::FindWindowByName(rlab::gui::trId("Your kernel"));
    ImGuiWindow* check = ImGui::FindWindowByName(rlab::gui::trId("Run and check"));
    REQUIRE(editor);
    REQUIRE(check);
    return check->Pos.x >= editor->Pos.x + editor->Size.x - 0.5f;
  };
  REQUIRE(checkBeside());
  // A comment line typed longer, a character at a time, until the editor must stack; then a
  // character or two taken back: it stays stacked; shorter by far: beside again.
  const std::string start = app.ui.exercise.text;
  std::string line = "// ";
  while (checkBeside()) {
    line += 'x';
    app.ui.exercise.text = start + line + "\n";
    settle(app);
    REQUIRE(line.size() < 400);
  }
  line.resize(line.size() - 2);
  app.ui.exercise.text = start + line + "\n";
  settle(app);
  CHECK_FALSE(checkBeside());
  line.resize(line.size() - 8);
  app.ui.exercise.text = start + line + "\n";
  settle(app);
  CHECK(checkBeside());
}

TEST_CASE("gui: on a laptop the editor shows the kernel's longest line, Run and check under it") {
  for (const ImVec2 size : {ImVec2(1280, 800), ImVec2(1366, 768)})
    for (const char* id : {"fix-the-last-warp", "tree-in-shared"}) {
      CAPTURE(size.x);
      CAPTURE(id);
      TempFolder folder("gui-exercise-layout");
      HeadlessImGui imgui(size);
      App app;
      app.ui.view.presenter = false;
      app.ui.exerciseFolder = folder.str();
      app.ui.progressFile = (folder / "progress.json").string();
      app.openExercise(id);
      settle(app);
      ImGuiWindow* editor = ImGui::FindWindowByName(rlab::gui::trId("Your kernel"));
      ImGuiWindow* check = ImGui::FindWindowByName(rlab::gui::trId("Run and check"));
      REQUIRE(editor);
      REQUIRE(check);
      CHECK(editor->Size.x >= rlab::gui::exerciseEditorSizeFor(app.ui.exercise.text).x);
      CHECK(check->Pos.y >= editor->Pos.y + editor->Size.y - 0.5f);  // under it, not beside
      for (const char* widget : {"exercise:check", "exercise:run"}) {
        const auto found = app.ui.widgetRects.find(widget);
        REQUIRE(found != app.ui.widgetRects.end());
        CHECK(found->second.w <= check->InnerClipRect.Max.y + 0.5f);  // in view
      }
    }
}
