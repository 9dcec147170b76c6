// The command line, read into a Command. CLI11 splits it; every value is checked by our own
// parsers (and the core's resolve), so every refusal is one sentence naming the option.
#include <CLI/CLI.hpp>
#include <algorithm>

#include "app/cli/cli.hpp"
#include "kernels/sim/runtime.hpp"
#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::cli {

namespace {

// `allowed` says what is: Message("usage.whole-number") and the like take {low} and {high}.
int64_t parseInteger(const std::string& option, const std::string& text, int64_t low, int64_t high,
                     const char* allowed = "usage.whole-number") {
  const bool digits =
      !text.empty() && text.size() <= 18 &&
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  const int64_t v = digits ? std::stoll(text) : -1;
  if (!digits || v < low || v > high)
    throw UsageError(Message(
        "usage.not-allowed",
        {{"option", option},
         {"given", text},
         {"allowed", Message(allowed, {{"low", low}, {"high", high}, {"option", option}})}}));
  return v;
}

// Seconds as "2" or "2.5", from 0 to `most`.
double parseSeconds(const std::string& option, const std::string& text, int most) {
  const size_t point = text.find('.');
  const std::string whole = text.substr(0, point);
  const std::string fraction = point == std::string::npos ? "" : text.substr(point + 1);
  auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 6 &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const bool valid = digits(whole) && (point == std::string::npos || digits(fraction));
  // Read digit by digit: std::stod would follow the locale's decimal point.
  double seconds = valid ? double(std::stol(whole)) : -1;
  double place = 0.1;
  for (char c : valid ? fraction : std::string()) seconds += (c - '0') * place, place /= 10;
  if (!valid || seconds > most)
    throw UsageError(Message("usage.not-allowed",
                             {{"option", option},
                              {"given", text},
                              {"allowed", Message("usage.decimal-seconds", {{"high", most}})}}));
  return seconds;
}

Format parseFormat(const std::string& text, bool csvToo) {
  if (text == "text") return Format::Text;
  if (text == "json") return Format::Json;
  if (csvToo && text == "csv") return Format::Csv;
  throw UsageError(
      Message("usage.bad-format",
              {{"format", text}, {"formats", csvToo ? "text, csv, json" : "text, json"}}));
}

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

// An option given another option where its value should be (`--n --lang ja`): CLI11 takes
// "--lang" as the value and then blames "ja". The first such option's name, or "".
std::string optionWithoutValue(const CLI::App& app) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_items_expected_min() == 0 || option->count() == 0) continue;
    for (const std::string& value : option->results())
      if (value.rfind("--", 0) == 0 && app.get_option_no_throw(value.substr(0, value.find('='))))
        return option->get_name();
  }
  for (const CLI::App* sub : app.get_subcommands())
    if (std::string option = optionWithoutValue(*sub); !option.empty()) return option;
  return "";
}

// CLI11's refusal as a sentence in the learner's language, for the kinds a person meets; any
// other in CLI11's English.
Message commandLineError(const CLI::App& app, const CLI::ParseError& error) {
  if (const std::string option = optionWithoutValue(app); !option.empty())
    return Message("usage.needs-value", {{"option", option}});
  const std::string what = firstLine(error.what());
  const bool extras = dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr,
             mismatch = dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr,
             required = dynamic_cast<const CLI::RequiredError*>(&error) != nullptr;
  const size_t colon = what.find(": ");
  if (extras && colon != std::string::npos)
    return Message("usage.not-expected", {{"arguments", what.substr(colon + 2)}});
  if (mismatch && what.find(" missing") != std::string::npos && what.find(':') != std::string::npos)
    return Message("usage.needs-value", {{"option", what.substr(0, what.find(':'))}});
  if (required && what.rfind("A subcommand is required", 0) == 0) {
    // The command that lacks one: the last that was given.
    const CLI::App* at = &app;
    std::string command = app.get_name();
    while (!at->get_subcommands().empty()) {
      at = at->get_subcommands().front();
      command += " " + at->get_name();
    }
    std::string commands;
    for (const CLI::App* sub : at->get_subcommands([](const CLI::App*) { return true; }))
      commands += (commands.empty() ? "" : ", ") + sub->get_name();
    return Message("usage.command-required", {{"command", command}, {"commands", commands}});
  }
  if (const size_t is = what.rfind(" is required");
      required && is != std::string::npos && is + 12 == what.size())
    return Message("usage.required", {{"what", what.substr(0, is)}});
  return verbatim(what);
}

void addLanguageOption(CLI::App* app, std::string& language) {
  app->add_option("--lang", language,
                  "language of the texts and of what rlab says: en, ja or zh (default: locale)");
}

Language languageOrLocale(const std::string& given) {
  return given.empty() ? languageFromEnvironment() : parseLanguage(given);
}

std::string chapterList() {
  std::string list;
  for (const auto& id : chapterIds()) list += (list.empty() ? "" : ", ") + id;
  return list;
}

// Options every lesson command (run, race, check) takes, gathered as text. An option given
// with an empty value is refused like any other bad value, never taken as "not given".
struct LessonOptions {
  std::string lesson, variant, n, block, op = "sum", type = "int", data, values, schedule,
                                         backend = "auto", format = "text", language, delay, gpus,
                                         perThread;
  bool noBarrier = false, noSyncwarp = false, perturb = false, printing = false, noTimings = false,
       noLoadAdd = false;
  CLI::Option *variantGiven = nullptr, *nGiven = nullptr, *blockGiven = nullptr,
              *dataGiven = nullptr, *valuesGiven = nullptr, *scheduleGiven = nullptr,
              *delayGiven = nullptr, *backendGiven = nullptr, *gpusGiven = nullptr,
              *perThreadGiven = nullptr;

  void addTo(CLI::App* app) {
    app->add_option("lesson", lesson, "lesson id: " + lessonIds())->required();
    variantGiven =
        app->add_option("--variant", variant, "variant of the lesson (rlab list shows them)");
    nGiven =
        app->add_option("--n", n, "number of elements, 1 to 268435456 (or the lesson's limit)");
    blockGiven = app->add_option("--block", block, "threads per block: a power of two up to 1024");
    app->add_option("--op", op, "sum, max, min or product; subtract: a demonstration");
    app->add_option("--type", type, "int or float");
    dataGiven = app->add_option("--data", data,
                                "iota (1..n), ones, random:SEED, or mixed:SEED (mixed magnitudes)");
    valuesGiven = app->add_option("--values", values, "the input itself, e.g. 3,1,4,1,5");
    app->add_flag("--no-barrier", noBarrier, "barrier lesson: switch the barrier off");
    app->add_flag("--no-syncwarp", noSyncwarp,
                  "lastwarp syncwarp: take the __syncwarp() calls out of the last warp");
    app->add_flag("--perturb", perturb,
                  "barrier, lastwarp, butterfly shared: every third thread pauses each level");
    app->add_flag("--printf", printing,
                  "barrier lesson: every third thread calls printf each level; the run shows "
                  "the lines");
    delayGiven = app->add_option(
        "--delay", delay,
        "barrier and lastwarp lessons: THREAD:LEVEL, that thread pauses before that level");
    scheduleGiven = app->add_option("--schedule", schedule,
                                    std::string("simulator schedule: ") + sim::kScheduleHelp);
    gpusGiven = app->add_option("--gpus", gpus, "allreduce: how many GPUs, 1, 2, 4 or 8");
    perThreadGiven = app->add_option(
        "--per-thread", perThread, "shared coarsened: elements each thread combines, 1 to 32 (8)");
    app->add_flag("--no-load-add", noLoadAdd,
                  "shared coarsened: no add during the load; the tree's first levels add");
    backendGiven = app->add_option(
        "--backend", backend,
        "sim, gpu or auto (the default: the GPU where one works, else the simulator; with "
        "--schedule, the simulator)");
    app->add_option("--format", format, "text or json");
    app->add_flag("--no-timings", noTimings, "GPU: run once, skip the timing repetitions");
    addLanguageOption(app, language);
  }

  Params params() const {
    auto given = [](const CLI::Option* option) { return option->count() > 0; };
    Params p;
    p.lesson = lesson;
    if (given(variantGiven) && variant.empty()) throw UsageError(Message("usage.variant-empty"));
    p.variant = variant;
    if (given(nGiven)) p.n = parseInteger("--n", n, 1, kMaxN);
    if (given(blockGiven))
      p.block = int(parseInteger("--block", block, 1, 1024, "usage.power-of-two"));
    p.op = parseOp(op);
    p.type = parseType(type);
    if (given(dataGiven) && given(valuesGiven)) throw UsageError(Message("usage.data-and-values"));
    if (given(dataGiven) && data.empty()) throw UsageError(Message("usage.data-empty"));
    if (given(dataGiven)) p.data = data;
    if (given(valuesGiven)) p.values = parseValues(values);
    p.barrier = !noBarrier;
    p.syncwarp = !noSyncwarp;
    p.perturb = perturb;
    p.printing = printing;
    if (given(delayGiven)) parseDelay(delay, p);
    if (given(gpusGiven)) p.gpus = int(parseInteger("--gpus", gpus, 1, 8, "usage.gpus"));
    if (given(perThreadGiven))
      p.perThread = int(parseInteger("--per-thread", perThread, 1, kMaxPerThread));
    p.loadAdd = !noLoadAdd;
    p.timed = !noTimings;
    if (given(scheduleGiven)) p.schedule = schedule;
    p.backend = parseBackend(backend);
    if (given(scheduleGiven) && p.backend == BackendChoice::Gpu)
      throw UsageError(Message("usage.schedule-on-gpu"));
    // A schedule is the simulator's: asking for one, and for no backend, chooses it.
    if (given(scheduleGiven) && !given(backendGiven)) p.backend = BackendChoice::Sim;
    resolve(p);  // every other check, with the lesson's own limits
    return p;
  }
};

// rlab exercise and its actions. The exercise id is checked here; the file by the core.
struct ExerciseOptions {
  CLI::App *list = nullptr, *progress = nullptr, *show = nullptr, *start = nullptr,
           *check = nullptr, *hint = nullptr, *solution = nullptr, *run = nullptr;
  // folder and file empty: the learner's folder, shared with the app (exercise/progress.hpp)
  std::string id, file, folder, hint_ = "", format = "text", caseSeconds = "5", n, block, data,
                                values, schedule, backend = "sim", language;
  CLI::Option *nGiven = nullptr, *blockGiven = nullptr, *dataGiven = nullptr,
              *valuesGiven = nullptr, *scheduleGiven = nullptr;

  void addTo(CLI::App* exercise) {
    const std::string idHelp = "exercise id (rlab exercise list shows them)";
    list = exercise->add_subcommand("list", "the exercises, lesson by lesson");
    list->add_option("--format", format, "text or json");
    addLanguageOption(list, language);
    progress = exercise->add_subcommand(
        "progress",
        "your path through the course: each lesson's exercises, done or not, and the next");
    progress->add_option("--format", format, "text or json");
    addLanguageOption(progress, language);
    show = exercise->add_subcommand("show", "print the exercise's statement");
    show->add_option("id", id, idHelp)->required();
    addLanguageOption(show, language);
    start = exercise->add_subcommand("start", "write the starting file, ID.cu, into DIR");
    start->add_option("id", id, idHelp)->required();
    start->add_option("dir", folder,
                      "folder to write it into (default: your exercise folder, "
                      "~/.local/share/reduction-lab/exercises/ID, shared with the app)");
    addLanguageOption(start, language);
    check = exercise->add_subcommand("check", "compile FILE and run it through every check");
    check->add_option("id", id, idHelp)->required();
    check->add_option("file", file,
                      "your kernel file (default: the one rlab exercise start ID and the app "
                      "keep in your exercise folder)");
    check->add_option("--format", format, "text or json");
    check->add_option("--case-seconds", caseSeconds,
                      "a case running longer is stopped as a hang, 1 to 600 (default 5)");
    check->add_option("--backend", backend, "sim (default), gpu (NVRTC and the device) or auto");
    addLanguageOption(check, language);
    hint = exercise->add_subcommand("hint", "show hint K of the exercise");
    hint->add_option("id", id, idHelp)->required();
    hint->add_option("k", hint_, "which hint, from 1")->required();
    addLanguageOption(hint, language);
    solution = exercise->add_subcommand("solution", "show our solution");
    solution->add_option("id", id, idHelp)->required();
    addLanguageOption(solution, language);
    run = exercise->add_subcommand("run",
                                   "compile FILE and run it once, as a failed check's "
                                   "replay line does");
    run->add_option("id", id, idHelp)->required();
    run->add_option("file", file, "your kernel file")->required();
    nGiven = run->add_option("--n", n, "number of elements");
    blockGiven = run->add_option("--block", block, "threads per block: a power of two up to 1024");
    dataGiven = run->add_option("--data", data,
                                "iota (1..n), ones, random:SEED, or mixed:SEED (mixed magnitudes)");
    valuesGiven = run->add_option("--values", values, "the input itself, e.g. 3,1,4,1,5");
    scheduleGiven = run->add_option("--schedule", schedule,
                                    std::string("simulator schedule: ") + sim::kScheduleHelp);
    run->add_option("--format", format, "text or json");
    run->add_option("--backend", backend, "sim (default), gpu or auto");
    addLanguageOption(run, language);
  }

  void fill(Command& c) const {
    c.name = "exercise";
    for (CLI::App* action : {list, progress, show, start, check, hint, solution, run})
      if (action->parsed()) c.exerciseAction = action->get_name();
    c.format = parseFormat(format, false);
    c.language = languageOrLocale(language);
    if (c.exerciseAction == "list" || c.exerciseAction == "progress") return;
    const Exercise& e = exerciseOrThrow(id);
    c.exerciseId = e.id;
    c.exerciseFile = file;
    c.exerciseFolder = folder;
    if (c.exerciseAction == "hint") {
      const int hints = int(exerciseText(e, c.language).hints.size());
      c.hint = int(parseInteger("hint", hint_, 1, hints, "usage.hint"));
    }
    c.caseSeconds = double(parseInteger("--case-seconds", caseSeconds, 1, 600, "usage.seconds"));
    c.params.backend = parseBackend(backend);
    if (c.exerciseAction != "run") return;
    auto given = [](const CLI::Option* option) { return option->count() > 0; };
    Params p;
    p.backend = c.params.backend;
    if (given(nGiven)) p.n = parseInteger("--n", n, 1, kMaxN);
    if (given(blockGiven))
      p.block = int(parseInteger("--block", block, 1, 1024, "usage.power-of-two"));
    if (given(dataGiven) && given(valuesGiven)) throw UsageError(Message("usage.data-and-values"));
    if (given(dataGiven) && data.empty()) throw UsageError(Message("usage.data-empty"));
    if (given(dataGiven)) p.data = data;
    if (given(valuesGiven)) p.values = parseValues(values);
    if (given(scheduleGiven)) p.schedule = schedule;
    if (given(scheduleGiven) && p.backend == BackendChoice::Gpu)
      throw UsageError(Message("usage.schedule-on-gpu"));
    c.params = exerciseRunParams(e, p);  // the exercise's own limits
  }
};

// bench --lessons: the lessons whose kernels scale, in the words of its refusal.
std::vector<std::string> benchableLessons() {
  std::vector<std::string> ids;
  auto kernels = scalableKernels();
  for (const auto& kernel : acrossGpuKernels()) kernels.push_back(kernel);
  for (const auto& kernel : kernels)
    if (std::find(ids.begin(), ids.end(), kernel.first) == ids.end()) ids.push_back(kernel.first);
  return ids;
}

}  // namespace

Language languageOf(const std::vector<std::string>& args) {
  for (size_t k = 0; k < args.size(); ++k) {
    std::string given;
    if (args[k] == "--lang" && k + 1 < args.size()) given = args[k + 1];
    if (args[k].rfind("--lang=", 0) == 0) given = args[k].substr(7);
    for (Language l : kLanguages)
      if (!given.empty() && given == code(l)) return l;
  }
  return languageFromEnvironment();
}

namespace {

// check and profile run on the GPU only: a --backend that says otherwise is refused, not ignored.
void refuseOtherBackend(const std::string& command, const LessonOptions& options) {
  if (options.backendGiven->count() > 0 && options.backend != "gpu")
    throw UsageError(
        Message("usage.gpu-only-command", {{"command", command}, {"backend", options.backend}}));
}

// With `describe`, the app is handed over once built and nothing is parsed.
Command parseOrDescribe(const std::vector<std::string>& args,
                        const std::function<void(const CLI::App&)>& describe) {
  CLI::App app{"Reduction Lab: watch real GPU reduction kernels work, step by step.", "rlab"};
  app.require_subcommand(1);
  app.fallthrough(false);

  std::string listFormat = "text";
  auto* list = app.add_subcommand("list", "lessons, variants and parameters");
  list->add_option("--format", listFormat, "text or json");

  LessonOptions runOptions;
  auto* run = app.add_subcommand("run", "run one lesson and show every step");
  runOptions.addTo(run);
  bool timeline = false;
  run->add_flag("--timeline", timeline,
                "barrier and lastwarp lessons: one row per thread, when each read and wrote, "
                "reads that came before the write they needed");
  bool launches = false;
  run->add_flag("--launches", launches,
                "the launches the host code made: grid x block, and the values the lesson's "
                "driver names (folding: len, reduce, remain)");
  bool memory = false;
  run->add_flag("--memory", memory,
                "global-memory variants, simulator: per step, the 32-byte sectors each warp's "
                "load or store touched and the share of them it used");
  bool noSteps = false;
  run->add_flag("--no-steps", noSteps,
                "record no steps: the kernels run as they are timed, without the trace buffer "
                "(rlab profile runs them so)");

  LessonOptions raceOptions;
  std::string runs = "100";
  auto* race = app.add_subcommand("race", "run a lesson many times; count wrong results");
  raceOptions.addTo(race);
  race->add_option("--runs", runs, "how many runs (schedules on the simulator), 1 to 100000");
  bool witness = false;
  race->add_flag("--witness", witness,
                 "find the smallest stall schedule that makes the run wrong, on the simulator "
                 "(--runs random schedules searched; on a GPU, then forced there --runs times)");

  std::string benchLessons, benchSizes, benchReps = "20", benchType = "int", benchFormat = "text",
                                        benchBackend = "auto", benchPerThread;
  bool benchNoLoadAdd = false;
  auto* bench =
      app.add_subcommand("bench", "time every lesson kernel against CUB and the copy roofline");
  bench->add_option("--lessons", benchLessons,
                    "lessons to time, e.g. shared,fastest (default: all that scale)");
  bench->add_option("--sizes", benchSizes, "sizes, e.g. 1024,1048576 (default 2^10 to 2^28, x4)");
  bench->add_option("--reps", benchReps, "repetitions per measurement, 1 to 1000");
  bench->add_option("--type", benchType, "int or float");
  bench->add_option("--format", benchFormat, "text, csv or json");
  bench->add_option("--backend", benchBackend, "gpu, sim or auto");
  bench->add_option("--per-thread", benchPerThread,
                    "shared coarsened: elements per thread, 1 to 32, a row each, e.g. 1,2,4,8");
  bench->add_flag("--no-load-add", benchNoLoadAdd,
                  "shared coarsened: no add during the load; the tree's first levels add");

  LessonOptions checkOptions;
  std::string tool;
  auto* check = app.add_subcommand("check", "run a lesson once on the GPU under compute-sanitizer");
  checkOptions.addTo(check);
  check->add_option("--tool", tool, "racecheck, memcheck, synccheck or initcheck")->required();

  LessonOptions profileOptions;
  std::string clockControl = "none";
  auto* profile = app.add_subcommand(
      "profile", "run a lesson once on the GPU under Nsight Compute: its counters per kernel");
  profileOptions.addTo(profile);
  profile->add_option("--clock-control", clockControl,
                      "none (default: the clocks as they are) or base (ncu locks them to base)");

  std::string recordOnly, recordSizes, recordReps = "20", recordRuns = "200",
                                       recordFolder = "assets/recordings";
  auto* record = app.add_subcommand(
      "record", "measure this GPU once (bench, profiles, race rates) into a recording");
  record->add_option("--only", recordOnly, "parts to measure: bench, profile, race (default: all)");
  record->add_option("--sizes", recordSizes, "bench sizes (default 2^10 to 2^28, x4)");
  record->add_option("--reps", recordReps, "bench repetitions per measurement, 1 to 1000");
  record->add_option("--runs", recordRuns, "runs of each race setting, 1 to 100000");
  record->add_option("--out", recordFolder,
                     "folder of the card's file (default assets/recordings)");

  std::string autoSeconds, tourLanguage;
  auto* tour = app.add_subcommand(
      "tour",
      "every lesson once, small n, narrated; at a terminal Enter goes on (b: back, q: quit)");
  auto* autoGiven = tour->add_option(
      "--auto", autoSeconds,
      "go on by itself after SECONDS at each stop, 0 to 600 (e.g. 2.5; 0: no pause); without a "
      "terminal the tour never pauses");
  addLanguageOption(tour, tourLanguage);

  std::string chapter, lessonLanguage;
  bool checkChapter = false, noPager = false, answers = false;
  auto* lesson = app.add_subcommand("lesson", "print a chapter of the course: its text and runs");
  lesson->add_option("chapter", chapter,
                     "chapter id (" + chapterList() +
                         "), or a teacher's own chapter: a Markdown file (FILE.md); without one, "
                         "the chapters are listed (with --check, every chapter is checked)");
  addLanguageOption(lesson, lessonLanguage);
  lesson->add_flag("--no-pager", noPager,
                   "print the chapter whole; at a terminal it is otherwise shown through $PAGER "
                   "(less -FRX where PAGER is not set)");
  lesson->add_flag("--answers", answers,
                   "the answers to the predictions, each under its question (folded otherwise, "
                   "so that you predict first)");
  lesson->add_flag("--check", checkChapter,
                   "check the chapter instead of printing it: its format, every try link and "
                   "prediction, and each narration against its run; a problem is FILE:LINE: "
                   "and the reason (exit status 1)");

  // exercise list | progress | show ID | start ID [DIR] | check ID [FILE] | hint ID K |
  // solution ID | run ID FILE
  auto* exercise =
      app.add_subcommand("exercise", "write the kernel yourself: exercises and checks");
  exercise->require_subcommand(1);
  ExerciseOptions exerciseOptions;
  exerciseOptions.addTo(exercise);

  Command c;
  if (describe) {
    describe(app);
    return c;
  }
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    c.helpShown = true;
    c.helpText = app.help();
    // The help of the last command given, its usage line starting "rlab ..."
    std::string path;
    for (const CLI::App* at = &app; !at->get_subcommands().empty();) {
      path += (path.empty() ? "" : " ") + at->get_name();
      at = at->get_subcommands().front();
      c.helpText = at->help(path);
    }
    return c;
  } catch (const CLI::CallForAllHelp&) {
    c.helpShown = true;
    c.helpText = app.help("", CLI::AppFormatMode::All);
    return c;
  } catch (const CLI::ParseError& e) {
    throw UsageError(Message("usage.command-line", {{"error", commandLineError(app, e)}}));
  }

  try {
    if (list->parsed()) {
      c.name = "list";
      c.format = parseFormat(listFormat, false);
    } else if (run->parsed()) {
      c.name = "run";
      c.params = runOptions.params();
      c.language = languageOrLocale(runOptions.language);
      c.format = parseFormat(runOptions.format, false);
      c.timeline = timeline;
      c.launches = launches;
      c.params.memory = memory;
      if (memory && c.params.backend == BackendChoice::Gpu)
        throw UsageError(Message("usage.memory-on-gpu"));
      if (memory) c.params.backend = BackendChoice::Sim;
      if (noSteps && (memory || timeline))
        throw UsageError(
            Message("usage.no-steps", {{"option", memory ? "--memory" : "--timeline"}}));
      c.params.trace = !noSteps;
      if (timeline && !lessonOrThrow(c.params.lesson).timeline)
        throw UsageError(Message("usage.timeline-barrier-only", {{"lesson", c.params.lesson}}));
    } else if (race->parsed()) {
      c.name = "race";
      c.params = raceOptions.params();
      c.language = languageOrLocale(raceOptions.language);
      c.scheduleGiven = raceOptions.scheduleGiven->count() > 0;
      c.format = parseFormat(raceOptions.format, false);
      c.runs = int(parseInteger("--runs", runs, 1, 100000));
      c.witness = witness;
    } else if (check->parsed()) {
      c.name = "check";
      c.tool = parseSanitizerTool(tool);
      refuseOtherBackend("check", checkOptions);
      checkOptions.backend = "gpu";  // the sanitizer checks GPU code
      c.params = checkOptions.params();
      c.language = languageOrLocale(checkOptions.language);
      c.format = parseFormat(checkOptions.format, false);
    } else if (profile->parsed()) {
      c.name = "profile";
      refuseOtherBackend("profile", profileOptions);
      profileOptions.backend = "gpu";  // ncu counts GPU work
      c.params = profileOptions.params();
      c.format = parseFormat(profileOptions.format, false);
      if (clockControl != "none" && clockControl != "base")
        throw UsageError(
            Message("usage.not-allowed", {{"option", "--clock-control"},
                                          {"given", clockControl},
                                          {"allowed", Message("usage.clock-control")}}));
      c.clockControl = clockControl;
      if (lessonOrThrow(c.params.lesson).defaultGpus > 0)
        throw UsageError(Message("usage.profile-one-gpu", {{"lesson", c.params.lesson}}));
    } else if (record->parsed()) {
      c.name = "record";
      for (const auto& item : splitList(recordOnly)) {
        bool known = false;
        for (RecordPart part : {RecordPart::Bench, RecordPart::Profile, RecordPart::Race})
          if (item == name(part)) {
            known = true;
            if (std::find(c.recordParts.begin(), c.recordParts.end(), part) == c.recordParts.end())
              c.recordParts.push_back(part);
          }
        if (!known) throw UsageError(Message("usage.record-only", {{"item", item}}));
      }
      for (const auto& item : splitList(recordSizes))
        c.benchSizes.push_back(parseInteger("--sizes", item, 1, kMaxN, "usage.whole-numbers"));
      c.reps = int(parseInteger("--reps", recordReps, 1, 1000));
      c.runs = int(parseInteger("--runs", recordRuns, 1, 100000));
      if (recordFolder.empty()) throw UsageError(Message("usage.record-out-empty"));
      c.recordFolder = recordFolder;
    } else if (bench->parsed()) {
      c.name = "bench";
      c.params.type = parseType(benchType);
      c.params.backend = parseBackend(benchBackend);
      c.reps = int(parseInteger("--reps", benchReps, 1, 1000));
      c.format = parseFormat(benchFormat, true);
      const std::vector<std::string> benchable = benchableLessons();
      for (const auto& item : splitList(benchLessons)) {
        if (std::find(benchable.begin(), benchable.end(), item) == benchable.end()) {
          std::string choices;
          for (const auto& id : benchable) choices += (choices.empty() ? "" : ", ") + id;
          throw UsageError(Message("usage.bench-lesson", {{"lesson", item}, {"lessons", choices}}));
        }
        c.benchLessons.push_back(item);
      }
      for (const auto& item : splitList(benchSizes))
        c.benchSizes.push_back(parseInteger("--sizes", item, 1, kMaxN, "usage.whole-numbers"));
      for (const auto& item : splitList(benchPerThread)) {
        // With bench's 256 threads a block, every K fits in shared memory without the load add.
        c.benchPerThread.push_back(
            int(parseInteger("--per-thread", item, 1, kMaxPerThread, "usage.whole-numbers")));
      }
      c.benchLoadAdd = !benchNoLoadAdd;
      if (!c.benchLessons.empty() &&
          std::find(c.benchLessons.begin(), c.benchLessons.end(), "shared") ==
              c.benchLessons.end() &&
          (!c.benchPerThread.empty() || benchNoLoadAdd))
        throw UsageError(Message("usage.bench-coarsened",
                                 {{"option", benchNoLoadAdd ? "--no-load-add" : "--per-thread"}}));
    } else if (lesson->parsed()) {
      c.name = "lesson";
      const auto& ids = chapterIds();
      const bool file = chapter.find('/') != std::string::npos ||
                        (chapter.size() > 3 && chapter.compare(chapter.size() - 3, 3, ".md") == 0);
      if (!chapter.empty() && !file && std::find(ids.begin(), ids.end(), chapter) == ids.end())
        throw UsageError(
            Message("usage.bad-chapter", {{"chapter", chapter}, {"chapters", chapterList()}}));
      c.chapter = chapter;
      c.chapterIsFile = file;
      c.checkChapter = checkChapter;
      c.pager = !noPager;
      c.answers = answers;
      c.language = languageOrLocale(lessonLanguage);
    } else if (exercise->parsed()) {
      exerciseOptions.fill(c);
    } else {
      c.name = "tour";
      c.language = languageOrLocale(tourLanguage);
      if (autoGiven->count() > 0) c.autoSeconds = parseSeconds("--auto", autoSeconds, 600);
    }
  } catch (const ParamError& e) {
    throw UsageError(e.message());
  }
  return c;
}

}  // namespace

Command parseCommandLine(const std::vector<std::string>& args) {
  return parseOrDescribe(args, nullptr);
}

void describeCommandLine(const std::function<void(const CLI::App&)>& describe) {
  parseOrDescribe({}, describe);
}

}  // namespace rlab::cli
