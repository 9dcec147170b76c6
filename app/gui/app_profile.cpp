// The App's profile work: the run on screen under Nsight Compute on the worker, with progress by
// the launches ncu has begun to count and Cancel; a failure is one sentence in the Profile tab,
// and every setting and the run on screen stay as they were.
#include <algorithm>

#include "app/gui/app.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/backends/backends.hpp"

namespace rlab::gui {

void App::startProfile() {
  validate();
  if (!ui.paramError.empty() || longWork_.busy()) return;
  const Params params = ui.params;  // the run on screen: every control, --values included
  // The launches the run on screen made: what ncu will count, for the progress bar.
  const size_t launches =
      ui.trace && ui.trace->params.lesson == params.lesson ? ui.trace->launches.size() : 0;
  longWork_.start("profile", [params, launches](JobThread::Job& job) -> JobThread::Apply {
    job.stage = "counting";
    ProfileOptions options;
    options.keepGoing = [&job] { return !job.cancel.load(); };
    options.onLaunch = [&job, launches](int begun) {
      if (launches > 0) job.progress = std::min(0.95f, float(begun) / float(launches));
    };
    try {
      ProfileReport report = runProfile(params, options);
      if (report.cancelled) return [](UiState&) {};  // what was shown stays
      return [report = std::move(report)](UiState& ui) {
        ui.profile.error = report.permissionDenied ? report.runError : Message();
        ui.profile.report = report;
      };
    } catch (const std::exception& e) {  // no ncu, no GPU, no rlab, a setting refused
      return [why = messageOf(e)](UiState& ui) { ui.profile.error = why; };
    }
  });
}

}  // namespace rlab::gui
