// What rlab prints: text for a terminal (views.cpp; run_option_views.cpp, job_views.cpp,
// profile_views.cpp and exercise_views.cpp for their commands) and JSON for scripts
// (json_views.cpp). Views read results of the core; they compute nothing.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/exercise/progress.hpp"
#include "lessons/engine/gpu_tools/profile.hpp"
#include "lessons/engine/races/race.hpp"
#include "lessons/engine/gpu_tools/recording.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"
#include "lessons/engine/texts/texts.hpp"
#include "lessons/engine/run/trace.hpp"
#include "lessons/engine/races/witness.hpp"

namespace rlab {
// JSON is for scripts: a sentence goes into it in English.
inline void to_json(nlohmann::json& j, const Message& m) {
  j = english(m);
}
}  // namespace rlab

namespace rlab::cli {

// A finished `rlab bench`: its rows and where they were measured.
struct BenchTable {
  std::string device;
  bool gpuTimes = false;  // false: simulator throughput, not GPU times
  ElementType type = ElementType::Int;
  std::vector<BenchRow> rows;
};

// Text in lines of at most `width` columns (terminal.hpp), every sentence in `language` (the
// core's messages; names, code and the tools' own output as they are). With `narration` (a Steps
// block of the texts), each step's sentence is printed under it.
void printTraceText(const Trace& t, std::ostream& out, bool colour, Language language, int width,
                    const text::Block* narration = nullptr);
// One row per thread, the levels as columns, when each read and wrote (rlab run --timeline).
void printTimelineText(const Trace& t, std::ostream& out, bool colour, Language language,
                       int width);
// A learner's run's loads and stores, thread by thread, in the order they ran (rlab exercise
// run --timeline; app/cli/access_timeline_view.cpp).
void printAccessTimelineText(const Trace& t, std::ostream& out, bool colour, Language language,
                             int width);
// The run's launches, one row each (rlab run --launches).
void printLaunchesText(const Trace& t, std::ostream& out, Language language, int width);
// A chapter's prose wrapped to `width` columns, 80 at most (code blocks as they are written).
void printChapterText(const text::Document& doc, const std::string& chapter, std::ostream& out,
                      Language language, int width, bool unfoldAnswers = false);
// One step's sentence of a narration, under the step.
void printNarration(const text::Inline& item, std::ostream& out, int width);
// Lessons, bench tables: reference listings for scripts, in English, fitted to `width`.
void printLessonList(std::ostream& out, int width);
void printRaceText(const RaceResult& race, std::ostream& out, bool colour, Language language,
                   int width);
void printWitnessText(const Witness& w, std::ostream& out, bool colour, Language language,
                      int width);
void printBenchText(const BenchTable& bench, std::ostream& out, int width);
void printBenchCsv(const BenchTable& bench, std::ostream& out);
void printSanitizerText(const SanitizerReport& report, std::ostream& out, Language language,
                        int width);
// A profile: the lesson's kernels' counters beside the simulator's prediction, the counters that
// prove the lesson's point first (profile_views.cpp). Its JSON is the core's profileJson.
void printProfileText(const ProfileReport& report, Language language, std::ostream& out, int width);
// What rlab record wrote, and where.
void printRecordText(const RecordingJson& recording, const std::string& file, std::ostream& out);
// The exercises lesson by lesson, their titles in `language` (English where a file is missing),
// each with its mark: done, tried or not started.
void printExerciseList(std::ostream& out, Language language, const Progress& progress, bool colour,
                       int width);
// rlab exercise progress: the learner's path, lesson by lesson, how many are done, the next
// one and where their files and progress are.
void printExerciseProgress(std::ostream& out, const Progress& progress, Language language,
                           bool colour, int width);
// "Next: rlab exercise start ID — TITLE" (the first not done after `after`, going round), or
// that every exercise is done.
void printNextExercise(std::ostream& out, const Progress& progress, const std::string& after,
                       Language language);
// The statement as `rlab lesson` prints a chapter, then how to start and where the hints are.
void printExerciseStatement(const Exercise& e, const ExerciseText& text, std::ostream& out,
                            Language language, int width);
// A check or run: compile errors with the line they point at, failures, timings.
// Sentences wrapped to `width` columns; replay lines and compiler lines whole.
void printExerciseReport(const Exercise& e, const ExerciseReport& report, std::ostream& out,
                         bool colour, Language language, int width);

// JSON. Numbers JSON cannot hold (infinities, NaN) are the strings "inf", "-inf" and "nan".
nlohmann::json jsonNumber(double v);
// A value of a run's element type: int runs' values as JSON integers.
nlohmann::json jsonValue(double v, ElementType type);
nlohmann::json traceJson(const Trace& t);
nlohmann::json timelineJson(const Trace& t);  // buildTimeline's rows, cells and early reads
nlohmann::json accessTimelineJson(const Trace& t);  // a learner's run's accesses, its race's ticks
nlohmann::json lessonsJson();
nlohmann::json raceJson(const RaceResult& race);
nlohmann::json witnessJson(const Witness& w);
nlohmann::json benchJson(const BenchTable& bench);
nlohmann::json sanitizerJson(const SanitizerReport& report);
nlohmann::json exercisesJson(const Progress& progress);
nlohmann::json exerciseProgressJson(const Progress& progress);
nlohmann::json exerciseReportJson(const Exercise& e, const ExerciseReport& report);

}  // namespace rlab::cli
