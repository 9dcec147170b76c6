// Run and Check for the open exercise, in the background with progress and Cancel, and the
// report: compile errors (a click scrolls the editor to the line), each failure's sentence
// with its replay line, the run's result, what the kernel printed, the times.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/exercise/progress.hpp"

namespace rlab::gui {

namespace {

const char* verdictWord(ExerciseVerdict v, bool run) {
  switch (v) {
    case ExerciseVerdict::Passed:
      return run ? tr("CORRECT") : tr("PASSED");
    case ExerciseVerdict::Failed:
      return run ? tr("WRONG") : tr("FAILED");
    case ExerciseVerdict::CompileError:
      return tr("COMPILE ERROR");
    case ExerciseVerdict::Cancelled:
      return tr("CANCELLED");
    case ExerciseVerdict::NotRun:
      break;
  }
  return tr("NOT RUN");
}

// A number the exercise chooses unless the learner types one: empty shows "default".
void optionalNumber(const char* label, long long& value) {
  std::string text = value > 0 ? std::to_string(value) : "";
  if (ImGui::InputTextWithHint(label, tr("default"), &text, ImGuiInputTextFlags_CharsDecimal))
    value = text.empty() ? 0 : std::max(0LL, std::atoll(text.c_str()));
}

// Two labelled inputs side by side, each as wide as the row allows up to seven characters'
// room; where even narrow ones do not fit beside their labels (presenter type in a narrow
// panel), one under the other, so that no label is cut.
template <class First, class Second>
void sideBySide(const char* firstLabel, const char* secondLabel, First&& first, Second&& second) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float font = ImGui::GetFontSize(), room = ImGui::GetContentRegionAvail().x;
  const float firstWidth = ImGui::CalcTextSize(firstLabel).x + style.ItemInnerSpacing.x,
              secondWidth = ImGui::CalcTextSize(secondLabel).x + style.ItemInnerSpacing.x;
  const float each = (room - firstWidth - secondWidth - style.ItemSpacing.x) / 2;
  const bool together = each >= font * 4;
  const float width = together
                          ? std::min(each, font * 7)
                          : std::clamp(room - std::max(firstWidth, secondWidth), font, font * 7);
  ImGui::SetNextItemWidth(width);
  first();
  if (together) ImGui::SameLine();
  ImGui::SetNextItemWidth(width);
  second();
}

void runOptions(ExerciseState& ex) {
  Params& p = ex.runOptions;
  long long n = p.n, block = p.block;
  sideBySide(
      "n", "block", [&] { optionalNumber("n", n); }, [&] { optionalNumber("block", block); });
  p.n = n;
  p.block = int(std::min(block, 1LL << 20));
  sideBySide(
      "data", "schedule", [&] { ImGui::InputText("data", &p.data); },
      [&] { ImGui::InputText("schedule", &p.schedule); });
  wrappedText(tr("n and block left empty: the exercise's own; data iota, ones or random:SEED"),
              true);
}

std::string withoutBackticks(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), '`'), text.end());
  return text;
}

// After a passing check: the next exercise not done yet in the course's order, a button that
// opens it (in `openNext`: opening replaces the report being drawn), or that all are done.
void offerNext(App& app, const Exercise& e, const Palette& pal, std::string& openNext) {
  UiState& ui = app.ui;
  const Exercise* next = nextExercise(ui.progress, e.id);
  if (!next) {
    wrappedText(say(Message("view.exercise-all-done", {{"count", courseExercises().size()}})),
                pal.right);
    return;
  }
  const std::string label =
      printed(tr("Next exercise: %s"),
              withoutBackticks(exerciseText(*next, ui.language).title).c_str()) +
      "###exercise-next";
  if (ImGui::Button(label.c_str())) openNext = next->id;
  noteWidget(ui, "exercise:next");
}

void reportView(App& app, const ExerciseReport& r, const Palette& pal, std::string& openNext) {
  ExerciseState& ex = app.ui.exercise;
  const bool good = r.passed();
  ImGui::SetWindowFontScale(1.5f);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(good ? pal.right : pal.wrong), "%s",
                     verdictWord(r.verdict, ex.reportIsRun));
  ImGui::SetWindowFontScale(1.0f);
  // A run's "correct" or "wrong" would only repeat the word above it.
  if (!(r.hasResult &&
        (r.verdict == ExerciseVerdict::Passed || r.verdict == ExerciseVerdict::Failed)))
    wrappedText(say(r.summary()));
  if (good && !ex.reportIsRun) {
    wrappedText(tr("Compare with ours: Show our solution, under the statement."), true);
    if (const Exercise* e = findExercise(ex.id)) offerNext(app, *e, pal, openNext);
  }
  if (r.hasResult)
    ImGui::Text(tr("result %s   expected %s"), formatValue(r.result, ElementType::Int).c_str(),
                formatValue(r.expected, ElementType::Int).c_str());

  const std::string fileName = r.file.substr(r.file.find_last_of('/') + 1);
  for (const CompileDiagnostic& d : r.diagnostics) {
    const ImU32 colour = d.severity == "error" ? pal.wrong : pal.changed;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colour), "%s", d.text(fileName).c_str());
    if (d.line <= 0) continue;
    if (ImGui::IsItemClicked()) ex.scrollToLine = d.line;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip(tr("Click: show line %d"), d.line);
  }

  int k = 0;
  for (const Message& failure : r.failures) {
    ImGui::Separator();
    wrappedText(say(failure));
    // The replay line runs the learner's file on this case from a terminal; a long list of
    // values is cut here and copied whole.
    const std::string line = failure.arg("replay");
    if (line.empty()) continue;
    const size_t shown = 150;
    ImGui::TextDisabled(tr("Replay: %s%s"), line.substr(0, shown).c_str(),
                        line.size() > shown ? " ..." : "");
    ImGui::PushID(k++);
    if (ImGui::SmallButton(trId("Copy the replay line"))) ImGui::SetClipboardText(line.c_str());
    ImGui::PopID();
  }
  for (const Message& note : r.notes) wrappedText(say(note), true);
  // A run's race is a note of its steps (the array marks its element): said here too, in full.
  if (r.trace)
    for (const Message& note : r.trace->notes)
      if (note.id == "note.race" || note.id == "note.race-right") wrappedText(say(note), pal.wrong);
  if (r.hint > 0) {  // the hint about what failed, opened under the statement on a click
    wrappedText(printed(tr("Hint %d is about this kind of failure."), r.hint));
    if (ex.hintsOpen < r.hint &&
        ImGui::SmallButton((printed(tr("Show hint %d"), r.hint) + "###hint about it").c_str()))
      ex.hintsOpen = r.hint;
    noteWidget(app.ui, "exercise:hint about the failure");
  }
  if (!r.printed.empty() && ImGui::CollapsingHeader(trId("What the kernel printed"))) {
    if (ImFont* code = codeFont()) ImGui::PushFont(code);
    ImGui::TextUnformatted(r.printed.c_str());
    if (codeFont()) ImGui::PopFont();
  }
  ImGui::Separator();
  if (r.verdict == ExerciseVerdict::CompileError)
    ImGui::TextDisabled(tr("compiled in %.2f s"), r.compileSeconds);
  else
    ImGui::TextDisabled(ex.reportOnGpu ? tr("compiled in %.2f s, ran in %.2f s on the GPU")
                                       : tr("compiled in %.2f s, ran in %.2f s on the simulator"),
                        r.compileSeconds, r.runSeconds);
}

}  // namespace

void drawExerciseCheck(App& app) {
  UiState& ui = app.ui;
  ExerciseState& ex = ui.exercise;
  const Palette& pal = palette(ui.view.presenter);
  const Exercise* e = findExercise(ex.id);
  if (!e) return;
  ImGui::PushTextWrapPos(0);
  if (app.exerciseBusy()) {
    const std::string stage = app.exerciseStage();
    const std::string label = stage == "checking"
                                  ? printed(tr("checking: %d%%"), int(app.exerciseProgress() * 100))
                                  : std::string(tr("compiling ..."));
    ImGui::ProgressBar(stage == "checking" ? app.exerciseProgress() : 0.f,
                       ImVec2(ImGui::GetFontSize() * 14, 0), label.c_str());
    ImGui::SameLine();
    if (ImGui::Button(trId("Cancel"))) app.cancelExerciseWork();
    noteWidget(ui, "exercise:cancel");
  } else {
    if (ImGui::Button(trId("Check"))) app.startExerciseCheck();
    noteWidget(ui, "exercise:check");
    ImGui::SameLine();
    if (ImGui::Button(trId("Run once"))) app.startExerciseRun();
    noteWidget(ui, "exercise:run");
    helpMarker(
        tr("Check: save, compile, and run your kernel through every case (awkward sizes, every "
           "block size, random and adversarial data, random and stalling schedules). Run once: "
           "save, compile and run it on the case below, as a failed check's replay line does."));
  }
  runOptions(ex);
  if (!ex.runOptionsError.empty()) wrappedText(ex.runOptionsError, pal.wrong);
  if (ui.gpuUsable) {  // the simulator's schedules find races; the GPU runs the real thing
    bool onGpu = ex.onGpu;
    if (ImGui::RadioButton(trId("simulator"), !onGpu)) onGpu = false;
    noteWidget(ui, "exercise:sim");
    ImGui::SameLine();
    if (ImGui::RadioButton(trId("GPU"), onGpu)) onGpu = true;
    noteWidget(ui, "exercise:gpu");
    ex.onGpu = onGpu;
    wrappedText(onGpu ? tr("On the GPU: compiled by NVRTC, the GPU's cases (no schedules, sums of "
                           "2^24 + 3), and the speed goal where the exercise has one; then the "
                           "simulator's schedules on the same file. Passed only where both pass. "
                           "No steps.")
                      : tr("On the simulator: many schedules, so a missing barrier fails even "
                           "where the GPU happens to hide it; Run once shows every step."),
                true);
  } else {
    wrappedText(tr("No GPU here: your kernel runs on the simulator."), true);
  }
  ImGui::Separator();
  std::string openNext;
  if (ex.report)
    reportView(app, *ex.report, pal, openNext);
  else
    ImGui::TextDisabled("%s", tr("Not checked yet."));
  if (!ui.status.empty() && ui.statusIsError) wrappedText(ui.status, pal.wrong);
  ImGui::PopTextWrapPos();
  if (!openNext.empty()) app.openExercise(openNext);
}

}  // namespace rlab::gui
