#include "app/cli/cli.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <map>
#include <ostream>
#include <sstream>
#include <thread>

#include "kernels/sim/runtime.hpp"
#include "lessons/registry.hpp"
#include "lessons/run.hpp"
#include "lessons/run_output.hpp"

namespace rlab::cli {

namespace {

int64_t parseInteger(const std::string& option, const std::string& text, int64_t low, int64_t high,
                     const std::string& allowed) {
  const bool digits =
      !text.empty() && text.size() <= 18 &&
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  const int64_t v = digits ? std::stoll(text) : -1;
  if (!digits || v < low || v > high)
    throw UsageError(option + " '" + text + "' is not allowed; " + allowed + ".");
  return v;
}

// Options every lesson command takes, gathered as text and checked by our own parsers so
// that every refusal reads the same way.
struct LessonOptions {
  std::string lesson, variant, n, block, op = "sum", type = "int", data, values, schedule,
                                         backend = "sim", format = "text";
  bool noBarrier = false, perturb = false;

  void addTo(CLI::App* app) {
    app->add_option("lesson", lesson, "lesson id: " + lessonIds())->required();
    app->add_option("--variant", variant, "variant of the lesson (rlab list shows them)");
    app->add_option("--n", n, "number of elements, 1 to 268435456 (or the lesson's limit)");
    app->add_option("--block", block, "threads per block: a power of two up to 1024");
    app->add_option("--op", op, "sum, max, min or product");
    app->add_option("--type", type, "int or float");
    app->add_option("--data", data, "iota (1..n), ones, or random:SEED");
    app->add_option("--values", values, "the input itself, e.g. 3,1,4,1,5");
    app->add_flag("--no-barrier", noBarrier, "barrier lesson: switch the barrier off");
    app->add_flag("--perturb", perturb, "barrier lesson: every third thread pauses each level");
    app->add_option("--schedule", schedule,
                    std::string("simulator schedule: ") + sim::kScheduleHelp);
    app->add_option("--backend", backend, "sim, gpu or auto");
    app->add_option("--format", format, "text or json");
  }

  Params params() const {
    Params p;
    p.lesson = lesson;
    p.variant = variant;
    if (!n.empty())
      p.n = parseInteger("--n", n, 1, kMaxN, "give a whole number from 1 to 268435456");
    if (!block.empty())
      p.block = int(parseInteger("--block", block, 1, 1024, "use a power of two from 1 to 1024"));
    p.op = parseOp(op);
    p.type = parseType(type);
    if (!data.empty() && !values.empty())
      throw UsageError("--data and --values both give the input; use one of them.");
    if (!data.empty()) p.data = data;
    if (!values.empty()) p.values = parseValues(values);
    p.barrier = !noBarrier;
    p.perturb = perturb;
    if (!schedule.empty()) p.schedule = schedule;
    p.backend = parseBackend(backend);
    if (!schedule.empty() && p.backend == BackendChoice::Gpu)
      throw UsageError("--schedule is for the simulator; a GPU schedules its threads itself.");
    resolve(p);  // every other check, with the lesson's own limits
    return p;
  }

  Format parsedFormat() const {
    if (format == "text") return Format::Text;
    if (format == "json") return Format::Json;
    throw UsageError("--format '" + format + "' is not a format; use text or json.");
  }
};

std::string firstLine(const std::string& text) {
  const size_t newline = text.find('\n');
  return newline == std::string::npos ? text : text.substr(0, newline);
}

}  // namespace

Command parseCommandLine(const std::vector<std::string>& args) {
  CLI::App app{"Reduction Lab: watch real GPU reduction kernels work, step by step.", "rlab"};
  app.require_subcommand(1);
  app.fallthrough(false);

  std::string listFormat = "text";
  auto* list = app.add_subcommand("list", "lessons, variants and parameters");
  list->add_option("--format", listFormat, "text or json");

  LessonOptions runOptions;
  auto* run = app.add_subcommand("run", "run one lesson and show every step");
  runOptions.addTo(run);

  LessonOptions raceOptions;
  std::string runs = "100";
  auto* race = app.add_subcommand("race", "run a lesson many times; count wrong results");
  raceOptions.addTo(race);
  race->add_option("--runs", runs, "how many runs (schedules on the simulator), 1 to 100000");

  std::string delay = "700";
  auto* tour = app.add_subcommand("tour", "every lesson once, small n, paced for reading");
  tour->add_option("--delay-ms", delay, "pause between steps in milliseconds, 0 to 10000");

  Command c;
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    c.helpShown = true;
    c.helpText = app.help();
    for (CLI::App* sub : app.get_subcommands()) c.helpText = sub->help();
    return c;
  } catch (const CLI::CallForAllHelp&) {
    c.helpShown = true;
    c.helpText = app.help("", CLI::AppFormatMode::All);
    return c;
  } catch (const CLI::ParseError& e) {
    throw UsageError(firstLine(e.what()) + " (rlab --help lists the commands and options)");
  }

  try {
    if (list->parsed()) {
      c.name = "list";
      if (listFormat != "text" && listFormat != "json")
        throw UsageError("--format '" + listFormat + "' is not a format; use text or json.");
      c.format = listFormat == "json" ? Format::Json : Format::Text;
    } else if (run->parsed()) {
      c.name = "run";
      c.params = runOptions.params();
      c.format = runOptions.parsedFormat();
    } else if (race->parsed()) {
      c.name = "race";
      c.params = raceOptions.params();
      c.format = raceOptions.parsedFormat();
      c.runs = int(parseInteger("--runs", runs, 1, 100000, "give a whole number from 1 to 100000"));
    } else {
      c.name = "tour";
      c.delayMs = int(parseInteger("--delay-ms", delay, 0, 10000, "give 0 to 10000"));
    }
  } catch (const ParamError& e) {
    throw UsageError(e.what());
  }
  return c;
}

namespace {

void printList(std::ostream& out) {
  for (const LessonInfo& l : lessons()) {
    out << l.id << " — " << l.title << "\n  variants: ";
    for (size_t i = 0; i < l.variants.size(); ++i) out << (i ? ", " : "") << l.variants[i];
    out << "\n  n: 1 to " << l.maxN << " (default " << l.defaultN << ")"
        << (l.oneBlock ? ", one block: block >= n" : "")
        << (l.switchableBarrier ? ", --no-barrier, --perturb" : "") << "\n";
  }
  out << "\nEvery lesson: --op sum|max|min|product, --type int|float, --data iota|ones|random:SEED"
         " or --values LIST,\n--block (power of two, at most 1024), --schedule "
      << sim::kScheduleHelp << ", --backend sim|gpu|auto.\n";
}

// race: the distinct results with how often each came out, and the first wrong trace.
int runRace(const Command& c, std::ostream& out, bool colour) {
  std::map<double, int> histogram;
  int wrong = 0;
  Trace firstWrong;
  bool haveWrong = false;
  Trace last;
  for (int k = 0; k < c.runs; ++k) {
    Params p = c.params;
    p.trace = !haveWrong;
    if (p.backend != BackendChoice::Gpu && c.params.schedule == "lockstep")
      p.schedule = "random:" + std::to_string(k + 1);  // a different interleaving each run
    last = runLesson(p);
    ++histogram[last.result];
    if (!last.correct) {
      ++wrong;
      if (!haveWrong) {
        firstWrong = last;
        haveWrong = true;
      }
    }
  }
  if (c.format == Format::Json) {
    out << "{\"lesson\":\"" << last.params.lesson << "\",\"variant\":\"" << last.params.variant
        << "\",\"backend\":\"" << last.backend << "\",\"runs\":" << c.runs << ",\"wrong\":" << wrong
        << ",\"expected\":" << last.expected << ",\"results\":[";
    bool first = true;
    for (const auto& [value, count] : histogram) {
      out << (first ? "" : ",") << "{\"result\":" << value << ",\"count\":" << count << "}";
      first = false;
    }
    out << "]";
    if (haveWrong) out << ",\"first_wrong\":" << traceJson(firstWrong);
    out << "}\n";
    return 0;
  }
  out << last.params.lesson << " " << last.params.variant << ", " << c.runs << " runs on "
      << last.device << (c.params.barrier ? "" : ", barrier off")
      << (c.params.perturb ? ", perturbed" : "") << "\n";
  out << "wrong: " << wrong << " of " << c.runs << " (expected " << last.expected << ")\n";
  int widest = 1;
  for (const auto& entry : histogram) widest = std::max(widest, entry.second);
  for (const auto& [value, count] : histogram) {
    const bool right = value == last.expected;
    std::ostringstream label;
    label << value;
    out << "  " << std::string(std::max<int>(0, 12 - int(label.str().size())), ' ') << label.str()
        << "  " << std::string(std::max(1, count * 40 / widest), '#') << " " << count
        << (right ? "  (right)" : "") << "\n";
  }
  if (haveWrong) {
    out << "\nThe first wrong run:\n";
    printTraceText(firstWrong, out, colour);
  }
  return 0;
}

int runTour(const Command& c, std::ostream& out, bool colour) {
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

}  // namespace

int execute(const Command& c, std::ostream& out, std::ostream& err, bool colour) {
  (void)err;
  if (c.helpShown) {
    out << c.helpText;
    return 0;
  }
  if (c.name == "list") {
    if (c.format == Format::Json)
      out << lessonsJson() << "\n";
    else
      printList(out);
    return 0;
  }
  if (c.name == "run") {
    const Trace t = runLesson(c.params);
    if (c.format == Format::Json)
      out << traceJson(t) << "\n";
    else
      printTraceText(t, out, colour);
    return 0;
  }
  if (c.name == "race") return runRace(c, out, colour);
  return runTour(c, out, colour);
}

int main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool colour) {
  try {
    const Command c = parseCommandLine(args);
    // Output is produced into a buffer first, so a failure leaves stdout empty.
    std::ostringstream buffer;
    const int code = execute(c, c.name == "tour" ? out : buffer, err, colour);
    out << buffer.str();
    return code;
  } catch (const UsageError& e) {
    err << "rlab: " << e.what() << "\n";
    return 2;
  } catch (const ParamError& e) {
    err << "rlab: " << e.what() << "\n";
    return 2;
  } catch (const GpuUnavailable& e) {
    err << "rlab: " << e.what() << "\n";
    return 2;
  } catch (const sim::LaunchError& e) {
    err << "rlab: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    err << "rlab: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace rlab::cli
