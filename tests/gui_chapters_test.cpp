// A teacher's own chapter in the app: File > Open chapter checks it on a worker thread, then
// lists it beside the lessons and shows it, its narration following its own run; a chapter
// that fails its check is refused with its lines.
#include <doctest/doctest.h>

#include <fstream>

#include "app/gui/app.hpp"
#include "tests/app_driver.hpp"
#include "tests/headless_imgui.hpp"
#include "tests/temp_folder.hpp"

using rlab::gui::App;

namespace {

const std::string kClass =
    std::string(RLAB_SOURCE_DIR) + "/assets/manual/examples/barrier-class.md";

}  // namespace

TEST_CASE("gui: a teacher's chapter opens beside the lessons and narrates its own run") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  app.ui.openChapterWanted = true;  // File > Open chapter: the dialog draws with the frame
  frame(app);
  app.startChapterCheck(kClass);
  settle(app);
  REQUIRE(app.ui.ownChapters.size() == 1);
  const rlab::gui::OwnChapter* own = app.ui.ownChapterShown();
  REQUIRE(own);
  CHECK(own->doc.title == "Class 3: the missing barrier");
  CHECK(own->name == "barrier-class.md");
  CHECK(app.ui.chapterProblems.empty());
  CHECK(!app.ui.statusIsError);
  // The chapter's first try link runs, and the chapter's own narration is the one on screen.
  app.ui.params =
      rlab::paramsFromQuery("barrier-class.md", rlab::text::tryLinks(own->doc)[0].query);
  app.runNow(3);
  frame(app);
  const rlab::text::Block* steps =
      rlab::narrationIn(own->doc, own->name, app.ui.trace->params, true);
  REQUIRE(steps);
  CHECK(steps->items.size() == app.ui.trace->steps.size());
  // Opened again, it replaces itself in the list.
  app.startChapterCheck(kClass);
  settle(app);
  CHECK(app.ui.ownChapters.size() == 1);
}

TEST_CASE("gui: a chapter with a broken try link is refused with its line") {
  TempFolder folder("gui-chapter");
  const std::string file = (folder / "broken.md").string();
  std::ofstream(file) << "# Broken\n\nA [bad link](try:lesson=barrier&n=0).\n";
  HeadlessImGui imgui;
  App app;
  settle(app);
  app.startChapterCheck(file);
  settle(app);
  CHECK(app.ui.ownChapters.empty());
  CHECK(app.ui.statusIsError);
  REQUIRE(app.ui.chapterProblems.size() == 1);
  CHECK(app.ui.chapterProblems[0].rfind(file + ":3: the try link [bad link]", 0) == 0);
  app.startChapterCheck((folder / "missing.md").string());
  settle(app);
  REQUIRE(app.ui.chapterProblems.size() == 1);
  CHECK(app.ui.chapterProblems[0].find("cannot be read") != std::string::npos);
}
