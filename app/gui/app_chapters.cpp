// A teacher's own chapters: opened from a file, checked in the background with the course's
// checks (lessons/engine/texts/chapter_check.hpp), listed beside the lessons and shown in the
// Lesson text tab.
#include <filesystem>

#include "app/gui/app.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/texts/chapter_check.hpp"

namespace rlab::gui {

void App::showChapter(const std::string& path, text::Document doc) {
  auto own = std::make_shared<OwnChapter>();
  own->path = path;
  own->name = std::filesystem::path(path).filename().string();
  own->doc = std::move(doc);
  // Opened again: the new text replaces the old one in the list.
  for (auto& existing : ui.ownChapters)
    if (existing->path == path) existing = own;
  bool listed = false;
  for (const auto& existing : ui.ownChapters) listed |= existing == own;
  if (!listed) ui.ownChapters.push_back(own);
  closeExercise();
  ui.chapter = "file:" + path;
  ui.chapterProblems.clear();
  ui.requestTab = ViewTab::LessonText;
}

void App::startChapterCheck(const std::string& path) {
  ui.status = printed(tr("Checking the chapter %s: its links, predictions and narrations..."),
                      path.c_str());
  ui.statusIsError = false;
  ui.chapterProblems.clear();
  const Language language = uiLanguage();
  const bool started =
      longWork_.start("chapter", [path, language](JobThread::Job& job) -> JobThread::Apply {
        std::vector<std::string> problems;
        text::Document doc;
        try {
          doc = readChapterFile(path);
          const std::string name = std::filesystem::path(path).filename().string();
          for (const text::Problem& p : checkChapter(doc, name, [&] { return !job.cancel.load(); }))
            problems.push_back(problemLine(path, p, language));
        } catch (const std::exception& e) {
          problems.push_back(render(messageOf(e), language));
        }
        const bool cancelled = job.cancel.load();
        return [path, problems, cancelled, doc = std::move(doc)](UiState& ui) mutable {
          ui.statusIsError = cancelled || !problems.empty();
          if (cancelled) {
            ui.status = tr("The chapter's check was cancelled; the chapter was not opened.");
          } else if (!problems.empty()) {
            ui.status = printed(tr("The chapter %s was refused: %d problems, listed in the Lesson "
                                   "text tab."),
                                path.c_str(), int(problems.size()));
            ui.chapterProblems = std::move(problems);
            ui.requestTab = ViewTab::LessonText;
          } else {
            ui.status = printed(tr("Opened the chapter %s."), path.c_str());
            ui.pendingChapter = std::make_shared<OwnChapter>(OwnChapter{path, "", std::move(doc)});
          }
        };
      });
  if (!started) {
    ui.status = tr("Another job is running; open the chapter when it is done.");
    ui.statusIsError = true;
  }
}

}  // namespace rlab::gui
