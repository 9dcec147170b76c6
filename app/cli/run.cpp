// rlab run: one lesson, every step.
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/run/run.hpp"

namespace rlab::cli {

int runCommand(const Command& c, std::ostream& out, std::ostream&, bool colour) {
  const Trace t = runLesson(c.run);
  if (c.format == Format::Json) {
    nlohmann::json j = traceJson(t);
    if (c.timeline) j["timeline"] = timelineJson(t);
    out << j.dump() << "\n";
  } else
    printTraceText(t, out, colour, c.language, c.terminal.width,
                   narrationFor(t.params, t.backend != BackendChoice::Gpu, c.language));
  if (c.timeline && c.format != Format::Json)
    printTimelineText(t, out, colour, c.language, c.terminal.width);
  if (c.launches && c.format != Format::Json)
    printLaunchesText(t, out, c.language, c.terminal.width);
  return 0;
}

}  // namespace rlab::cli
