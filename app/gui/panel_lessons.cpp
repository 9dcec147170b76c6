// The lesson list with each lesson's variants, and the lesson's text.
#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "lessons/texts.hpp"
#include "lessons/registry.hpp"

namespace rlab::gui {

void drawLessonsPanel(App& app) {
  UiState& ui = app.ui;
  int number = 1;
  for (const LessonInfo& lesson : lessons()) {
    const bool current = ui.params.lesson == lesson.id;
    const text::Document* doc = text::chapter(lesson.id, ui.language);
    const std::string label =
        std::to_string(number++) + ". " + (doc ? doc->title : lesson.title) + "##" + lesson.id;
    if (ImGui::Selectable(label.c_str(), current) && !current) {
      ui.params.lesson = lesson.id;
      ui.params.variant.clear();
      ui.params.n = lesson.defaultN;
      ui.params.block = 0;
      ui.params.barrier = true;
      ui.params.perturb = false;
      ui.params.delayThread = -1;
      ui.params.values.clear();
      ui.valuesText[0] = '\0';
      ui.rerunWanted = true;
      ui.step = 0;
      ui.chapter.clear();
    }
    if (ImGui::IsItemHovered() && doc) ImGui::SetTooltip("%s", doc->title.c_str());
    noteWidget(ui, "lesson:" + lesson.id);
  }
  ImGui::Separator();
  const LessonInfo* lesson = findLesson(ui.params.lesson);
  if (!lesson) return;
  if (lesson->variants.size() > 1) {
    ImGui::TextUnformatted(tr("Variant"));
    for (const VariantInfo& variant : lesson->variants) {
      const std::string& v = variant.id;
      // Wrap to the next line when this variant would not fit beside the last one.
      if (&variant != &lesson->variants.front()) {
        const float needed = ImGui::GetFrameHeight() + ImGui::CalcTextSize(v.c_str()).x +
                             ImGui::GetStyle().ItemSpacing.x * 2;
        if (ImGui::GetContentRegionAvail().x -
                (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x) >
            needed)
          ImGui::SameLine();
      }
      const bool current = ui.params.variant == v ||
                           (ui.params.variant.empty() && &variant == &lesson->variants.front());
      if (ImGui::RadioButton(v.c_str(), current) && !current) {
        ui.params.variant = v;
        ui.params.block = 0;
        ui.rerunWanted = true;
      }
      noteWidget(ui, "variant:" + v);
    }
    ImGui::Separator();
  }
  wrappedText(tr("The lesson's text is in the \"Lesson text\" tab; Ctrl+= and Ctrl+- change the "
                 "text size, P switches presenter mode."),
              true);
}

}  // namespace rlab::gui
