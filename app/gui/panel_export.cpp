// File > Export animation: where to write the run on screen (a GIF, a WebP, or a folder of
// PNGs, chosen by the name's extension), at which size; then its progress by frames, Cancel,
// and what was written.
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <optional>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/system/animation_export.hpp"

namespace rlab::gui {

namespace {

namespace fs = std::filesystem;

void setPath(ExportDialog& d, const std::string& path) {
  const size_t length = std::min(path.size(), d.path.size() - 1);
  path.copy(d.path.data(), length);
  d.path[length] = '\0';
}

// The format buttons: each gives the path its extension (none for a folder).
void drawFormatChoice(ExportDialog& d) {
  std::optional<AnimationFormat> format;
  try {
    format = animationFormatFor(d.path.data());
  } catch (const ParamError&) {
  }
  const struct {
    AnimationFormat format;
    const char* label;
    const char* extension;
  } choices[] = {{AnimationFormat::Gif, "GIF", ".gif"},
                 {AnimationFormat::WebP, "WebP", ".webp"},
                 {AnimationFormat::PngFolder, tr("PNG a step (a folder)"), ""}};
  for (const auto& choice : choices) {
    if (ImGui::RadioButton(choice.label, format == choice.format)) {
      fs::path path = d.path.data();
      if (!path.has_filename()) path = path.parent_path();
      setPath(d, path.replace_extension(choice.extension).string());
    }
    ImGui::SameLine();
  }
  ImGui::NewLine();
}

}  // namespace

void drawExportDialog(App& app) {
  UiState& ui = app.ui;
  ExportDialog& d = ui.exportDialog;
  if (d.wanted) {
    ImGui::OpenPopup(trId("Export animation"));
    d.wanted = false;
    if (d.path[0] == '\0' && ui.trace) {
      const char* home = std::getenv("HOME");
      setPath(d,
              (fs::path(home ? home : ".") / ("reduction-lab-" + ui.trace->params.lesson + ".gif"))
                  .string());
    }
  }
  const ImVec2 screen = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowSize({std::min(screen.x * 0.9f, ImGui::GetFontSize() * 42), 0});
  if (!ImGui::BeginPopupModal(trId("Export animation"))) return;
  wrappedText(tr("Every step of the run on screen, drawn as the stage draws it in presenter "
                 "mode, with the step's sentence and the verdict on the last step: for slides, a "
                 "course page or a learning platform. A GIF plays everywhere; a WebP keeps every "
                 "colour exact."),
              true);
  const bool busy = app.longWorkBusy() && app.longWorkLabel() == "export";
  ImGui::BeginDisabled(busy);
  ImGui::SetNextItemWidth(-1);
  ImGui::InputText("##export path", d.path.data(), d.path.size());
  drawFormatChoice(d);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::Combo(trId("Size"), &d.size, kExportSizes, int(std::size(kExportSizes)));
  ImGui::SameLine(0, ImGui::GetFontSize() * 2);
  ImGui::Text(tr("Language: %s"), nativeName(ui.language));
  ImGui::EndDisabled();
  if (busy) {
    ImGui::ProgressBar(app.longWorkProgress(), ImVec2(ImGui::GetFontSize() * 14, 0));
    ImGui::SameLine();
    if (ImGui::Button(trId("Cancel"))) app.cancelLongWork();
  } else {
    ImGui::BeginDisabled(app.longWorkBusy());  // another long job holds the worker
    if (ImGui::Button(trId("Export"))) app.startExport();
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(trId("Close"))) ImGui::CloseCurrentPopup();
  }
  if (!d.said.empty()) {
    const Palette& pal = palette(ui.view.presenter);
    wrappedText(d.said, d.failed ? pal.wrong : pal.right);
  }
  ImGui::EndPopup();
}

}  // namespace rlab::gui
