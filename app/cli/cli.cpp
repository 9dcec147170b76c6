#include "app/cli/cli.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <chrono>
#include <map>
#include <ostream>
#include <sstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "kernels/sim/runtime.hpp"
#include "lessons/bench.hpp"
#include "lessons/race.hpp"
#include "lessons/registry.hpp"
#include "lessons/run.hpp"
#include "lessons/backends.hpp"

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
  bool noBarrier = false, perturb = false, noTimings = false;

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
    app->add_flag("--no-timings", noTimings, "GPU: run once, skip the timing repetitions");
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
    p.timed = !noTimings;
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

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  if (text.empty()) return items;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    items.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

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

  std::string benchLessons, benchSizes, benchReps = "20", benchType = "int", benchFormat = "text",
                                        benchBackend = "auto";
  auto* bench =
      app.add_subcommand("bench", "time every lesson kernel against CUB and the copy roofline");
  bench->add_option("--lessons", benchLessons,
                    "lessons to time, e.g. shared,fastest (default: all that scale)");
  bench->add_option("--sizes", benchSizes, "sizes, e.g. 1024,1048576 (default 2^10 to 2^28, x4)");
  bench->add_option("--reps", benchReps, "repetitions per measurement, 1 to 1000");
  bench->add_option("--type", benchType, "int or float");
  bench->add_option("--format", benchFormat, "text, csv or json");
  bench->add_option("--backend", benchBackend, "gpu, sim or auto");

  LessonOptions checkOptions;
  std::string tool;
  auto* check = app.add_subcommand("check", "run a lesson once on the GPU under compute-sanitizer");
  checkOptions.addTo(check);
  check->add_option("--tool", tool, "racecheck, memcheck, synccheck or initcheck")->required();

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
    } else if (check->parsed()) {
      c.name = "check";
      if (tool != "racecheck" && tool != "memcheck" && tool != "synccheck" && tool != "initcheck")
        throw UsageError("--tool '" + tool +
                         "' is not a compute-sanitizer tool; use racecheck, "
                         "memcheck, synccheck or initcheck.");
      c.tool = tool;
      checkOptions.backend = "gpu";
      c.params = checkOptions.params();
      // Pass the lesson options on to `rlab run` under the sanitizer, minus --tool.
      for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--tool") {
          ++i;
          continue;
        }
        if (args[i].rfind("--tool=", 0) == 0 || args[i] == "--backend") {
          if (args[i] == "--backend") ++i;
          continue;
        }
        c.lessonArgs.push_back(args[i]);
      }
    } else if (bench->parsed()) {
      c.name = "bench";
      c.params.type = parseType(benchType);
      c.params.backend = parseBackend(benchBackend);
      c.reps =
          int(parseInteger("--reps", benchReps, 1, 1000, "give a whole number from 1 to 1000"));
      if (benchFormat != "text" && benchFormat != "csv" && benchFormat != "json")
        throw UsageError("--format '" + benchFormat + "' is not a format; use text, csv or json.");
      c.format = benchFormat == "json"  ? Format::Json
                 : benchFormat == "csv" ? Format::Csv
                                        : Format::Text;
      c.lessonsList = benchLessons;
      c.sizesList = benchSizes;
      for (const auto& item : splitList(benchLessons))
        if (!findLesson(item) || !findLesson(item)->timed) {
          std::string timed;
          for (const LessonInfo& l : lessons())
            if (l.timed) timed += (timed.empty() ? "" : ", ") + l.id;
          throw UsageError("--lessons names '" + item + "'; choose from " + timed + ".");
        }
      for (const auto& item : splitList(benchSizes))
        parseInteger("--sizes", item, 1, kMaxN,
                     "give sizes from 1 to 268435456, separated by commas");
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
    out << l.variantIds();
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
  const RaceResult race = runRace(c.params, c.runs, 1);
  const Trace* firstWrong = race.wrongRuns.empty() ? nullptr : race.wrongRuns.front().get();
  if (c.format == Format::Json) {
    out << "{\"lesson\":\"" << race.params.lesson << "\",\"variant\":\"" << race.params.variant
        << "\",\"backend\":\"" << race.backend << "\",\"runs\":" << race.runs
        << ",\"wrong\":" << race.wrong << ",\"expected\":" << race.expected << ",\"results\":[";
    bool first = true;
    for (const auto& [value, count] : race.histogram) {
      out << (first ? "" : ",") << "{\"result\":" << value << ",\"count\":" << count << "}";
      first = false;
    }
    out << "]";
    if (firstWrong) out << ",\"first_wrong\":" << traceJson(*firstWrong);
    out << "}\n";
    return 0;
  }
  out << race.params.lesson << " " << race.params.variant << ", " << race.runs << " runs on "
      << race.device << (c.params.barrier ? "" : ", barrier off")
      << (c.params.perturb ? ", perturbed" : "") << "\n";
  out << "wrong: " << race.wrong << " of " << race.runs << " (expected "
      << formatValue(race.expected, race.params.type) << ")\n";
  int widest = 1;
  for (const auto& entry : race.histogram) widest = std::max(widest, entry.second);
  for (const auto& [value, count] : race.histogram) {
    const std::string label = formatValue(value, race.params.type);
    out << "  " << std::string(std::max<int>(0, 12 - int(label.size())), ' ') << label << "  "
        << std::string(std::max(1, count * 40 / widest), '#') << " " << count
        << (value == race.expected ? "  (right)" : "") << "\n";
  }
  if (firstWrong) {
    out << "\nThe first wrong run:\n";
    printTraceText(*firstWrong, out, colour);
  }
  return 0;
}

int runBench(const Command& c, std::ostream& out, std::ostream& err) {
  BenchRequest request;
  request.type = c.params.type;
  request.reps = c.reps;
  for (const auto& [lesson, variant] : scalableKernels()) {
    const auto wanted = splitList(c.lessonsList);
    if (wanted.empty() || std::find(wanted.begin(), wanted.end(), lesson) != wanted.end())
      request.kernels.emplace_back(lesson, variant);
  }
  bool gpu = c.params.backend == BackendChoice::Gpu ||
             (c.params.backend == BackendChoice::Auto && gpuBackendBuilt());
  for (const auto& item : splitList(c.sizesList)) request.sizes.push_back(std::stoll(item));
  if (request.sizes.empty()) request.sizes = defaultBenchSizes(gpu);
  const BenchProgress progress = [&](const std::string& kernel, long long n) {
    err << "bench: " << kernel << ", n = " << n << "\r" << std::flush;
    return true;
  };
  std::vector<BenchRow> rows;
  std::string device;
  if (gpu) {
    try {
      rows = benchGpu(request, progress, device);
    } catch (const GpuUnavailable& e) {
      if (c.params.backend == BackendChoice::Gpu) throw;
      err << "bench: " << e.what() << " Measuring the simulator instead.\n";
      gpu = false;
    }
  }
  if (!gpu) {
    rows = benchSimulator(request, progress);
    device = "CPU SIMT simulator";
  }
  err << std::string(60, ' ') << "\r";
  if (c.format == Format::Json) {
    out << "{\"device\":\"" << device << "\",\"gpu_times\":" << (gpu ? "true" : "false")
        << ",\"type\":\"" << name(request.type) << "\",\"rows\":[";
    for (size_t i = 0; i < rows.size(); ++i)
      out << (i ? "," : "") << "{\"kernel\":\"" << rows[i].kernel << "\",\"n\":" << rows[i].n
          << ",\"ms\":" << rows[i].ms << ",\"gb_per_s\":" << rows[i].gbPerSecond
          << ",\"copy_fraction\":" << rows[i].copyFraction << ",\"cub_ratio\":" << rows[i].cubRatio
          << "}";
    out << "]}\n";
    return 0;
  }
  if (c.format == Format::Csv) {
    out << "kernel,n,ms,gb_per_s,copy_fraction,cub_ratio\n";
    for (const auto& r : rows)
      out << r.kernel << "," << r.n << "," << r.ms << "," << r.gbPerSecond << "," << r.copyFraction
          << "," << r.cubRatio << "\n";
    return 0;
  }
  out << "device: " << device << ", type " << name(request.type)
      << (gpu ? ", kernel-only median times" : " — simulator throughput, not GPU times") << "\n";
  char line[200];
  std::snprintf(line, sizeof line, "%-30s %11s %12s %10s %8s %8s\n", "kernel", "n", "ms", "GB/s",
                gpu ? "copy%" : "", gpu ? "xCUB" : "");
  out << line;
  for (const auto& r : rows) {
    if (gpu)
      std::snprintf(line, sizeof line, "%-30s %11lld %12.4f %10.1f %7.1f%% %8.2f\n",
                    r.kernel.c_str(), r.n, r.ms, r.gbPerSecond, r.copyFraction * 100, r.cubRatio);
    else
      std::snprintf(line, sizeof line, "%-30s %11lld %12.2f %10.4f\n", r.kernel.c_str(), r.n, r.ms,
                    r.gbPerSecond);
    out << line;
  }
  return 0;
}

// The rlab to run under the sanitizer: this process when it is rlab (the desktop app calls in
// here too), else the one built beside it.
std::string rlabExecutable() {
  std::string self(4096, '\0');
  const ssize_t len = readlink("/proc/self/exe", self.data(), self.size() - 1);
  self.resize(size_t(std::max<ssize_t>(len, 0)));
  if (self.size() >= 5 && self.compare(self.size() - 5, 5, "/rlab") == 0) return self;
  if (const char* env = std::getenv("RLAB_EXECUTABLE")) return env;
  return RLAB_CLI_PATH;
}

// compute-sanitizer on PATH, or beside nvcc.
std::string findSanitizer() {
  for (const std::string dir :
       {std::string(RLAB_CUDA_BIN_DIR), std::string("/usr/local/cuda/bin")}) {
    const std::string path = dir + "/compute-sanitizer";
    if (!dir.empty() && access(path.c_str(), X_OK) == 0) return path;
  }
  if (std::system("command -v compute-sanitizer >/dev/null 2>&1") == 0) return "compute-sanitizer";
  return "";
}

std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

int runCheck(const Command& c, std::ostream& out) {
  const std::string sanitizer = findSanitizer();
  if (sanitizer.empty())
    throw GpuUnavailable(
        "compute-sanitizer was found neither on PATH nor beside nvcc; install "
        "the CUDA toolkit's sanitizer to use rlab check.");
  const std::string self = rlabExecutable();
  std::string command = shellQuote(sanitizer) + " --tool " + c.tool + " --error-exitcode 9 " +
                        shellQuote(self) + " run";
  for (const auto& a : c.lessonArgs) command += " " + shellQuote(a);
  command += " --backend gpu --no-timings --format json 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("could not start compute-sanitizer");
  std::string output;
  char buffer[4096];
  while (size_t got = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
  const int status = pclose(pipe);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::vector<std::string> summary, first;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("=========", 0) != 0) continue;
    if (line.find("SUMMARY") != std::string::npos)
      summary.push_back(line.substr(10));
    else if (first.size() < 6 &&
             (line.find("Error") != std::string::npos || line.find("Race") != std::string::npos ||
              line.find("Hazard") != std::string::npos))
      first.push_back(line.substr(10));
  }
  out << c.tool << " on " << c.params.lesson << " ("
      << (c.params.variant.empty() ? "default" : c.params.variant)
      << (c.params.barrier ? "" : ", barrier off") << "):\n";
  for (const auto& l : first) out << "  " << l << "\n";
  for (const auto& l : summary) out << l << "\n";
  if (summary.empty()) out << "(no summary from compute-sanitizer; exit code " << code << ")\n";
  out << (code == 0   ? "clean"
          : code == 9 ? "the sanitizer reported errors"
                      : "the run failed")
      << "\n";
  if (c.tool == "racecheck")
    out << "note: racecheck watches shared memory only; races in global memory (the barrier "
           "lesson's global variant) are invisible to it.\n";
  return 0;
}

int runTour(const Command& c, std::ostream& out, bool colour) {
  for (const LessonInfo& lesson : lessons())
    for (const TourStop& stop : lesson.tour) {
      const Trace t = runLesson(tourStopParams(lesson, stop));
      out << "\n== " << lesson.title << " — " << stop.why << "\n";
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
  if (c.name == "bench") return runBench(c, out, err);
  if (c.name == "check") return runCheck(c, out);
  return runTour(c, out, colour);
}

int main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool colour) {
  try {
    const Command c = parseCommandLine(args);
    // Output is produced into a buffer first, so a failure leaves stdout empty.
    std::ostringstream buffer;
    const bool streams = c.name == "tour" || c.name == "bench" || c.name == "check";
    const int code = execute(c, streams ? out : buffer, err, colour);
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
