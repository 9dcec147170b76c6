// rlab tour: every lesson's tour stops (from the registry), at a small n, paced for reading.
#include <chrono>
#include <ostream>
#include <thread>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run.hpp"

namespace rlab::cli {

int tourCommand(const Command& c, std::ostream& out, std::ostream&, bool colour) {
  for (const LessonInfo& lesson : lessons())
    for (const TourStop& stop : lesson.tour) {
      const Trace t = runLesson(tourStopParams(lesson, stop));
      const text::Document* doc = text::chapter(lesson.id, c.language);
      out << "\n== " << (doc ? doc->title : lesson.title) << " — " << render(stop.why, c.language)
          << "\n";
      printTraceText(t, out, colour, c.language,
                     narrationFor(t.params, t.backend != "gpu", c.language));
      out.flush();
      if (c.delayMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(c.delayMs * 3));
    }
  out << "\n" << render(Message("view.tour-end"), c.language) << "\n";
  return 0;
}

}  // namespace rlab::cli
