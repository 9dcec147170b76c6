// rlab: parse (parse.cpp), dispatch to the subcommand (one file each), and turn every failure
// into one line on stderr with its exit code.
#include "app/cli/cli.hpp"

#include <ostream>
#include <sstream>

#include "app/cli/subcommands.hpp"
#include "kernels/sim/runtime.hpp"
#include "lessons/engine/backends/backends.hpp"

namespace rlab::cli {

namespace {

struct Entry {
  const char* name;
  Subcommand run;
  // Writes as it goes (long work, progress on stderr) instead of into a buffer that reaches
  // stdout only once the command succeeded.
  bool streams;
};

constexpr Entry kSubcommands[] = {
    {"list", listCommand, false},     {"run", runCommand, false},
    {"race", raceCommand, false},     {"bench", benchCommand, true},
    {"check", checkCommand, true},    {"profile", profileCommand, true},
    {"record", recordCommand, true},  {"tour", tourCommand, true},
    {"lesson", lessonCommand, false}, {"exercise", exerciseCommand, false},
    {"model", modelCommand, false},
    {"export", exportCommand, true},    {"quiz", quizCommand, true},
};

const Entry& entryFor(const std::string& name) {
  for (const Entry& e : kSubcommands)
    if (name == e.name) return e;
  throw UsageError(Message("usage.bad-command", {{"command", name}}));
}

}  // namespace

int execute(const Command& c, std::ostream& out, std::ostream& err, bool colour) {
  if (c.helpShown) {
    out << c.helpText;
    return 0;
  }
  return entryFor(c.name).run(c, out, err, colour);
}

int main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
         const Terminal& terminal) {
  const bool colour = terminal.colour;
  try {
    Command c = parseCommandLine(args);
    c.terminal = terminal;
    if (c.helpShown || entryFor(c.name).streams) return execute(c, out, err, colour);
    // Into a buffer first, so a failure leaves stdout empty.
    std::ostringstream buffer;
    const int code = execute(c, buffer, err, colour);
    // A chapter is a few hundred lines: a screen at a time where there is a pager.
    if (code == 0 && c.name == "lesson" && c.pager && terminal.pager) {
      out.flush();
      if (terminal.pager(buffer.str())) return code;
    }
    out << buffer.str();
    return code;
  } catch (const UsageError& e) {
    err << "rlab: " << render(e.message(), languageOf(args)) << "\n";
    return 2;
  } catch (const ParamError& e) {
    err << "rlab: " << render(e.message(), languageOf(args)) << "\n";
    return 2;
  } catch (const GpuUnavailable& e) {
    err << "rlab: " << render(e.message(), languageOf(args)) << "\n";
    return 2;
  } catch (const std::exception& e) {  // sim::LaunchError among them: a kernel that cannot finish
    err << "rlab: " << render(messageOf(e), languageOf(args)) << "\n";
    return 1;
  }
}

}  // namespace rlab::cli
