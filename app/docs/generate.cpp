// rlab-docs: writes the manual pages of rlab and reduction-lab and rlab's bash completion from
// the programs' own option objects and the core's lists (lessons, variants, exercises,
// chapters). Run by the build; never installed.
//   rlab-docs OUTPUT-FOLDER VERSION DATE
//   rlab-docs --manual MARKDOWN-FOLDER HTML-FOLDER
#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iostream>

#include "app/cli/cli.hpp"
#include "app/docs/command_line_docs.hpp"
#include "app/docs/manual_html.hpp"
#include "app/docs/manual_texts.hpp"
#include "kernels/sim/runtime.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"
#include "lessons/engine/texts/texts.hpp"
#ifdef RLAB_DOCS_APP
#include "app/gui/options.hpp"
#endif

namespace {

using rlab::docs::CompletionWords;

bool write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) std::cerr << "rlab-docs: could not write " << path << ".\n";
  return bool(out);
}

// The simulator's schedules as its help names them ("lockstep, ..., random:SEED or
// stall:T:R:K"): the names, and "random:" where a value follows.
std::vector<std::string> scheduleWords() {
  std::string help = rlab::sim::kScheduleHelp;
  for (size_t at; (at = help.find(" or ")) != std::string::npos;) help.replace(at, 4, ", ");
  std::vector<std::string> words;
  for (size_t start = 0; start < help.size();) {
    const size_t end = std::min(help.find(", ", start), help.size());
    const std::string item = help.substr(start, end - start);
    const size_t colon = item.find(':');
    words.push_back(colon == std::string::npos ? item : item.substr(0, colon + 1));
    start = end + 2;
  }
  return words;
}

CompletionWords rlabWords() {
  CompletionWords w;
  std::vector<std::string> lessons, chapters, exercises, languages;
  for (const rlab::LessonInfo& lesson : rlab::lessons()) {
    lessons.push_back(lesson.id);
    for (const rlab::VariantInfo& variant : lesson.variants)
      w.variantsOfLesson[lesson.id].push_back(variant.id);
  }
  for (const std::string& id : rlab::chapterIds()) chapters.push_back(id);
  chapters.push_back("FILES:*.md");
  for (const rlab::Exercise& e : rlab::exercises()) exercises.push_back(e.id);
  for (rlab::Language l : rlab::kLanguages) languages.push_back(rlab::code(l));
  w.afterOption["--lang"] = languages;
  w.afterOption["--op"] = {};
  for (rlab::Op op :
       {rlab::Op::Sum, rlab::Op::Max, rlab::Op::Min, rlab::Op::Product, rlab::Op::Subtract})
    w.afterOption["--op"].push_back(rlab::name(op));
  w.afterOption["--type"] = {rlab::name(rlab::ElementType::Int),
                             rlab::name(rlab::ElementType::Float)};
  w.afterOption["--backend"] = {};
  for (rlab::BackendChoice b :
       {rlab::BackendChoice::Sim, rlab::BackendChoice::Gpu, rlab::BackendChoice::Auto})
    w.afterOption["--backend"].push_back(rlab::name(b));
  w.afterOption["--tool"] = {};
  for (rlab::SanitizerTool t : {rlab::SanitizerTool::Racecheck, rlab::SanitizerTool::Memcheck,
                                rlab::SanitizerTool::Synccheck, rlab::SanitizerTool::Initcheck})
    w.afterOption["--tool"].push_back(rlab::name(t));
  w.afterOption["--format"] = {"text", "json"};
  w.afterOptionIn["rlab bench"]["--format"] = {"text", "csv", "json"};
  w.afterOptionIn["rlab quiz"]["--format"] = {"text", "json", "moodle", "gift"};
  w.afterOptionIn["rlab exercise grade"]["--format"] = {"text", "json", "gradescope",
                                                        "prairielearn"};
  w.afterOption["--schedule"] = scheduleWords();
  w.afterOption["--data"] = {"iota", "ones", "random:"};
  w.afterOption["--gpus"] = {"1", "2", "4", "8"};
  w.afterOption["--lessons"] = lessons;
  for (const char* command : {"rlab run", "rlab race", "rlab check", "rlab quiz", "rlab export"})
    w.positionals[command] = {lessons};
  w.positionals["rlab lesson"] = {chapters};
  for (const char* command : {"rlab exercise show", "rlab exercise hint", "rlab exercise solution"})
    w.positionals[command] = {exercises};
  w.positionals["rlab exercise start"] = {exercises, {"FOLDERS"}};
  w.positionals["rlab exercise check"] = {exercises, {"FILES:*.cu"}};
  w.positionals["rlab exercise run"] = {exercises, {"FILES:*.cu"}};
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--manual")
    return rlab::docs::writeManual(argv[2], argv[3]) ? 0 : 1;
  if (argc != 4) {
    std::cerr << "usage: rlab-docs OUTPUT-FOLDER VERSION DATE\n"
                 "       rlab-docs --manual MARKDOWN-FOLDER HTML-FOLDER\n";
    return 2;
  }
  const std::string folder = argv[1], version = argv[2], date = argv[3];
  bool ok = true;
  rlab::cli::describeCommandLine([&](const CLI::App& app) {
    ok &=
        write(folder + "/rlab.1", rlab::docs::manualPage(app, rlab::docs::rlabText(version, date)));
    ok &= write(folder + "/rlab.bash-completion", rlab::docs::bashCompletion(app, rlabWords()));
  });
#ifdef RLAB_DOCS_APP
  CLI::App app{rlab::gui::kProgramDescription, "reduction-lab"};
  rlab::gui::CommandLine ignored;
  rlab::gui::addCommandLineOptions(app, ignored);
  ok &= write(folder + "/reduction-lab.1",
              rlab::docs::manualPage(app, rlab::docs::appText(version, date)));
#endif
  return ok ? 0 : 1;
}
