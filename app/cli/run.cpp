// rlab run: one lesson, every step.
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/run.hpp"

namespace rlab::cli {

int runCommand(const Command& c, std::ostream& out, std::ostream&, bool colour) {
  const Trace t = runLesson(c.params);
  if (c.format == Format::Json)
    out << traceJson(t).dump() << "\n";
  else
    printTraceText(t, out, colour, narrationFor(t.params, t.backend != "gpu", c.language));
  return 0;
}

}  // namespace rlab::cli
