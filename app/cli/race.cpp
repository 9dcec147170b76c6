// rlab race: one lesson many times (random schedules on the simulator); the distinct results
// with how often each came out, and the first wrong run. With --witness: the smallest stall
// schedule that makes the run wrong, and on a GPU the same failure forced there.
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/races/race.hpp"
#include "lessons/engine/races/witness.hpp"

namespace rlab::cli {

int raceCommand(const Command& c, std::ostream& out, std::ostream&, bool colour) {
  if (c.witness) {
    WitnessOptions options;
    options.searchRuns = c.runs;
    options.gpuRuns = c.runs;
    const Witness w = findWitness(c.params, options);
    if (c.format == Format::Json)
      out << witnessJson(w).dump() << "\n";
    else
      printWitnessText(w, out, colour, c.language, c.terminal.width);
    return 0;
  }
  const RaceResult race = runRace(c.params, c.runs, 1, {},
                                  c.scheduleGiven ? RaceSchedules::AsGiven : RaceSchedules::Vary);
  if (c.format == Format::Json)
    out << raceJson(race).dump() << "\n";
  else
    printRaceText(race, out, colour, c.language, c.terminal.width);
  return 0;
}

}  // namespace rlab::cli
