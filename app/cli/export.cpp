// rlab export: a run's steps drawn as the app's stage draws them in presenter mode, into an
// animated GIF, an animated WebP or a folder of PNGs. The drawing is the desktop app's own
// (reduction-lab --export, off-screen, with no window), so a frame is what the stage shows; rlab
// passes the run as a try link's keys, follows the frames on the terminal and says at the end
// what it wrote.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/command_options.hpp"
#include "app/cli/parse_values.hpp"
#include "app/cli/subcommands.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/run/allreduce_model.hpp"
#include "lessons/engine/run/run_parameters.hpp"
#include "lessons/engine/system/animation_export.hpp"
#include "lessons/engine/system/installation.hpp"

namespace rlab::cli {

namespace {

// The app's command line: the run as a try link's keys, or a learner's kernel of an exercise
// (its files kept in `exerciseFolder`, a folder of the export's own, so that neither the
// learner's files nor their progress change).
std::vector<std::string> appArguments(const std::string& app, const Command& c,
                                      const std::string& exerciseFolder) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g", c.secondsPerStep);
  std::vector<std::string> args = {
      app,
      "--export",
      c.exportTo,
      "--size",
      std::to_string(c.exportWidth) + "x" + std::to_string(c.exportHeight),
      "--lang",
      code(c.language),
      "--seconds-per-step",
      seconds};
  if (c.exerciseId.empty()) {
    args.insert(args.end(), {"--run", linkQueryFor(c.params)});
    return args;
  }
  args.insert(args.end(), {"--exercise", c.exerciseId, "--exercise-file", c.exerciseFile,
                           "--exercise-dir", exerciseFolder});
  if (c.params.n) args.insert(args.end(), {"--n", std::to_string(c.params.n)});
  if (c.params.block) args.insert(args.end(), {"--block", std::to_string(c.params.block)});
  if (!c.params.schedule.empty()) args.insert(args.end(), {"--schedule", c.params.schedule});
  return args;
}

// A folder of its own under the system's temporary one, removed with the object.
struct ScratchFolder {
  std::string path;
  ScratchFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rlab-export-XXXXXX").string();
    if (mkdtemp(pattern.data())) path = pattern;
  }
  ~ScratchFolder() {
    std::error_code ignored;
    if (!path.empty()) std::filesystem::remove_all(path, ignored);
  }
};

}  // namespace

// Here rather than in parse.cpp, beside the command it is for.
void ExportCommandOptions::fill(Command& c) const {
  c.name = "export";
  c.language = languageOrLocale(common.language);
  c.format = parseFormat(common.format, false);
  if (kernelGiven->count()) {  // a learner's kernel: the lesson's place names its exercise
    exerciseOrThrow(common.lesson);
    if (!std::ifstream(kernel)) throw UsageError(Message("check.unreadable", {{"file", kernel}}));
    c.exerciseId = common.lesson;
    c.exerciseFile = std::filesystem::absolute(kernel).string();
    c.params = Params{};
    c.params.n = common.nGiven->count() ? parseInteger("--n", common.n, 1, kMaxN) : 0;
    c.params.block = common.blockGiven->count()
                         ? int(parseInteger("--block", common.block, 1, 1024, "usage.power-of-two"))
                         : 0;
    if (common.scheduleGiven->count()) c.params.schedule = common.schedule;
  } else {  // a chapter's try link stands for its run, as the app's button does
    c.params =
        common.lesson.rfind("try:", 0) == 0 ? paramsFromQuery("", common.lesson) : common.params();
  }
  animationFormatFor(to);
  c.exportTo = to;
  char x = 0;
  if (std::sscanf(size.c_str(), "%d%c%d", &c.exportWidth, &x, &c.exportHeight) != 3 || x != 'x' ||
      c.exportWidth < 320 || c.exportHeight < 240 || c.exportWidth > 7680 ||
      c.exportHeight > 4320 || size.find_first_not_of("0123456789x") != std::string::npos)
    throw UsageError(Message("usage.export-size", {{"size", size}}));
  c.secondsPerStep = parseDecimal("--seconds-per-step", secondsPerStep, 0.2, 10,
                                  Message("usage.export-seconds", {{"given", secondsPerStep}}));
}

int exportCommand(const Command& c, std::ostream& out, std::ostream& err, bool) {
  const std::string app = siblingProgram("reduction-lab");
  if (app.empty()) {
    err << "rlab: " << render(Message("export.no-app"), c.language) << "\n";
    return 1;
  }
  const bool person = c.terminal.keys != nullptr;  // progress on a line that rewrites itself
  const ScratchFolder exerciseFolder;
  const AnimationExport report =
      runAnimationExport(appArguments(app, c, exerciseFolder.path), [&](int frame, int frames) {
        if (person)
          err << "\r"
              << render(Message("export.frame", {{"frame", frame}, {"frames", frames}}), c.language)
              << std::flush;
      });
  if (person && report.frames > 0) err << "\r\033[K" << std::flush;
  if (!report.written) {
    err << "rlab: " << render(report.problem, c.language) << "\n";
    return report.exitCode == 2 ? 2 : 1;
  }
  if (c.format == Format::Json) {
    out << nlohmann::json{{"file", c.exportTo},
                          {"frames", report.frames},
                          {"width", c.exportWidth},
                          {"height", c.exportHeight},
                          {"bytes", report.bytes},
                          {"run", c.exerciseId.empty() ? linkQueryFor(c.params) : c.exerciseId}}
               .dump()
        << "\n";
    return 0;
  }
  out << render(Message("export.wrote", {{"path", c.exportTo},
                                         {"frames", report.frames},
                                         {"width", c.exportWidth},
                                         {"height", c.exportHeight},
                                         {"size", byteSizeText(double(report.bytes))}}),
                c.language)
      << "\n";
  return 0;
}

}  // namespace rlab::cli
