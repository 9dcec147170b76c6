// rlab profile: one run on the GPU under Nsight Compute, its counters per kernel beside what
// the simulator predicts.
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/gpu_tools/profile.hpp"

namespace rlab::cli {

int profileCommand(const Command& c, std::ostream& out, std::ostream& err, bool) {
  ProfileOptions options;
  options.clockControl = c.clockControl;
  options.onLaunch = [&err](int launches) {
    err << "profile: Nsight Compute is counting launch " << launches << "\r" << std::flush;
  };
  const ProfileReport report = runProfile(c.params, options);
  err << std::string(60, ' ') << "\r" << std::flush;
  // Without the counters there is nothing to show: one sentence, as for a missing GPU.
  if (report.permissionDenied) throw GpuUnavailable(report.runError);
  if (c.format == Format::Json)
    out << profileJson(report).dump() << "\n";
  else
    printProfileText(report, c.language, out, c.terminal.width);
  return report.runError.empty() ? 0 : 1;
}

}  // namespace rlab::cli
