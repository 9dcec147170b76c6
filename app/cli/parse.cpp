// The command line, read into a Command. CLI11 splits it (the options: command_options.cpp);
// every value is checked by our own parsers (and the core's resolve), so every refusal is one
// sentence naming the option.
#include <CLI/CLI.hpp>
#include <algorithm>

#include "app/cli/cli.hpp"
#include "app/cli/command_options.hpp"
#include "app/cli/parse_values.hpp"
#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/exercise/grade.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::cli {

namespace {

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

// bench --lessons: the lessons whose kernels scale, in the words of its refusal.
std::vector<std::string> benchableLessons() {
  std::vector<std::string> ids;
  auto kernels = scalableKernels();
  for (const auto& kernel : acrossGpuKernels()) kernels.push_back(kernel);
  for (const auto& kernel : kernels)
    if (std::find(ids.begin(), ids.end(), kernel.first) == ids.end()) ids.push_back(kernel.first);
  return ids;
}

// check and profile run on the GPU only: a --backend that says otherwise is refused, not ignored.
void refuseOtherBackend(const std::string& command, const LessonOptions& options) {
  if (options.backendGiven->count() > 0 && options.backend != "gpu")
    throw UsageError(
        Message("usage.gpu-only-command", {{"command", command}, {"backend", options.backend}}));
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

Params LessonOptions::params() const {
  const Params p = asked();
  resolve(p);  // every other check, with the lesson's own limits
  return p;
}

Params LessonOptions::asked() const {
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
  return p;
}

void ListCommandOptions::fill(Command& c) const {
  c.name = "list";
  c.format = parseFormat(format, false);
}

void RunCommandOptions::fill(Command& c) const {
  c.name = "run";
  // The run is resolved first, so that a bad parameter is said before a bad option, as in every
  // other subcommand; the options below change only what resolve() does not read.
  const Params asked = common.asked();
  c.run = resolve(asked);
  c.params = asked;
  c.language = languageOrLocale(common.language);
  c.format = parseFormat(common.format, false);
  c.timeline = timeline;
  c.launches = launches;
  c.params.memory = memory;
  if (memory && c.params.backend == BackendChoice::Gpu)
    throw UsageError(Message("usage.memory-on-gpu"));
  if (memory) c.params.backend = BackendChoice::Sim;
  if (noSteps && (memory || timeline))
    throw UsageError(Message("usage.no-steps", {{"option", memory ? "--memory" : "--timeline"}}));
  c.params.trace = !noSteps;
  if (timeline && !lessonOrThrow(c.params.lesson).timeline)
    throw UsageError(Message("usage.timeline-barrier-only", {{"lesson", c.params.lesson}}));
  c.run.params.memory = c.params.memory;  // the one resolve of rlab run: runCommand runs this
  c.run.params.backend = c.params.backend;
  c.run.params.trace = c.params.trace;
}

void RaceCommandOptions::fill(Command& c) const {
  c.name = "race";
  c.params = common.params();
  c.language = languageOrLocale(common.language);
  c.scheduleGiven = common.scheduleGiven->count() > 0;
  c.format = parseFormat(common.format, false);
  c.runs = int(parseInteger("--runs", runs, 1, 100000));
  c.witness = witness;
}

void CheckCommandOptions::fill(Command& c) {
  c.name = "check";
  c.tool = parseSanitizerTool(tool);
  refuseOtherBackend("check", common);
  common.backend = "gpu";  // the sanitizer checks GPU code
  c.params = common.params();
  c.language = languageOrLocale(common.language);
  c.format = parseFormat(common.format, false);
}

void ProfileCommandOptions::fill(Command& c) {
  c.name = "profile";
  refuseOtherBackend("profile", common);
  common.backend = "gpu";  // ncu counts GPU work
  c.params = common.params();
  c.format = parseFormat(common.format, false);
  if (clockControl != "none" && clockControl != "base")
    throw UsageError(Message("usage.not-allowed", {{"option", "--clock-control"},
                                                   {"given", clockControl},
                                                   {"allowed", Message("usage.clock-control")}}));
  c.clockControl = clockControl;
  if (lessonOrThrow(c.params.lesson).defaultGpus > 0)
    throw UsageError(Message("usage.profile-one-gpu", {{"lesson", c.params.lesson}}));
}

void RecordCommandOptions::fill(Command& c) const {
  c.name = "record";
  for (const auto& item : splitList(only)) {
    bool known = false;
    for (RecordPart part : {RecordPart::Bench, RecordPart::Profile, RecordPart::Race})
      if (item == name(part)) {
        known = true;
        if (std::find(c.recordParts.begin(), c.recordParts.end(), part) == c.recordParts.end())
          c.recordParts.push_back(part);
      }
    if (!known) throw UsageError(Message("usage.record-only", {{"item", item}}));
  }
  for (const auto& item : splitList(sizes))
    c.benchSizes.push_back(parseInteger("--sizes", item, 1, kMaxN, "usage.whole-numbers"));
  c.reps = int(parseInteger("--reps", reps, 1, 1000));
  c.runs = int(parseInteger("--runs", runs, 1, 100000));
  if (folder.empty()) throw UsageError(Message("usage.record-out-empty"));
  c.recordFolder = folder;
}

void BenchCommandOptions::fill(Command& c) const {
  c.name = "bench";
  c.params.type = parseType(type);
  c.params.backend = parseBackend(backend);
  c.reps = int(parseInteger("--reps", reps, 1, 1000));
  c.format = parseFormat(format, true);
  const std::vector<std::string> benchable = benchableLessons();
  for (const auto& item : splitList(lessons)) {
    if (std::find(benchable.begin(), benchable.end(), item) == benchable.end()) {
      std::string choices;
      for (const auto& id : benchable) choices += (choices.empty() ? "" : ", ") + id;
      throw UsageError(Message("usage.bench-lesson", {{"lesson", item}, {"lessons", choices}}));
    }
    c.benchLessons.push_back(item);
  }
  for (const auto& item : splitList(sizes))
    c.benchSizes.push_back(parseInteger("--sizes", item, 1, kMaxN, "usage.whole-numbers"));
  for (const auto& item : splitList(perThread)) {
    // With bench's 256 threads a block, every K fits in shared memory without the load add.
    c.benchPerThread.push_back(
        int(parseInteger("--per-thread", item, 1, kMaxPerThread, "usage.whole-numbers")));
  }
  c.benchLoadAdd = !noLoadAdd;
  if (!c.benchLessons.empty() &&
      std::none_of(c.benchLessons.begin(), c.benchLessons.end(), hasCoarsenedVariant) &&
      (!c.benchPerThread.empty() || noLoadAdd))
    throw UsageError(Message("usage.bench-coarsened",
                             {{"option", noLoadAdd ? "--no-load-add" : "--per-thread"}}));
}

void LessonCommandOptions::fill(Command& c) const {
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
  c.language = languageOrLocale(language);
}

void TourCommandOptions::fill(Command& c) const {
  c.name = "tour";
  c.language = languageOrLocale(language);
  if (autoGiven->count() > 0) c.autoSeconds = parseSeconds("--auto", autoSeconds, 600);
}

void ModelCommandOptions::fill(Command& c) const {
  c.name = "model";
  c.format = parseFormat(format, false);
  c.language = languageOrLocale(language);
  const int p = int(parseInteger("--gpus", gpus, 2, 4096));
  try {
    c.model = allReducePreset(preset, p);
  } catch (const std::invalid_argument&) {
    throw UsageError(Message("usage.model-preset", {{"preset", preset}, {"presets", "hgx-h100"}}));
  }
  if (!perNode.empty()) c.model.perNode = int(parseInteger("--per-node", perNode, 1, p));
  if (p % std::max(1, std::min(c.model.perNode, p)) != 0)
    throw UsageError(Message("usage.model-per-node", {{"gpus", p}, {"perNode", c.model.perNode}}));
  // Figures of the user's own, in the units people quote them in.
  auto figure = [](const std::string& option, const std::string& text, double high) {
    return parseDecimal(option, text, 1e-6, high,
                        Message("usage.model-figure", {{"high", (long long)high}}));
  };
  if (!alphaInside.empty())
    c.model.inside.alpha = figure("--alpha-inside", alphaInside, 1e6) * 1e-6;
  if (!alphaBetween.empty())
    c.model.between.alpha = figure("--alpha-between", alphaBetween, 1e6) * 1e-6;
  if (!bandwidthInside.empty())
    c.model.inside.beta = 1 / (figure("--bandwidth-inside", bandwidthInside, 1e5) * 1e9);
  if (!bandwidthBetween.empty())
    c.model.between.beta = 1 / (figure("--bandwidth-between", bandwidthBetween, 1e5) * 1e9);
  if (!combine.empty()) c.model.gamma = 1 / (figure("--combine", combine, 1e5) * 1e9);
  if (!(alphaInside + alphaBetween + bandwidthInside + bandwidthBetween + combine).empty())
    c.model.name = preset + ", with your figures";
}

void ExerciseCommandOptions::fill(Command& c) const {
  c.name = "exercise";
  for (CLI::App* action : {list, progress, show, start, check, hint, solution, run, grade})
    if (action->parsed()) c.exerciseAction = action->get_name();
  if (c.exerciseAction == "grade" && (format == "gradescope" || format == "prairielearn"))
    c.gradePlatform = format;
  else if (c.exerciseAction == "grade" && format != "text" && format != "json")
    throw UsageError(
        Message("usage.bad-format",
                {{"format", format}, {"formats", "text, json, gradescope, prairielearn"}}));
  c.format = c.gradePlatform.empty() ? parseFormat(format, false) : Format::Json;
  if (!gradeTest.empty()) {
    std::string keys;
    bool known = false;
    for (GradeTestId t : kGradeTests) {
      keys += (keys.empty() ? "" : ", ") + std::string(gradeTestKey(t));
      known |= gradeTest == gradeTestKey(t);
    }
    if (!known)
      throw UsageError(Message("usage.grade-test", {{"test", gradeTest}, {"tests", keys}}));
    c.gradeTest = gradeTest;
  }
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
  if (leaderboard && c.params.backend == BackendChoice::Sim)
    throw UsageError(Message("usage.leaderboard-needs-gpu"));
  c.gradeLeaderboard = leaderboard;
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
  if (timeline && c.params.n > kExerciseStepLimit)
    throw UsageError(
        Message("usage.timeline-n", {{"n", c.params.n}, {"limit", kExerciseStepLimit}}));
  c.timeline = timeline;
}

namespace {

// Every subcommand's options, added in the order rlab --help lists the subcommands.
struct CommandLine {
  ListCommandOptions list;
  RunCommandOptions run;
  RaceCommandOptions race;
  BenchCommandOptions bench;
  CheckCommandOptions check;
  ProfileCommandOptions profile;
  RecordCommandOptions record;
  TourCommandOptions tour;
  LessonCommandOptions lesson;
  ExerciseCommandOptions exercise;
  ModelCommandOptions model;
  QuizCommandOptions quiz;
  ExportCommandOptions exportRun;

  void addTo(CLI::App& app) {
    list.addTo(app);
    run.addTo(app);
    race.addTo(app);
    bench.addTo(app);
    check.addTo(app);
    profile.addTo(app);
    record.addTo(app);
    tour.addTo(app);
    lesson.addTo(app);
    exercise.addTo(app);
    model.addTo(app);
    quiz.addTo(app);
    exportRun.addTo(app);
  }

  // The subcommand the command line gave, read into `c`.
  void fill(Command& c) {
    if (list.command->parsed())
      list.fill(c);
    else if (run.command->parsed())
      run.fill(c);
    else if (race.command->parsed())
      race.fill(c);
    else if (check.command->parsed())
      check.fill(c);
    else if (profile.command->parsed())
      profile.fill(c);
    else if (record.command->parsed())
      record.fill(c);
    else if (bench.command->parsed())
      bench.fill(c);
    else if (lesson.command->parsed())
      lesson.fill(c);
    else if (exercise.command->parsed())
      exercise.fill(c);
    else if (model.command->parsed())
      model.fill(c);
    else if (quiz.command->parsed())
      quiz.fill(c);
    else if (exportRun.command->parsed())
      exportRun.fill(c);
    else
      tour.fill(c);
  }
};

// Parses `args` into the app's options; false where they asked for help (--help, --help-all),
// which is then in c.helpText.
bool parseArguments(CLI::App& app, const std::vector<std::string>& args, Command& c) {
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
    return false;
  } catch (const CLI::CallForAllHelp&) {
    c.helpShown = true;
    c.helpText = app.help("", CLI::AppFormatMode::All);
    return false;
  } catch (const CLI::ParseError& e) {
    throw UsageError(Message("usage.command-line", {{"error", commandLineError(app, e)}}));
  }
  return true;
}

// With `describe`, the app is handed over once built and nothing is parsed.
Command parseOrDescribe(const std::vector<std::string>& args,
                        const std::function<void(const CLI::App&)>& describe) {
  CLI::App app{"Reduction Lab: watch real GPU reduction kernels work, step by step.", "rlab"};
  app.require_subcommand(1);
  app.fallthrough(false);
  CommandLine options;
  options.addTo(app);

  Command c;
  if (describe) {
    describe(app);
    return c;
  }
  if (!parseArguments(app, args, c)) return c;
  try {
    options.fill(c);
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
