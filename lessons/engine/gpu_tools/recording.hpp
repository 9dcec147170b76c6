// GPU measurements, recorded once on a machine with the GPU (`rlab record`) and shipped as data:
// one JSON file per card under assets/recordings/, embedded in the build. Without a GPU the
// timing chart, the speed-up table and the Profile tab offer them, always labelled with the
// card and the date, and the texts quote their figures through links the text engine fills in:
//
//   {{rec:H100:bench/int/divergence-interleaved/16777216/ms}}
//
// names the recording whose card contains "H100" (a word of it, any case) and a path through
// its JSON: the bench's kernel time at n = 2^24 for ints. A number prints with three
// significant digits (percentages, keys ending in _pct, with one decimal), a string as it is
// ({{rec:H100:card}}, {{rec:H100:date}}). The file's layout:
//
//   card, device, driver, cuda_driver, cuda_runtime, date, command, rlab: who and when
//   bench/<int|float>/<kernel>/<n>: ms, gb_per_s, copy_fraction, cub_ratio, cpu_ratio,
//       previous_ratio, and name, role, lesson, variant. <kernel>: "cpu-loop", "cub", "copy", or
//       the lesson kernel's name with a hyphen for each space ("divergence-interleaved",
//       "fastest")
//   profile/<kernel>/<n>: the lesson's kernels of that run: counters (by the keys of
//       counterTable), predicted (the simulator's), stalls, kernels (each function), params
//   race/<kernel>/<n>/<plain|perturbed>: runs, wrong, wrong_share (barrier off)
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/run/params.hpp"
#include "lessons/engine/gpu_tools/profile.hpp"

namespace rlab {

using RecordingJson = nlohmann::ordered_json;  // keeps the file's order: the course's

struct Recording {
  std::string path;  // "assets/recordings/nvidia-h100-80gb-hbm3.json"
  std::string card;  // "NVIDIA H100 80GB HBM3"
  std::string date;  // "2026-11-03"
  RecordingJson data;
  std::string problem;  // not a recording this build can read: one sentence (data unused)
};

// The recordings embedded in this build and those in the folder $RLAB_RECORDINGS names (made
// since; one of the same file name replaces the built-in one), read once, by path.
const std::vector<Recording>& recordings();
// Reads a recording's text; `problem` says what is wrong with it, if anything.
Recording readRecording(const std::string& path, const std::string& text);

// "measured on NVIDIA H100 80GB HBM3, 2026-11-03, not on this machine"
std::string recordedOnLabel(const Recording& r);

// The key of a bench row in a recording ("divergence-interleaved", "cub", "cpu-loop", "copy")
// and of a run (lesson, variant) in its profile and race parts.
std::string benchKey(const BenchRow& row);
std::string runKey(const std::string& lesson, const std::string& variant);

// The recording's bench rows of one element type, in the order they were measured (empty where
// it has none), with the speed-ups filled in.
std::vector<BenchRow> recordedBench(const Recording& r, ElementType type);
// The recorded profile of exactly this run (lesson, variant, n, block, type, op and data),
// or of the same variant at another n where there is none (`exact` says which); false where
// the recording has no profile of the variant.
bool recordedProfile(const Recording& r, const Params& p, ProfileReport& out, bool& exact);

// A profile as it is kept (and printed by rlab profile --format json), and read back.
RecordingJson profileJson(const ProfileReport& report);
ProfileReport profileFromJson(const RecordingJson& j);

// ---- Making one: rlab record, on a GPU (record.cpp) ---------------------------------------

// The parts of a recording, each recorded on its own (`rlab record --only`), the others kept.
enum class RecordPart { Bench, Profile, Race };
const char* name(RecordPart part);  // "bench", "profile", "race"

struct RecordRequest {
  std::vector<RecordPart> parts = {RecordPart::Bench, RecordPart::Profile, RecordPart::Race};
  std::vector<long long> sizes;  // the bench's; empty: 2^10 to 2^28, x4
  int reps = 20;                 // the bench's repetitions
  int raceRuns = 200;            // runs of each race setting
  std::string command;           // the command line, kept in the file
  std::string date;              // "2026-11-03"; empty: today (UTC)
  ProfileOptions profile;        // where ncu and rlab are (empty: found)
};

// The runs `rlab record` profiles: every variant of the lessons on one GPU at its default n and
// at 2^24 (or its largest n, where that is smaller).
std::vector<Params> recordedProfileRuns();
// The race settings it measures: the switchable barriers off at n = 8, 256 and 1024 (one
// block), perturbed and not (perturb: the barrier lesson's).
std::vector<Params> recordedRaceRuns();

// Called before each measurement with what it is; false cancels (what is done is kept).
using RecordProgress = std::function<bool(const std::string& doing)>;

// Measures the request's parts on this machine's GPU into `into` (a recording of the same card
// read back, or an empty object), replacing those parts and keeping the others. Throws
// GpuUnavailable without a GPU, or for profiles without ncu.
void recordOnGpu(const RecordRequest& request, const RecordProgress& progress, RecordingJson& into);
// "nvidia-h100-80gb-hbm3.json": the file a card's recording goes into.
std::string recordingFileName(const std::string& card);

// ---- Links in the texts ------------------------------------------------------------------

// `markdown` with every {{rec:CARD:PATH}} replaced by the recorded value; a link that names no
// recording or no value stays as it is and adds one sentence to `problems`.
std::string fillRecordingLinks(const std::string& markdown, std::vector<std::string>* problems,
                               const std::vector<Recording>& from = recordings());

}  // namespace rlab
