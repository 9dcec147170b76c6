// The menu bar: File > Open chapter (a teacher's own chapter: a small file browser, since
// ImGui has no file dialog) and Help > Manual (the manual of this installation, opened in the
// desktop's browser).
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/system/installation.hpp"

extern char** environ;

namespace rlab::gui {

namespace {

namespace fs = std::filesystem;

// Starts `xdg-open FILE` and forgets it: the desktop opens the file in its own program.
bool openWithDesktop(const std::string& file) {
  std::vector<std::string> args = {"xdg-open", file};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, "xdg-open", nullptr, nullptr, argv.data(), environ) != 0) return false;
  std::thread([pid] {  // reaped, so that no zombie stays behind
    int status = 0;
    waitpid(pid, &status, 0);
  })
      .detach();
  return true;
}

void openManual(UiState& ui) {
  const std::string manual = dataFile("manual/index.html");
  if (manual.empty()) {
    ui.status =
        printed(tr("The manual (manual/index.html) was not found in %s."), dataFolders().c_str());
    ui.statusIsError = true;
  } else if (!openWithDesktop(manual)) {
    ui.status = printed(tr("xdg-open could not be started; the manual is %s."), manual.c_str());
    ui.statusIsError = true;
  } else {
    ui.status = printed(tr("The manual (%s) opens in your browser."), manual.c_str());
    ui.statusIsError = false;
  }
}

}  // namespace

// The Open chapter dialog: a path to type, and the folder's subfolders and Markdown files.
void drawOpenChapterDialog(App& app) {
  UiState& ui = app.ui;
  static std::array<char, 1024> path{};
  if (ui.openChapterWanted) {
    ImGui::OpenPopup(trId("Open chapter"));
    ui.openChapterWanted = false;
    if (ui.chapterFolder.empty()) {
      std::error_code error;
      ui.chapterFolder = fs::current_path(error).string();
    }
  }
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowSize({std::min(size.x * 0.7f, ImGui::GetFontSize() * 45), size.y * 0.7f});
  if (!ImGui::BeginPopupModal(trId("Open chapter"))) return;
  wrappedText(tr("A chapter is a Markdown file in the lesson format: try links, steps, "
                 "predictions and folded answers (see Help > Manual). It is checked before it "
                 "opens."),
              true);
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 6);
  const bool entered =
      ImGui::InputText("##path", path.data(), path.size(), ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  const bool open = ImGui::Button(trId("Open")) || entered;
  ImGui::TextUnformatted(ui.chapterFolder.c_str());
  ImGui::BeginChild("##files", {0, -ImGui::GetFrameHeightWithSpacing()}, true);
  std::error_code error;
  std::vector<fs::path> folders, files;
  for (const auto& entry : fs::directory_iterator(ui.chapterFolder, error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    if (entry.is_directory(error))
      folders.push_back(entry.path());
    else if (entry.path().extension() == ".md")
      files.push_back(entry.path());
  }
  std::sort(folders.begin(), folders.end());
  std::sort(files.begin(), files.end());
  if (ImGui::Selectable("../"))
    ui.chapterFolder = fs::path(ui.chapterFolder).parent_path().string();
  for (const fs::path& folder : folders)
    if (ImGui::Selectable((folder.filename().string() + "/").c_str()))
      ui.chapterFolder = folder.string();
  for (const fs::path& file : files) {
    const std::string full = file.string();
    const bool chosen = full == path.data();
    if (ImGui::Selectable(file.filename().string().c_str(), chosen,
                          ImGuiSelectableFlags_AllowDoubleClick)) {
      full.copy(path.data(), path.size() - 1);
      path[std::min(full.size(), path.size() - 1)] = '\0';
      if (ImGui::IsMouseDoubleClicked(0)) {
        app.startChapterCheck(full);
        ImGui::CloseCurrentPopup();
      }
    }
  }
  ImGui::EndChild();
  if (open && path[0] != '\0') {
    app.startChapterCheck(path.data());
    ImGui::CloseCurrentPopup();
  }
  if (ImGui::Button(trId("Cancel"))) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

float drawMenuBar(App& app) {
  UiState& ui = app.ui;
  float height = 0;
  if (ImGui::BeginMainMenuBar()) {
    if (ImGui::BeginMenu(trId("File"))) {
      if (ImGui::MenuItem(trId("Open chapter..."))) ui.openChapterWanted = true;
      // The lesson's run on screen (an exercise's own run is not a lesson's stage).
      if (ImGui::MenuItem(trId("Export animation..."), nullptr, false,
                          ui.trace && ui.exercise.id.empty()))
        ui.exportDialog.wanted = true;
      for (const auto& own : ui.ownChapters)
        if (ImGui::MenuItem(own->doc.title.c_str(), nullptr, ui.ownChapterShown() == own.get())) {
          app.closeExercise();
          ui.chapter = "file:" + own->path;
          ui.requestTab = ViewTab::LessonText;
        }
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(trId("Help"))) {
      if (ImGui::MenuItem(trId("Manual"))) openManual(ui);
      ImGui::EndMenu();
    }
    height = ImGui::GetWindowSize().y;
    ImGui::EndMainMenuBar();
  }
  return height;
}

}  // namespace rlab::gui
