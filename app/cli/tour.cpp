// rlab tour: every lesson's tour stops (from the registry), each a small run narrated step by
// step by its chapter. A person at a terminal moves on with Enter (b goes back, q quits, a
// number goes to that stop); --auto SECONDS moves on by itself; output that is no terminal
// gets every stop at once.
#include <algorithm>
#include <chrono>
#include <istream>
#include <ostream>
#include <thread>

#include "app/cli/subcommands.hpp"
#include "app/cli/terminal.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/texts/texts.hpp"

namespace rlab::cli {

namespace {

struct Stop {
  const LessonInfo* lesson;
  const TourStop* stop;
};

std::vector<Stop> tourStops() {
  std::vector<Stop> stops;
  for (const LessonInfo& lesson : lessons())
    for (const TourStop& stop : lesson.tour) stops.push_back({&lesson, &stop});
  return stops;
}

void showStop(const Command& c, const std::vector<Stop>& stops, size_t k, std::ostream& out,
              bool colour) {
  const Stop& s = stops[k];
  const Trace t = runLesson(tourStopParams(*s.lesson, *s.stop));
  const int width = c.terminal.width;
  out << "\n";
  printWrapped("== " + render(Message("view.tour-stop",
                                      {{"stop", k + 1},
                                       {"stops", stops.size()},
                                       {"title", text::lessonTitle(s.lesson->id, c.language)}}),
                              c.language),
               "", "   ", width, out);
  printWrapped(render(s.stop->why, c.language), "   ", "   ", width, out);
  printTraceText(t, out, colour, c.language, width,
                 narrationFor(t.params, t.backend != BackendChoice::Gpu, c.language));
  out.flush();
}

enum class Move { Next, Back, Quit, Jump };

// What the person at the keyboard asks for after stop k: Enter, b, q or a stop's number.
// The end of their input quits.
Move askForMove(std::istream& keys, size_t k, size_t total, int width, Language language,
                size_t& jumpTo, std::ostream& out) {
  const bool last = k + 1 == total;
  const std::string where =
      render(Message("view.tour-where", {{"stop", k + 1}, {"stops", total}}), language);
  const std::string prompt =
      "-- " + where + " -- " +
      render(Message(last ? "view.tour-keys-last" : "view.tour-keys"), language) + " > ";
  const std::string shortPrompt = where + " (Enter, b, q) > ";
  out << "\n" << (visibleColumns(prompt) <= width ? prompt : shortPrompt) << std::flush;
  for (std::string line; std::getline(keys, line);) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    while (!line.empty() && line.front() == ' ') line.erase(0, 1);
    if (line.empty() || line == "n") return Move::Next;
    if (line == "b") return Move::Back;
    if (line == "q") return Move::Quit;
    const bool digits =
        !line.empty() && line.size() <= 3 &&
        std::all_of(line.begin(), line.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
    if (digits && std::stoul(line) >= 1 && std::stoul(line) <= total) {
      jumpTo = std::stoul(line) - 1;
      return Move::Jump;
    }
    printWrapped(
        render(Message(last ? "view.tour-press-last" : "view.tour-press", {{"stops", total}}),
               language),
        "", "", width, out);
    out << shortPrompt << std::flush;
  }
  out << "\n";
  return Move::Quit;
}

void pause(const Command& c, double seconds) {
  if (c.terminal.wait)
    c.terminal.wait(seconds);
  else
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

}  // namespace

int tourCommand(const Command& c, std::ostream& out, std::ostream&, bool colour) {
  const std::vector<Stop> stops = tourStops();
  // --auto wins; else a person at a terminal is waited for; else there is nobody to wait for.
  const bool byKeys = c.autoSeconds < 0 && c.terminal.keys;
  const double seconds = std::max(c.autoSeconds, 0.0);
  if (byKeys)
    printWrapped(
        "rlab tour: " + render(Message("view.tour-start", {{"stops", stops.size()}}), c.language),
        "", "", c.terminal.width, out);
  for (size_t k = 0; k < stops.size();) {
    showStop(c, stops, k, out, colour);
    if (!byKeys) {
      if (seconds > 0 && k + 1 < stops.size()) pause(c, seconds);
      ++k;
      continue;
    }
    size_t jumpTo = 0;
    switch (
        askForMove(*c.terminal.keys, k, stops.size(), c.terminal.width, c.language, jumpTo, out)) {
      case Move::Next:
        ++k;
        break;
      case Move::Back:
        k = k > 0 ? k - 1 : 0;
        break;
      case Move::Jump:
        k = jumpTo;
        break;
      case Move::Quit:
        return 0;
    }
  }
  out << "\n";
  printWrapped(render(Message("view.tour-end"), c.language), "", "", c.terminal.width, out);
  return 0;
}

}  // namespace rlab::cli
