#include "lessons/engine/exercise/progress.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lessons/engine/registry.hpp"

namespace rlab {

namespace fs = std::filesystem;

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

const ExerciseMark kMarks[] = {ExerciseMark::NotStarted, ExerciseMark::Tried, ExerciseMark::Done};

bool readWhole(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream all;
  all << in.rdbuf();
  text = all.str();
  return !in.bad();
}

// One exercise's entry of the file; std::runtime_error saying what is wrong with it.
ExerciseProgress entryFrom(const std::string& id, const nlohmann::json& j) {
  if (!j.is_object()) throw std::runtime_error("the entry of " + id + " is not an object");
  ExerciseProgress p;
  const std::string mark = j.value("mark", "");
  bool known = false;
  for (ExerciseMark m : kMarks)
    if (mark == markKey(m)) p.mark = m, known = true;
  if (!known)
    throw std::runtime_error("the entry of " + id + " has no mark of done, tried or not-started");
  p.date = j.value("date", "");
  const std::string backend = j.value("backend", "sim");
  if (backend != "sim" && backend != "gpu")
    throw std::runtime_error("the entry of " + id + " has the backend \"" + backend +
                             "\", neither sim nor gpu");
  p.backend = backend == "gpu" ? BackendChoice::Gpu : BackendChoice::Sim;
  p.cases = j.value("cases", 0);
  p.simulatorCases = j.value("simulatorCases", 0);
  return p;
}

}  // namespace

std::string learnerDataFolder() {
  // The XDG base directory specification: a relative XDG_DATA_HOME is ignored.
  const std::string xdg = environment("XDG_DATA_HOME");
  if (!xdg.empty() && xdg.front() == '/') return (fs::path(xdg) / "reduction-lab").string();
  const std::string home = environment("HOME");
  if (!home.empty()) return (fs::path(home) / ".local/share/reduction-lab").string();
  return "reduction-lab";
}

std::string learnerExerciseFolder() {
  const std::string chosen = environment("RLAB_EXERCISE_DIR");
  if (!chosen.empty()) return chosen;
  return (fs::path(learnerDataFolder()) / "exercises").string();
}

std::string progressFilePath() {
  return (fs::path(learnerDataFolder()) / "progress.json").string();
}

std::string learnerFilePath(const Exercise& e, const std::string& folder) {
  return (fs::path(folder) / e.id / (e.id + ".cu")).string();
}

// Before this folder was shared, the app kept the learner's file as FOLDER/<id>.cu (one
// folder, no folder per exercise) and `rlab exercise start ID` wrote ./ID.cu where it was run.
// The app's old file is MOVED into FOLDER/<id>/<id>.cu: the folder is Reduction Lab's own, so
// the learner's work is then in one place, which rlab and the app both edit. rlab's old file is
// READ where it is, never moved: that folder is the learner's, and they may keep other work
// beside it; `rlab exercise check ID` without FILE checks it there until the shared file exists.
LearnerFile findLearnerFile(const Exercise& e, const std::string& folder, const std::string& here) {
  LearnerFile f;
  f.path = learnerFilePath(e, folder);
  std::error_code error;
  if (fs::exists(f.path, error)) {
    f.found = true;
    return f;
  }
  const fs::path appOld = fs::path(folder) / (e.id + ".cu");
  if (fs::is_regular_file(appOld, error)) {
    fs::create_directories(fs::path(f.path).parent_path(), error);
    if (!error) fs::rename(appOld, f.path, error);
    if (!error) {
      f.found = true;
      f.movedFrom = appOld.string();
      return f;
    }
    // Not movable (a read-only folder): read it where it is.
    f.path = appOld.string();
    f.found = true;
    f.oldPlace = true;
    return f;
  }
  if (!here.empty()) {
    const fs::path rlabOld = fs::path(here) / (e.id + ".cu");
    if (fs::is_regular_file(rlabOld, error)) {
      f.path = rlabOld.string();
      f.found = true;
      f.oldPlace = true;
    }
  }
  return f;
}

const char* markKey(ExerciseMark mark) {
  switch (mark) {
    case ExerciseMark::Done:
      return "done";
    case ExerciseMark::Tried:
      return "tried";
    case ExerciseMark::NotStarted:
      break;
  }
  return "not-started";
}

Message markWord(ExerciseMark mark) {
  switch (mark) {
    case ExerciseMark::Done:
      return Message("progress.done");
    case ExerciseMark::Tried:
      return Message("progress.tried");
    case ExerciseMark::NotStarted:
      break;
  }
  return Message("progress.not-started");
}

ExerciseProgress Progress::of(const std::string& id) const {
  const auto found = exercises.find(id);
  return found == exercises.end() ? ExerciseProgress{} : found->second;
}

int Progress::doneCount() const {
  int done = 0;
  for (const Exercise* e : courseExercises()) done += markOf(e->id) == ExerciseMark::Done;
  return done;
}

Progress loadProgress(const std::string& path) {
  Progress p;
  std::error_code error;
  if (!fs::exists(path, error)) return p;  // a fresh start: nothing passed yet
  auto unreadable = [&](const std::string& why) {
    p = Progress{};
    p.unreadable = true;
    p.problem = Message("progress.unreadable",
                        {{"path", path}, {"why", verbatim(why)}, {"kept", path + ".bad"}});
    return p;
  };
  std::string text;
  if (!readWhole(path, text)) return unreadable(std::strerror(errno));
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    if (!j.is_object() || !j.contains("exercises") || !j["exercises"].is_object())
      return unreadable("it is JSON, but not a progress file: no \"exercises\" object");
    for (const auto& [id, entry] : j["exercises"].items()) p.exercises[id] = entryFrom(id, entry);
  } catch (const std::exception& e) {
    std::string why = e.what();  // nlohmann's "[json.exception.parse_error.101] parse error ..."
    if (why.rfind("[json.exception.", 0) == 0 && why.find("] ") != std::string::npos)
      why = why.substr(why.find("] ") + 2);
    return unreadable(why);
  }
  return p;
}

nlohmann::json progressJson(const Progress& progress) {
  nlohmann::json exercises = nlohmann::json::object();
  for (const auto& [id, p] : progress.exercises) {
    if (p.mark == ExerciseMark::NotStarted) continue;
    nlohmann::json entry = {{"mark", markKey(p.mark)}, {"date", p.date}};
    if (p.mark == ExerciseMark::Done) {
      entry["backend"] = name(p.backend);
      entry["cases"] = p.cases;
      if (p.simulatorCases > 0) entry["simulatorCases"] = p.simulatorCases;
    }
    exercises[id] = entry;
  }
  return {{"version", 1}, {"exercises", exercises}};
}

bool saveProgress(const Progress& progress, const std::string& path, Message& problem) {
  std::error_code error;
  auto failed = [&](const std::string& why) {
    problem = Message("progress.cannot-save", {{"path", path}, {"why", verbatim(why)}});
    return false;
  };
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, error);
  if (error) return failed(error.message());
  // The file this progress could not read is kept, not written over.
  if (progress.unreadable && fs::exists(path, error)) {
    fs::rename(path, path + ".bad", error);
    if (error) return failed(error.message());
  }
  const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << progressJson(progress).dump(2) << "\n";
    out.close();
    if (!out) {
      fs::remove(temporary, error);
      return failed("could not write " + temporary);
    }
  }
  fs::rename(temporary, path, error);  // atomic: a reader sees the old file or the new one
  if (error) {
    const std::string why = error.message();
    fs::remove(temporary, error);
    return failed(why);
  }
  return true;
}

std::string todayDate() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &local);
  return text;
}

void markStarted(Progress& progress, const std::string& id, const std::string& date) {
  ExerciseProgress& p = progress.exercises[id];
  if (p.mark != ExerciseMark::NotStarted) return;
  p.mark = ExerciseMark::Tried;
  p.date = date;
}

void recordCheck(Progress& progress, const Exercise& e, const ExerciseReport& report,
                 BackendChoice backend, const std::string& date) {
  if (report.verdict == ExerciseVerdict::Cancelled || report.verdict == ExerciseVerdict::NotRun)
    return;
  ExerciseProgress& p = progress.exercises[e.id];
  if (!report.passed()) {
    if (p.mark == ExerciseMark::Done) return;  // a pass stays a pass
    p.mark = ExerciseMark::Tried;
    p.date = date;
    return;
  }
  p.mark = ExerciseMark::Done;
  p.date = date;
  p.backend = backend;
  p.cases = report.casesRun;
  p.simulatorCases = backend == BackendChoice::Gpu ? report.simulator.casesRun : 0;
}

namespace {

template <class Change>
Progress changeInFile(const std::string& path, Change change) {
  Progress p = loadProgress(path);
  const Message readProblem = p.problem;
  change(p);
  Message writeProblem;
  if (!saveProgress(p, path, writeProblem)) {
    p.problem = writeProblem;
    return p;
  }
  p.unreadable = false;  // kept aside as .bad; the file is ours again
  p.problem = readProblem;
  return p;
}

}  // namespace

Progress recordCheckInFile(const std::string& path, const Exercise& e, const ExerciseReport& report,
                           BackendChoice backend) {
  return changeInFile(path, [&](Progress& p) { recordCheck(p, e, report, backend, todayDate()); });
}

Progress recordStartInFile(const std::string& path, const std::string& id) {
  return changeInFile(path, [&](Progress& p) { markStarted(p, id, todayDate()); });
}

std::vector<const Exercise*> courseExercises() {
  std::vector<const Exercise*> all;
  for (const LessonInfo& lesson : lessons())
    for (const Exercise* e : exercisesOf(lesson.id)) all.push_back(e);
  return all;
}

const Exercise* nextExercise(const Progress& progress, const std::string& after) {
  const std::vector<const Exercise*> all = courseExercises();
  size_t start = 0;
  for (size_t k = 0; k < all.size(); ++k)
    if (all[k]->id == after) start = k + 1;
  for (size_t k = 0; k < all.size(); ++k) {
    const Exercise* e = all[(start + k) % all.size()];
    if (progress.markOf(e->id) != ExerciseMark::Done) return e;
  }
  return nullptr;
}

}  // namespace rlab
