// The App's export: the run on screen drawn again, off-screen, by this very program with
// --export (main.cpp), in a process of its own, so that the window keeps its state and its
// frame rate; progress by the frames it reports, Cancel kills it (and it leaves no file).
#include "app/gui/app.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/run/allreduce_model.hpp"
#include "lessons/engine/run/run_parameters.hpp"
#include "lessons/engine/system/animation_export.hpp"
#include "lessons/engine/system/installation.hpp"
#include "lessons/engine/system/process.hpp"  // runningExecutable

namespace rlab::gui {

void App::startExport() {
  ExportDialog& d = ui.exportDialog;
  if (!ui.trace || longWork_.busy()) return;
  const std::string path = d.path.data();
  try {
    animationFormatFor(path);
  } catch (const ParamError& e) {
    d.said = say(messageOf(e));
    d.failed = true;
    return;
  }
  const std::string size = kExportSizes[d.size];
  // This program, found as rlab finds it (the tests drive the App from a program of their own).
  const std::string program = siblingProgram("reduction-lab");
  const std::vector<std::string> argv = {program.empty() ? runningExecutable() : program,
                                         "--export",
                                         path,
                                         "--run",
                                         linkQueryFor(ui.trace->params),
                                         "--size",
                                         size,
                                         "--lang",
                                         code(ui.language)};
  d.said.clear();
  longWork_.start("export", [argv, path, size](JobThread::Job& job) -> JobThread::Apply {
    job.stage = "drawing";
    const AnimationExport report = runAnimationExport(
        argv, [&job](int frame, int frames) { job.progress = float(frame) / float(frames); },
        [&job] { return !job.cancel.load(); });
    if (report.cancelled) return [](UiState& ui) { ui.exportDialog.said = tr("Cancelled."); };
    if (!report.written)
      return [why = report.problem](UiState& ui) {
        ui.exportDialog.said = say(why);
        ui.exportDialog.failed = true;
      };
    return [=](UiState& ui) {
      ui.exportDialog.said =
          printed(tr("Wrote %s: %d frames of %s, %s."), path.c_str(), report.frames, size.c_str(),
                  byteSizeText(double(report.bytes)).c_str());
      ui.exportDialog.failed = false;
    };
  });
}

}  // namespace rlab::gui
