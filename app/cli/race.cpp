// rlab race: one lesson many times (random schedules on the simulator); the distinct results
// with how often each came out, and the first wrong run.
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/race.hpp"

namespace rlab::cli {

int raceCommand(const Command& c, std::ostream& out, std::ostream&, bool colour) {
  const RaceResult race = runRace(c.params, c.runs, 1, {},
                                  c.scheduleGiven ? RaceSchedules::AsGiven : RaceSchedules::Vary);
  if (c.format == Format::Json)
    out << raceJson(race).dump() << "\n";
  else
    printRaceText(race, out, colour);
  return 0;
}

}  // namespace rlab::cli
