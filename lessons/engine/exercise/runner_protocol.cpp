// The exercise runner seen from the check: where the program is, the options of one run, and its
// report lines read into events.

#include "lessons/engine/exercise/runner_protocol.hpp"

#include <cstdio>
#include <cstdlib>

#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/system/installation.hpp"
#include "lessons/engine/system/process.hpp"

namespace rlab {

std::string findExerciseRunner() {
  if (const char* chosen = std::getenv("RLAB_EXERCISE_RUNNER"); chosen && *chosen) return chosen;
  if (std::string installed = helperProgram("rlab-exercise-runner"); !installed.empty())
    return installed;
  const std::string self = runningExecutable();
  const std::string beside = folderOf(self) + "/rlab-exercise-runner";
  return !self.empty() && isExecutableFile(beside) ? beside : "";
}

namespace {

// The fields of `text` between `separator`s, empty ones kept: at least one.
std::vector<std::string> fieldsOf(const std::string& text, char separator) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (;;) {
    const size_t end = text.find(separator, start);
    fields.push_back(text.substr(start, end - start));
    if (end == std::string::npos) return fields;
    start = end + 1;
  }
}

// An @access line's fields (the runner's reportAccess).
MemoryAccess accessOf(const std::vector<std::string>& f) {
  MemoryAccess a;
  a.tick = std::atoll(f[1].c_str());
  a.launch = std::atoi(f[2].c_str());
  a.block = unsigned(std::strtoul(f[3].c_str(), nullptr, 10));
  a.thread = unsigned(std::strtoul(f[4].c_str(), nullptr, 10));
  a.phase = std::atoi(f[5].c_str());
  for (MemoryAccess::Kind kind : {MemoryAccess::Kind::Write, MemoryAccess::Kind::Atomic})
    if (f[6] == name(kind)) a.kind = kind;
  a.array = f[7];
  a.shared = f[8] == "1";
  a.element = std::atoll(f[9].c_str());
  a.valueKnown = f[10] != "-";
  if (a.valueKnown) a.value = std::atoll(f[10].c_str());
  if (f[11] != "-") a.line = f[11];
  return a;
}

}  // namespace

std::vector<std::string> splitReportLine(const std::string& line) {
  return fieldsOf(line, '\t');
}

bool readDiagnostic(const std::vector<std::string>& fields, size_t first, CompileDiagnostic& out) {
  if (fields.size() < first + 4) return false;
  out.line = std::atoi(fields[first].c_str());
  out.column = std::atoi(fields[first + 1].c_str());
  out.severity = fields[first + 2];
  out.message = fields[first + 3];
  return true;
}

void appendOneRun(std::vector<std::string>& argv, const Params& p) {
  argv.insert(argv.end(), {"--one", "--n", std::to_string(p.n), "--block", std::to_string(p.block),
                           "--schedule", p.schedule});
  if (p.values.empty()) {
    argv.insert(argv.end(), {"--data", p.data});
    return;
  }
  std::string list;
  char text[40];
  for (double v : p.values) {
    std::snprintf(text, sizeof text, "%.17g", v);
    list += (list.empty() ? "" : ",") + std::string(text);
  }
  argv.insert(argv.end(), {"--values", list});
}

namespace {

// @leaderboard-round, @leaderboard and @leaderboard-none (leaderboard.hpp in the runner).
void readLeaderboardEvent(const std::vector<std::string>& f, LeaderboardResult& board) {
  const std::string& tag = f[0];
  if (tag == "@leaderboard-start") board.ran = true;
  if (tag == "@leaderboard-round" && f.size() > 4) {
    board.ran = true;
    ++board.rounds;
    if (f[2] == "1") ++board.roundsRight;
    if (f[2] != "1") board.sentence = decodeMessage(f[4]);
  }
  if (tag == "@leaderboard" && f.size() > 4) {
    board.ran = board.right = true;
    board.kernelMs = std::atof(f[1].c_str());
    board.fastestMs = std::atof(f[2].c_str());
    board.cubMs = std::atof(f[3].c_str());
    board.sentence = decodeMessage(f[4]);
  }
  if (tag == "@leaderboard-none" && f.size() > 1) {
    board.ran = true;
    board.sentence = decodeMessage(f[1]);
  }
}

}  // namespace

void readEvent(const std::string& line, RunnerEvents& ev) {
  const std::vector<std::string> f = splitReportLine(line);
  const std::string& tag = f[0];
  if (tag == "@cases" && f.size() > 1) ev.total = std::atoi(f[1].c_str());
  if (tag == "@case" && f.size() > 1) ev.current = std::atoi(f[1].c_str());
  if (tag == "@pass") ++ev.run;
  if (tag == "@fail" && f.size() > 2) {
    ++ev.run;
    ev.failures.emplace_back(std::atoi(f[1].c_str()), decodeMessage(f[2]));
  }
  if (tag == "@rule" && f.size() > 1) ev.rule = decodeMessage(f[1]);
  if (tag == "@error" && f.size() > 1) ev.error = decodeMessage(f[1]);
  if ((tag == "@crash" && f.size() >= 14) || (tag == "@hang" && f.size() >= 7)) ev.fault = f;
  if (tag == "@outcome" && f.size() > 4) {
    ++ev.run;
    ev.hasOutcome = true;
    ev.outcomePassed = f[1] == "1";
    ev.result = std::atof(f[2].c_str());
    ev.expected = std::atof(f[3].c_str());
    if (!ev.outcomePassed) ev.failures.emplace_back(0, decodeMessage(f[4]));
  }
  if (tag == "@done") ev.done = true;
  if (tag == "@compile-failed") ev.compileFailed = true;
  if (CompileDiagnostic d; tag == "@diagnostic" && readDiagnostic(f, 1, d))
    ev.diagnostics.push_back(d);
  if (tag == "@speed" && f.size() > 2) ev.speed.emplace_back(f[1] == "1", decodeMessage(f[2]));
  readLeaderboardEvent(f, ev.leaderboard);
  if (tag == "@leaderboard-start") ev.current = -1;  // past the cases
  if (tag == "@step" && f.size() > 2) {
    StepSnapshot step;
    step.label = decodeMessage(f[1]);
    step.values = parseValues(f[2]);  // the runner's ints, as --values spells them
    if (f.size() > 4 && !f[3].empty())
      for (const std::string& t : fieldsOf(f[3], ',')) step.active.push_back(std::atoi(t.c_str()));
    if (f.size() > 4 && !f[4].empty())
      for (const std::string& pair : fieldsOf(f[4], ','))
        if (const size_t arrow = pair.find('>'); arrow != std::string::npos)
          step.pairs.emplace_back(std::atoi(pair.c_str()), std::atoi(pair.c_str() + arrow + 1));
    ev.steps.push_back(std::move(step));
  }
  if (tag == "@race" && f.size() > 1) ev.race = decodeMessage(f[1]);
  if (tag == "@note" && f.size() > 1) ev.notes.push_back(decodeMessage(f[1]));
  if (tag == "@race-at" && f.size() > 3) {
    ev.raceStep = std::atoll(f[1].c_str());
    ev.raceElement = std::atoll(f[2].c_str());
    ev.raceArray = f[3];
  }
  if (tag == "@steps-left" && f.size() > 1) ev.stepsLeft = std::atoll(f[1].c_str());
  if (tag == "@access" && f.size() > 11) ev.accesses.push_back(accessOf(f));
  if (tag == "@accesses-left" && f.size() > 1) ev.accessesLeft = std::atoll(f[1].c_str());
  if (tag == "@race-ticks" && f.size() > 2) {
    ev.raceFirstTick = std::atoll(f[1].c_str());
    ev.raceSecondTick = std::atoll(f[2].c_str());
  }
  if (tag == "@seconds" && f.size() > 1) ev.simSeconds = std::atof(f[1].c_str());
}

}  // namespace rlab
