// rlab tour: every lesson once, at a small n, paced for reading.
#include <chrono>
#include <ostream>
#include <thread>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/registry.hpp"
#include "lessons/run.hpp"

namespace rlab::cli {

int tourCommand(const Command& c, std::ostream& out, std::ostream&, bool colour) {
  struct Stop {
    const char* lesson;
    const char* variant;
    int64_t n;
    bool barrier;
    const char* schedule;
    const char* why;
  };
  const Stop stops[] = {
      {"atomic", "default", 8, true, "random:4", "Eight threads queue at one address."},
      {"folding", "default", 9, true, "lockstep", "Fold the back half onto the front half."},
      {"barrier", "global", 8, true, "stall:4:2:1",
       "A tree in one block, barrier on: thread 4 is late, everyone waits."},
      {"barrier", "global", 8, false, "stall:4:2:1",
       "The same, barrier off: thread 0 reads a[4] before thread 4 wrote it."},
      {"divergence", "interleaved", 64, true, "lockstep",
       "Interleaved: both warps busy at every level."},
      {"divergence", "sequential", 64, true, "lockstep",
       "Sequential addressing: one warp per level."},
      {"shared", "multiblock", 1000, true, "lockstep",
       "Shared memory, many blocks, one atomic each."},
      {"butterfly", "shared", 8, true, "lockstep",
       "XOR partners: every thread ends with the total."},
      {"fastest", "default", 1000, true, "lockstep",
       "Grid-stride, vector loads, warp shuffles, one pass."},
  };
  for (const Stop& s : stops) {
    Params p;
    p.lesson = s.lesson;
    p.variant = s.variant;
    p.n = s.n;
    p.barrier = s.barrier;
    p.schedule = s.schedule;
    if (std::string(s.lesson) == "divergence") p.block = 64;
    const Trace t = runLesson(p);
    out << "\n== " << findLesson(s.lesson)->title << " — " << s.why << "\n";
    printTraceText(t, out, colour);
    out.flush();
    if (c.delayMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(c.delayMs * 3));
  }
  out << "\nThat was every lesson. `rlab run LESSON --help` shows what you can change.\n";
  return 0;
}

}  // namespace rlab::cli
