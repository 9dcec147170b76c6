// Every sentence on screen in the chosen language: every lesson's every step (each variant, a
// few n, the switches that add notes), its notes and result, races, witnesses, timelines and
// refusals, rendered in Japanese and Chinese as rlab prints them, hold no English sentence. Two
// checks: every message id has a sentence in the language (nothing falls back to English), and
// the text shows no run of English words that is not a name or code.
#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <sstream>

#include "app/cli/cli.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/races/race.hpp"
#include "lessons/engine/gpu_tools/recording.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/run/timeline.hpp"
#include "lessons/engine/races/witness.hpp"

using namespace rlab;

namespace {

// Words that stay English in every language: the names the texts, try links and messages use
// (lessons, variants, operators, types, data, parameters, schedules), rlab's own name and the
// tools it runs (Nsight Compute).
const std::set<std::string>& names() {
  static const std::set<std::string> all = [] {
    std::set<std::string> words = {
        "sum",       "max",    "min",    "product", "subtract",  "int",      "float",
        "iota",      "ones",   "random", "default", "lockstep",  "stall",    "perturb",
        "printf",    "block",  "data",   "values",  "schedule",  "type",     "op",
        "gpus",      "stride", "len",    "rlab",    "racecheck", "memcheck", "synccheck",
        "initcheck", "sim",    "gpu",    "auto",    "on",        "off",      "per-thread",
        "reduce",    "remain", "grid",   "launch",  "Nsight",    "Compute"};
    for (const LessonInfo& l : lessons()) {
      words.insert(l.id);
      for (const VariantInfo& v : l.variants) words.insert(v.id);
    }
    return words;
  }();
  return all;
}

// A word: letters only, two or more, not all capitals (CPU, SIMT, NCCL) and no capital inside
// (ncclAllReduce: code).
bool word(const std::string& token) {
  static const std::regex letters("[A-Za-z][a-z]+");
  return std::regex_match(token, letters);
}

// The runs of words in a row with two or more that are not names ("The barrier is off": The,
// is), each as its line shows it. A command line ("rlab run barrier --n 8 ...") is code to its
// end.
std::vector<std::string> englishIn(const std::string& text) {
  std::vector<std::string> found;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (const size_t command = line.find("rlab "); command != std::string::npos)
      line = line.substr(0, command);
    // Tokens are split at spaces; punctuation (、。：, brackets, =, ^) ends a run.
    std::istringstream tokens(line);
    std::vector<std::string> run;
    int prose = 0;
    auto close = [&] {
      if (prose >= 2) {
        std::string words;
        for (const auto& w : run) words += (words.empty() ? "" : " ") + w;
        found.push_back(words + "   in: " + line);
      }
      run.clear();
      prose = 0;
    };
    for (std::string token; tokens >> token;) {
      if (!word(token)) {
        close();
        continue;
      }
      run.push_back(token);
      prose += names().count(token) ? 0 : 1;
    }
    close();
  }
  return found;
}

// The ids of `m` and of the sentences in its arguments.
void idsIn(const Message& m, std::set<std::string>& ids) {
  if (m.empty()) return;
  ids.insert(m.id);
  for (const MessageArg& a : m.args)
    for (const Message& s : a.sentences) idsIn(s, ids);
}

// Every message id of `m` that `language` has no sentence for.
void missingIds(const Message& m, Language language, std::set<std::string>& missing) {
  std::set<std::string> ids;
  idsIn(m, ids);
  for (const std::string& id : ids)
    if (!messageCatalogue(language).entries.count(id)) missing.insert(id);
}

// What a run says besides its steps' values: for the structural check.
std::vector<Message> messagesOf(const Trace& t) {
  std::vector<Message> all = t.notes;
  all.push_back(t.device);
  all.push_back(t.fallback);
  all.push_back(resultLine(t));
  all.push_back(verdictWord(t));
  all.push_back(howFarOff(t));
  for (const Message& line : timingLines(t)) all.push_back(line);
  for (const StepSnapshot& s : t.steps) {
    all.push_back(s.label);
    for (const Message& stale : staleReads(s, t.params.type)) all.push_back(stale);
  }
  for (const Message& column : launchTable(t).columns) all.push_back(column);
  for (const KernelAnswer& a : t.otherKernels) all.push_back(a.notRun);
  const Timeline tl = buildTimeline(t);
  all.insert(all.end(), {tl.why, tl.clockText});
  all.insert(all.end(), tl.columns.begin(), tl.columns.end());
  for (const TimelineEarlyRead& e : tl.earlyReads) all.insert(all.end(), {e.text, e.sentence});
  return all;
}

// The checks, in Japanese and Chinese, on what rlab prints for the run and on its messages.
void checkRun(const Params& p) {
  const Trace t = runLesson(p);
  for (Language language : {Language::Ja, Language::Zh}) {
    std::ostringstream out;
    cli::printTraceText(t, out, false, language, 100);
    cli::printLaunchesText(t, out, language, 100);
    cli::printTimelineText(t, out, false, language, 100);
    std::set<std::string> missing;
    for (const Message& m : messagesOf(t)) missingIds(m, language, missing);
    CAPTURE(std::string(code(language)));
    CAPTURE(out.str());
    for (const std::string& id : missing) FAIL_CHECK("no sentence for " << id);
    for (const std::string& words : englishIn(out.str())) FAIL_CHECK("English: " << words);
  }
}

Params run(const std::string& lesson, const std::string& variant, int64_t n) {
  Params p;
  p.lesson = lesson;
  p.variant = variant;
  p.n = n;
  p.backend = BackendChoice::Sim;
  return p;
}

}  // namespace

TEST_CASE("sentences: the detector finds English prose and leaves names and code alone") {
  CHECK(englishIn("note: The barrier is off").size() == 1);
  CHECK(englishIn("結果 21   期待値 36   誤り（15 足りない）").empty());
  CHECK(englishIn("1 段目：tid % 2 == 0 のスレッドが a[tid] += a[tid + 1]").empty());
  CHECK(englishIn("barrier (global)  n=8  block=8  sum  int  data=iota").empty());
  CHECK(englishIn("CPU の SIMT シミュレータ、スケジュール stall:4:2:1").empty());
  CHECK(englishIn("再現：rlab run barrier --n 8 --no-barrier").empty());
  CHECK(englishIn("simulated in 0.01 s").size() == 1);
}

TEST_CASE("sentences: every lesson's every step, note and result in ja and zh") {
  for (const LessonInfo& lesson : lessons())
    for (const VariantInfo& variant : lesson.variants)
      for (int64_t n : {int64_t(1), int64_t(5), int64_t(8), int64_t(33)}) {
        Params p = run(lesson.id, variant.id, n);
        if (lesson.defaultGpus > 0) p.gpus = 4;
        CAPTURE(lesson.id + " " + variant.id + " n=" + std::to_string(n));
        try {
          resolve(p);
        } catch (const ParamError&) {
          continue;  // below the variant's smallest block
        }
        checkRun(p);
        p.type = ElementType::Float;
        checkRun(p);
      }
}

TEST_CASE("sentences: the runs that add notes, in ja and zh") {
  Params barrier = run("barrier", "global", 8);
  barrier.barrier = false;
  barrier.schedule = "stall:4:2:1";
  checkRun(barrier);  // a stale read, the barrier's note, the timeline's early read
  barrier.delayThread = 4;
  barrier.delayLevel = 2;
  barrier.schedule = "lockstep";
  checkRun(barrier);  // the pause's note
  Params butterfly = run("butterfly", "shared", 8);
  butterfly.barrier = false;
  butterfly.schedule = "stall:0:2:2";
  checkRun(butterfly);  // a read after the overwrite, threads off the total
  Params folding = run("folding", "default", 100);
  folding.memory = true;
  checkRun(folding);  // the memory view
  Params shared = run("shared", "shared", 100);
  shared.memory = true;
  checkRun(shared);  // memory counted only in global memory
  Params subtract = run("folding", "default", 6);
  subtract.op = Op::Subtract;
  checkRun(subtract);  // no single answer, every kernel's
  subtract.n = 100000;
  checkRun(subtract);  // compared up to a limit; steps only up to one
  Params overflow = run("atomic", "default", 8);
  overflow.op = Op::Product;
  overflow.values = {100000, 100000, 100000, 1, 1, 1, 1, 1};
  checkRun(overflow);  // an int result past 32 bits
  overflow.type = ElementType::Float;
  overflow.values = {1e30, 1e30, 1, 1, 1, 1, 1, 1};
  checkRun(overflow);  // a float result past infinity
  Params coarse = run("shared", "coarsened", 40);
  coarse.perThread = 3;
  coarse.loadAdd = false;
  checkRun(coarse);  // folds onto
  Params ring = run("allreduce", "nccl", 8);
  ring.gpus = 4;
  checkRun(ring);  // the NCCL model
}

TEST_CASE("sentences: races, witnesses and refusals in ja and zh") {
  Params p = run("barrier", "global", 8);
  p.barrier = false;
  std::vector<RaceResult> races = {runRace(p, 4, 1), runRace(p, 3, 0, {}, RaceSchedules::AsGiven),
                                   runRace(p, 3, 0, {}, RaceSchedules::VaryWarps)};
  const Witness found = findWitness(p);
  const Witness none = findWitness(run("barrier", "global", 8));
  int calls = 0;
  const Witness cancelled = findWitness(p, {}, [&](int, float) { return ++calls < 3; });
  REQUIRE(found.found);
  REQUIRE_FALSE(none.found);
  REQUIRE(cancelled.cancelled);
  for (Language language : {Language::Ja, Language::Zh}) {
    CAPTURE(std::string(code(language)));
    std::ostringstream out;
    for (const RaceResult& r : races) cli::printRaceText(r, out, false, language, 100);
    for (const Witness* w : {&found, &none, &cancelled})
      cli::printWitnessText(*w, out, false, language, 100);
    // Refusals: rlab's and the core's, as rlab says them.
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"run", "folding", "--n", "0"},
                                               {"run", "nothere"},
                                               {"race", "folding", "--op", "subtract"},
                                               {"run", "barrier", "--variant", "nothere"},
                                               {"run", "folding", "--block", "3"},
                                               {"run", "folding", "--schedule", "sometimes"},
                                               {"run", "folding", "--backend", "gpu"},
                                               {"lesson", "nothere"}}) {
      std::vector<std::string> withLanguage = args;
      withLanguage.insert(withLanguage.end(), {"--lang", code(language)});
      std::ostringstream ignored, err;
      CHECK(cli::main(withLanguage, ignored, err, false) != 0);
      out << err.str();
    }
    CAPTURE(out.str());
    std::set<std::string> missing;
    for (const RaceResult& r : races) {
      missingIds(r.device, language, missing);
      missingIds(r.schedules, language, missing);
    }
    for (const Witness* w : {&found, &none, &cancelled}) missingIds(w->why, language, missing);
    for (const std::string& id : missing) FAIL_CHECK("no sentence for " << id);
    for (const std::string& words : englishIn(out.str())) FAIL_CHECK("English: " << words);
  }
}

TEST_CASE("sentences: a learner's kernel checked, its failures and its run, in ja and zh") {
  const std::string fixtures = std::string(RLAB_SOURCE_DIR) + "/tests/fixtures/exercises/";
  struct Checked {
    const char* exercise;
    const char* file;
    bool oneRun;
    const char* stoppedBy = nullptr;  // the simulator's sentence among the failures
  };
  // A wrong result, a crash, a broken rule, a rule of atomics, a hang, one run with steps, and
  // launches the simulator stops: threads at two barriers, a block stuck at a barrier and a warp
  // operation, a failed assertion.
  const Checked checks[] = {
      {"fold-any-length", "drops_tail.cu", false},
      {"one-queue", "null_pointer.cu", false},
      {"tree-in-shared", "no_shared.cu", false},
      {"one-atomic-per-block", "too_many_atomics.cu", false},
      {"fold-any-length", "never_ends.cu", false},
      {"tree-in-shared", "no_shared.cu", true},
      {"put-the-barrier-back", "two_barriers.cu", false, "sim.barrier-mismatch"},
      {"put-the-barrier-back", "stuck_barrier.cu", false, "sim.stuck"},
      {"put-the-barrier-back", "asserts_even.cu", false, "sim.assertion"}};
  for (const Checked& c : checks) {
    CAPTURE(c.file);
    const std::string id = c.exercise;  // g++ 14: no temporary string in the call
    const Exercise& e = exerciseOrThrow(id);
    ExerciseRequest request;
    request.file = fixtures + c.file;
    request.caseSeconds = 1;
    request.oneRun = c.oneRun;
    request.options.n = 8;
    const ExerciseReport report = checkExercise(e, request);
    REQUIRE(report.verdict != ExerciseVerdict::NotRun);
    if (c.stoppedBy) {
      std::set<std::string> ids;
      for (const Message& f : report.failures) idsIn(f, ids);
      CHECK(ids.count(c.stoppedBy));
    }
    for (Language language : {Language::Ja, Language::Zh}) {
      CAPTURE(std::string(code(language)));
      std::ostringstream out;
      if (report.trace) cli::printTraceText(*report.trace, out, false, language, 100);
      cli::printExerciseReport(e, report, out, false, language, 100);
      CAPTURE(out.str());
      std::set<std::string> missing;
      missingIds(report.summary(), language, missing);
      for (const Message& f : report.failures) missingIds(withReplay(f), language, missing);
      for (const Message& n : report.notes) missingIds(n, language, missing);
      if (report.trace)
        for (const Message& m : messagesOf(*report.trace)) missingIds(m, language, missing);
      for (const std::string& id : missing) FAIL_CHECK("no sentence for " << id);
      for (const std::string& words : englishIn(out.str())) FAIL_CHECK("English: " << words);
    }
  }
}

TEST_CASE("sentences: a profile's prediction note and failures, recorded or not, in ja and zh") {
  // What the Profile tab and rlab profile say under the counters: for every run a recording
  // profiles, from the simulator now and from every recording built in.
  std::vector<Message> notes;
  for (Params p : recordedProfileRuns()) {
    if (p.n > 4096) continue;  // the simulator's answer is only that the steps stop at n
    Message note;
    predictOnSimulator(p, note);
    notes.push_back(note);
  }
  notes.push_back(Message("predict.banks-from-steps", {{"n", 65536}}));
  // And why a profile could not be made.
  notes.insert(notes.end(), {counterPermissionSentence(), Message("profile.cancelled"),
                             Message("profile.no-kernel", {{"code", 1}}),
                             Message("profile.metrics-missing", {{"metrics", "sm__x.sum"}})});
  for (const Recording& r : recordings())
    for (Params p : recordedProfileRuns()) {
      ProfileReport found;
      bool exact = false;
      if (recordedProfile(r, p, found, exact)) notes.push_back(found.predictionNote);
    }
  REQUIRE(notes.size() > 10);
  for (Language language : {Language::Ja, Language::Zh})
    for (const Message& note : notes) {
      const std::string said = render(note, language);
      CAPTURE(said);
      CHECK_FALSE(note.empty());
      for (const std::string& words : englishIn(said)) FAIL_CHECK("English: " << words);
    }
}
