// The lesson list with each lesson's variants, and the lesson's text.
#include <algorithm>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/texts/texts.hpp"
#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/exercise/progress.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

namespace {

std::string withoutBackticks(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), '`'), text.end());
  return text;
}

// The exercise's mark, one line high before its row, drawn rather than typed (no font needs a
// glyph for it), so it grows with the text in presenter mode: done a filled disc in the right
// colour with a tick cut out of it, tried a ring with a dot, not started a faint ring. Each
// differs in shape as well as colour; the words are in the row's tooltip.
void drawExerciseMark(ExerciseMark mark, const Palette& pal) {
  const float size = ImGui::GetTextLineHeight();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(size, size));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 centre(at.x + size * 0.5f, at.y + size * 0.5f);
  const float radius = size * 0.36f;
  const float line = std::max(1.5f, size * 0.09f);
  switch (mark) {
    case ExerciseMark::Done: {
      draw->AddCircleFilled(centre, radius, pal.right, 24);
      const ImVec2 tick[] = {ImVec2(centre.x - radius * 0.5f, centre.y),
                             ImVec2(centre.x - radius * 0.1f, centre.y + radius * 0.4f),
                             ImVec2(centre.x + radius * 0.55f, centre.y - radius * 0.4f)};
      draw->AddPolyline(tick, 3, ImGui::GetColorU32(ImGuiCol_WindowBg), 0, line * 1.2f);
      break;
    }
    case ExerciseMark::Tried:
      draw->AddCircle(centre, radius, pal.changed, 24, line);
      draw->AddCircleFilled(centre, radius * 0.35f, pal.changed, 12);
      break;
    case ExerciseMark::NotStarted:
      draw->AddCircle(centre, radius, pal.muted, 24, line * 0.8f);
      break;
  }
}

// The basics open the course: a chapter with no run of its own, shown in the text view.
void drawBasicsEntry(App& app) {
  UiState& ui = app.ui;
  if (const text::Document* basics = text::chapter(kBasicsChapter, ui.language)) {
    const bool current = ui.chapter == kBasicsChapter && ui.exercise.id.empty();
    if (ImGui::Selectable(("0. " + basics->title + "##basics").c_str(), current) && !current) {
      app.closeExercise();
      ui.chapter = kBasicsChapter;
      ui.requestTab = ViewTab::LessonText;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", basics->title.c_str());
    noteWidget(ui, "lesson:basics");
  }
}

// Another lesson chosen in the list: its defaults in the controls, and a run of it.
void chooseLesson(App& app, const LessonInfo& lesson) {
  UiState& ui = app.ui;
  app.closeExercise();
  ui.params.lesson = lesson.id;
  ui.params.variant.clear();
  ui.params.n = lesson.defaultN;
  ui.params.block = 0;
  ui.params.gpus = 0;       // the lesson's default (only allreduce takes any)
  ui.params.perThread = 0;  // the kernel's own (only shared coarsened takes any)
  ui.params.loadAdd = true;
  if (!lesson.variants.front().offersSubtract && ui.params.op == Op::Subtract)
    ui.params.op = Op::Sum;  // the demonstration is not offered there
  ui.params.barrier = true;
  ui.params.syncwarp = true;
  ui.params.perturb = false;
  ui.params.printing = false;
  ui.params.delayThread = -1;
  ui.params.values.clear();
  ui.valuesText[0] = '\0';
  ui.rerunWanted = true;
  ui.step = 0;
  ui.chapter.clear();
}

// The lesson's exercises under it: the learner writes the kernel.
void drawLessonExercises(App& app, const LessonInfo& lesson) {
  UiState& ui = app.ui;
  ImGui::Indent();
  for (const Exercise* e : exercisesOf(lesson.id)) {
    const std::string title =
        printed(tr("Exercise: %s"), withoutBackticks(exerciseText(*e, ui.language).title).c_str()) +
        "##" + e->id;
    const bool open = ui.exercise.id == e->id;
    // The learner's mark (done, tried, not started), as rlab exercise list shows it.
    const ExerciseMark mark = ui.progress.markOf(e->id);
    drawExerciseMark(mark, palette(ui.view.presenter));
    const std::string markSaid = say(markWord(mark));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", markSaid.c_str());
    noteWidget(ui, "mark:" + e->id);
    ImGui::SameLine(0, ImGui::GetStyle().ItemSpacing.x * 0.5f);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    if (ImGui::Selectable(title.c_str(), open) && !open) app.openExercise(e->id);
    ImGui::PopStyleColor();
    // Titles run past a narrow panel, in Japanese and Chinese more often: all of it on hover.
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s — %s", title.substr(0, title.find("##")).c_str(), markSaid.c_str());
    noteWidget(ui, "exercise:" + e->id);
  }
  ImGui::Unindent();
}

// The lessons, numbered, each with its exercises. With an exercise open, its statement needs the
// room: only its own lesson stays listed.
void drawLessonList(App& app) {
  UiState& ui = app.ui;
  const Exercise* open = findExercise(ui.exercise.id);
  if (open) {
    if (ImGui::SmallButton(trId("All lessons"))) app.closeExercise();
    noteWidget(ui, "all lessons");
  }
  int number = 1;
  for (const LessonInfo& lesson : lessons()) {
    if (open && open->lesson != lesson.id) {
      ++number;
      continue;
    }
    const bool inExercise = !ui.exercise.id.empty();
    const bool current = ui.params.lesson == lesson.id && !inExercise && ui.chapter.empty();
    const text::Document* doc = text::chapter(lesson.id, ui.language);
    const std::string label = std::to_string(number++) + ". " +
                              text::lessonTitle(lesson.id, ui.language) + "##" + lesson.id;
    const bool chosen = ImGui::Selectable(label.c_str(), current) && !current;
    if (chosen && ui.params.lesson == lesson.id) {
      app.closeExercise();  // back from the basics or an exercise to the lesson on screen
      ui.chapter.clear();
    } else if (chosen) {
      chooseLesson(app, lesson);
    }
    if (ImGui::IsItemHovered() && doc) ImGui::SetTooltip("%s", doc->title.c_str());
    noteWidget(ui, "lesson:" + lesson.id);
    drawLessonExercises(app, lesson);
  }
}

// A teacher's own chapters (File > Open chapter), beside the lessons.
void drawOwnChapters(App& app) {
  UiState& ui = app.ui;
  if (!ui.ownChapters.empty()) ImGui::TextDisabled("%s", tr("Your chapters"));
  for (const auto& own : ui.ownChapters) {
    const bool current = ui.ownChapterShown() == own.get() && ui.exercise.id.empty();
    if (ImGui::Selectable((own->doc.title + "##" + own->path).c_str(), current) && !current) {
      app.closeExercise();
      ui.chapter = "file:" + own->path;
      ui.requestTab = ViewTab::LessonText;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", own->path.c_str());
  }
}

// The lesson's variants as radio buttons, as many to a line as fit; choosing one keeps only the
// switches it has.
void drawVariantChoice(UiState& ui, const LessonInfo& lesson) {
  ImGui::TextUnformatted(tr("Variant"));
  for (const VariantInfo& variant : lesson.variants) {
    const std::string& v = variant.id;
    // Wrap to the next line when this variant would not fit beside the last one.
    if (&variant != &lesson.variants.front()) {
      const float needed = ImGui::GetFrameHeight() + ImGui::CalcTextSize(v.c_str()).x +
                           ImGui::GetStyle().ItemSpacing.x * 2;
      if (ImGui::GetContentRegionAvail().x - (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x) >
          needed)
        ImGui::SameLine();
    }
    const bool current = ui.params.variant == v ||
                         (ui.params.variant.empty() && &variant == &lesson.variants.front());
    if (ImGui::RadioButton(v.c_str(), current) && !current) {
      ui.params.variant = v;
      ui.params.block = 0;
      if (!variant.barrierSwitch) ui.params.barrier = true;  // none to switch off there
      if (!variant.syncwarpSwitch) ui.params.syncwarp = true;
      if (!variant.perturbs) ui.params.perturb = false;
      if (!variant.delays) ui.params.delayThread = -1;
      if (!variant.offersSubtract && ui.params.op == Op::Subtract) ui.params.op = Op::Sum;
      if (variant.defaultPerThread == 0) {  // one element per thread there
        ui.params.perThread = 0;
        ui.params.loadAdd = true;
      }
      ui.rerunWanted = true;
    }
    noteWidget(ui, "variant:" + v);
  }
  ImGui::Separator();
}

}  // namespace

void drawLessonsPanel(App& app) {
  UiState& ui = app.ui;
  drawBasicsEntry(app);
  drawLessonList(app);
  drawOwnChapters(app);
  ImGui::Separator();
  if (!ui.exercise.id.empty()) {
    drawExerciseText(app);
    return;
  }
  const LessonInfo* lesson = findLesson(ui.params.lesson);
  if (!lesson) return;
  if (lesson->variants.size() > 1) drawVariantChoice(ui, *lesson);
  wrappedText(tr("The lesson's text is in the \"Lesson text\" tab; Ctrl+= and Ctrl+- change the "
                 "text size, P switches presenter mode."),
              true);
}

}  // namespace rlab::gui
