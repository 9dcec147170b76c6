// rlab export: a run's steps drawn as the app's stage draws them in presenter mode, into an
// animated GIF, an animated WebP or a folder of PNGs. The drawing is the desktop app's own
// (reduction-lab --export, off-screen, with no window), so a frame is what the stage shows; rlab
// passes the run as a try link's keys, follows the frames on the terminal and says at the end
// what it wrote.
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/command_options.hpp"
#include "app/cli/parse_values.hpp"
#include "app/cli/subcommands.hpp"
#include "lessons/engine/run/allreduce_model.hpp"
#include "lessons/engine/run/run_parameters.hpp"
#include "lessons/engine/system/animation_export.hpp"
#include "lessons/engine/system/installation.hpp"

namespace rlab::cli {

namespace {

std::vector<std::string> appArguments(const std::string& app, const Command& c) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g", c.secondsPerStep);
  return {app,
          "--export",
          c.exportTo,
          "--run",
          linkQueryFor(c.params),
          "--size",
          std::to_string(c.exportWidth) + "x" + std::to_string(c.exportHeight),
          "--lang",
          code(c.language),
          "--seconds-per-step",
          seconds};
}

}  // namespace

// Here rather than in parse.cpp, beside the command it is for.
void ExportCommandOptions::fill(Command& c) const {
  c.name = "export";
  c.language = languageOrLocale(common.language);
  c.format = parseFormat(common.format, false);
  // A chapter's try link stands for its run, as the app's button does.
  c.params =
      common.lesson.rfind("try:", 0) == 0 ? paramsFromQuery("", common.lesson) : common.params();
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
  const AnimationExport report =
      runAnimationExport(appArguments(app, c), [&](int frame, int frames) {
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
    out << nlohmann::json{{"file", c.exportTo},     {"frames", report.frames},
                          {"width", c.exportWidth}, {"height", c.exportHeight},
                          {"bytes", report.bytes},  {"run", linkQueryFor(c.params)}}
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
