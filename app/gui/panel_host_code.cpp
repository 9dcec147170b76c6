// The host code that ran: lessons/<id>/driver.hpp as embedded at build time (and the shared
// driver it includes from lessons/, such as tree_passes.hpp), CUDA words coloured, the recording
// lines greyed; above it, the run's launches as the backend recorded them (grid x block, and the
// values the driver named), the launch of the step on screen marked for the folding lesson.
#include <sstream>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

namespace {

constexpr size_t kShownLaunches = 64;  // the app lists; rlab run --launches prints them all

// Lines that only record the run for the app (snapshots, the launch table), not part of the
// reduction: greyed, as the source panel greys the kernel's trace calls.
bool recordingLine(const std::string& line) {
  for (const char* mark : {"Recording<", "rec.snapshots", "appendSteps(", "recordFold(",
                           "launches.note(", "if (trace", "if (!trace", "trace ? ", "!trace ?"})
    if (line.find(mark) != std::string::npos) return true;
  return false;
}

bool endsStatement(const std::string& line) {
  const size_t last = line.find_last_not_of(" \t");
  return last == std::string::npos || line[last] == ';' || line[last] == '{' || line[last] == '}';
}

void launchTableView(App& app, const Trace& t, const Palette& pal) {
  const LaunchTable table = launchTable(t);
  ImGui::Text(
      table.rows.size() == 1 ? tr("This run made %zu launch:") : tr("This run made %zu launches:"),
      table.rows.size());
  // Folding: launch k is step k.
  const bool stepIsLaunch = lessonOrThrow(t.params.lesson).picture == LessonPicture::Fold &&
                            t.traced && t.launches.size() + 1 == t.steps.size();
  const int current = stepIsLaunch ? app.ui.step - 1 : -1;
  const ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("##launches", int(table.columns.size()), flags)) return;
  for (const Message& column : table.columns) ImGui::TableSetupColumn(say(column).c_str());
  ImGui::TableHeadersRow();
  for (size_t r = 0; r < table.rows.size() && r < kShownLaunches; ++r) {
    ImGui::TableNextRow();
    if (int(r) == current)
      ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, (pal.worked & 0x00ffffff) | 0x80000000);
    for (const std::string& cell : table.rows[r]) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(cell.c_str());
    }
  }
  ImGui::EndTable();
  noteWidget(app.ui, "host:launches");
  if (table.rows.size() > kShownLaunches)
    ImGui::TextDisabled(tr("... and %zu more (rlab run --launches lists them all)"),
                        table.rows.size() - kShownLaunches);
}

void hostFile(const std::string& path, const Palette& pal) {
  const std::string* text = embeddedFile(path);
  if (!text) {
    ImGui::TextDisabled(tr("%s is not embedded in this build."), path.c_str());
    return;
  }
  ImGui::TextDisabled(tr("%s — the host code that ran"), path.c_str());
  const ImVec4 muted = ImGui::ColorConvertU32ToFloat4(pal.muted);
  std::istringstream lines(*text);
  int greyDepth = 0;        // inside an `if (trace) {` block: its depth
  bool greyGoesOn = false;  // a greyed statement continues on the next line
  for (std::string line; std::getline(lines, line);) {
    bool grey = greyDepth > 0 || greyGoesOn || recordingLine(line);
    if (grey) {
      int depth = greyDepth;
      for (char c : line) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      greyDepth = std::max(0, depth);
      greyGoesOn = greyDepth == 0 && !endsStatement(line);
      ImGui::TextColored(muted, "%s", line.c_str());
      continue;
    }
    drawCodeLine(line, pal);
  }
}

}  // namespace

std::vector<std::string> hostFiles(const LessonInfo& lesson) {
  std::vector<std::string> files = {lesson.hostFile};
  const std::string* driver = embeddedFile(lesson.hostFile);
  if (!driver) return files;
  // The lesson's own helpers from lessons/ (driver_support.hpp is recording, not the lesson).
  std::istringstream lines(*driver);
  for (std::string line; std::getline(lines, line);) {
    const size_t at = line.find("#include \"lessons/");
    if (at == std::string::npos) continue;
    const std::string path = line.substr(at + 10, line.rfind('"') - at - 10);
    if (path != "lessons/engine/run/driver_support.hpp" && embeddedFile(path))
      files.push_back(path);
  }
  return files;
}

void drawHostCodePanel(App& app) {
  const Palette& pal = palette(app.ui.view.presenter);
  const LessonInfo* lesson = findLesson(app.ui.params.lesson);
  if (!lesson) return;
  if (app.ui.trace && app.ui.trace->params.lesson == lesson->id &&
      !app.ui.trace->launches.empty()) {
    launchTableView(app, *app.ui.trace, pal);
    ImGui::Spacing();
  }
  if (ImFont* code = codeFont()) ImGui::PushFont(code);
  for (const std::string& path : hostFiles(*lesson)) hostFile(path, pal);
  if (codeFont()) ImGui::PopFont();
}

}  // namespace rlab::gui
