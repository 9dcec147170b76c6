// rlab check: one run on the GPU under compute-sanitizer, as a report.
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"

namespace rlab::cli {

int checkCommand(const Command& c, std::ostream& out, std::ostream&, bool) {
  const SanitizerReport report = runSanitizer(c.params, c.tool);
  if (c.format == Format::Json)
    out << sanitizerJson(report).dump() << "\n";
  else
    printSanitizerText(report, out, c.language, c.terminal.width);
  return report.runError.empty() ? 0 : 1;  // hazards are a finding; a failed run is not a check
}

}  // namespace rlab::cli
