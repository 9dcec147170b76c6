// Recordings of a GPU (lessons/engine/gpu_tools/recording.hpp): read back into bench rows and
// profiles, their figures filled into texts by {{rec:CARD:PATH}} links, and every link of every
// text checked against the recording it names. The sample is written by hand (tests/fixtures/
// recordings): the layout, not a measurement.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "lessons/engine/gpu_tools/recording.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/texts/texts.hpp"

using namespace rlab;

namespace {

Recording sample() {
  const std::string path = "tests/fixtures/recordings/sample-gpu-9000.json";
  std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/" + path);
  std::stringstream text;
  text << in.rdbuf();
  return readRecording(path, text.str());
}

}  // namespace

TEST_CASE("recording: read, labelled with its card and date") {
  const Recording r = sample();
  CHECK(r.problem.empty());
  CHECK(r.card == "Sample GPU 9000");
  CHECK(r.date == "2026-01-02");
  CHECK(recordedOnLabel(r) == "measured on Sample GPU 9000, 2026-01-02, not on this machine");
  CHECK_FALSE(readRecording("x.json", "{not json").problem.empty());
  CHECK(readRecording("x.json", R"({"format": 2, "card": "A"})").problem.find("format") !=
        std::string::npos);
  CHECK_FALSE(readRecording("x.json", R"({"format": 1})").problem.empty());
  CHECK(recordingFileName("NVIDIA H100 80GB HBM3") == "nvidia-h100-80gb-hbm3.json");
  CHECK(recordingFileName("NVIDIA H200") == "nvidia-h200.json");
  CHECK(recordingFileName("") == "gpu.json");
}

TEST_CASE("recording: every recording built in reads, and every text's links resolve") {
  for (const Recording& r : recordings()) CHECK_MESSAGE(r.problem.empty(), r.problem);
  for (const std::string& id : chapterIds())
    for (Language language : kLanguages)
      if (const text::Document* doc = text::chapter(id, language))
        for (const text::Problem& problem : doc->problems)
          CHECK_MESSAGE(problem.reason.id != "chapter.recording-link", id,
                        rlab::english(problem.reason));
}

TEST_CASE("recording: the bench's rows by n, in the order measured, with the speed-ups") {
  const std::vector<BenchRow> rows = recordedBench(sample(), ElementType::Int);
  REQUIRE(rows.size() == 10);
  CHECK(rows[0].n == 1024);
  CHECK(rows[0].role == BenchRole::CpuLoop);
  CHECK(rows[1].role == BenchRole::Cub);
  CHECK(rows[2].kernel == "divergence interleaved");
  CHECK(rows[3].kernel == "fastest");
  CHECK(rows[4].role == BenchRole::Roofline);
  CHECK(rows[5].n == 4096);
  CHECK(rows[3].cpuRatio == doctest::Approx(0.0004 / 0.002));
  CHECK(rows[3].previousRatio == doctest::Approx(0.008 / 0.002));  // interleaved / fastest
  CHECK(rows[3].cubRatio == 2);
  CHECK(recordedBench(sample(), ElementType::Float).empty());
  BenchRow lesson;
  lesson.kernel = "divergence interleaved-mask";
  CHECK(benchKey(lesson) == "divergence-interleaved-mask");
  lesson.role = BenchRole::Roofline;
  CHECK(benchKey(lesson) == "copy");
  CHECK(runKey("fastest", "default") == "fastest");
  CHECK(runKey("divergence", "strided") == "divergence-strided");
}

TEST_CASE("recording: the profile of the run on screen, or of the same variant at another n") {
  const Recording r = sample();
  Params p;
  p.lesson = "divergence";
  p.variant = "strided";
  p.n = 64;
  p.block = 64;
  ProfileReport found;
  bool exact = false;
  REQUIRE(recordedProfile(r, p, found, exact));
  CHECK(exact);
  CHECK(found.total.counters.at(Counter::SharedBankConflicts) == 15);
  CHECK(found.predicted.at(Counter::SharedBankConflicts) == 15);
  CHECK(found.total.function == "strided");
  CHECK(found.total.stalls.front().reason == "barrier");
  // A stall reason is a sentence in the reader's language; one this build does not know keeps
  // the recording's English words.
  const Message& stall = found.total.stalls.front().label;
  CHECK(english(stall) == "barrier: waiting at __syncthreads for the rest of the block");
  CHECK(render(stall, Language::Ja).find("__syncthreads でブロックの残りを待っている") !=
        std::string::npos);
  CHECK(render(stallLabel("future_reason", "future: words"), Language::Zh) == "future: words");
  p.n = 1 << 20;
  p.block = 0;
  REQUIRE(recordedProfile(r, p, found, exact));
  CHECK_FALSE(exact);
  CHECK(found.params.n == 16777216);  // the nearest recorded
  p.variant = "sequential";
  CHECK_FALSE(recordedProfile(r, p, found, exact));
  // Kept and read back, a profile is the same.
  const ProfileReport back = profileFromJson(profileJson(found));
  CHECK(back.params.n == found.params.n);
  CHECK(back.total.counters == found.total.counters);
  CHECK(back.predicted == found.predicted);
  // The prediction's note comes back as the same sentence, to be said in any language; a note
  // kept only as English words is shown as it is.
  found.predictionNote = Message("predict.counters-from-steps", {{"n", 65536}});
  CHECK(profileFromJson(profileJson(found)).predictionNote == found.predictionNote);
  RecordingJson words = profileJson(found);
  words.erase("prediction_note_message");
  CHECK(profileFromJson(words).predictionNote == verbatim(english(found.predictionNote)));
}

TEST_CASE("recording links: figures filled in, problems named, the rest untouched") {
  const std::vector<Recording> from = {sample()};
  std::vector<std::string> problems;
  auto fill = [&](const std::string& text) { return fillRecordingLinks(text, &problems, from); };
  CHECK(fill("fastest: {{rec:9000:bench/int/fastest/4096/ms}} ms") == "fastest: 0.00412 ms");
  CHECK(fill("on the {{rec:sample:card}}, {{rec:SAMPLE:date}}") ==
        "on the Sample GPU 9000, 2026-01-02");
  CHECK(fill("{{rec:9000:profile/divergence-strided/16777216/counters/dram_read_pct}}%") ==
        "40.2%");
  CHECK(fill("{{rec:9000:profile/divergence-strided/64/kernels/0/function}}") == "strided");
  CHECK(fill("{{rec:9000:race/barrier-global/1024/plain/wrong}} of 200") == "11 of 200");
  CHECK(problems.empty());
  CHECK(fill("no links, {{GPU:placeholder}} stays") == "no links, {{GPU:placeholder}} stays");
  CHECK(problems.empty());
  CHECK(fill("{{rec:H100:card}}") == "{{rec:H100:card}}");
  CHECK(fill("{{rec:9000:bench/int/fastest/2048/ms}}") == "{{rec:9000:bench/int/fastest/2048/ms}}");
  CHECK(fill("{{rec:9000:bench/int}}") == "{{rec:9000:bench/int}}");
  REQUIRE(problems.size() == 3);
  CHECK(problems[0].find("no recording's card is called H100") != std::string::npos);
  CHECK(problems[1].find("no '2048'") != std::string::npos);
  CHECK(problems[2].find("no single value") != std::string::npos);
  const std::vector<Recording> twice = {sample(), sample()};
  problems.clear();
  fillRecordingLinks("{{rec:9000:card}}", &problems, twice);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("more than one") != std::string::npos);
}

TEST_CASE("recording: what rlab record profiles and races") {
  const std::vector<Params> profiles = recordedProfileRuns();
  for (const LessonInfo& lesson : lessons())
    for (const VariantInfo& variant : lesson.variants) {
      int found = 0;
      for (const Params& p : profiles) found += p.lesson == lesson.id && p.variant == variant.id;
      CHECK_MESSAGE(found == (lesson.defaultGpus > 0                                       ? 0
                              : std::min<int64_t>(lesson.maxN, 1 << 24) == lesson.defaultN ? 1
                                                                                           : 2),
                    lesson.id, " ", variant.id);
    }
  for (const Params& p : profiles) CHECK_NOTHROW(resolve(p));
  const std::vector<Params> races = recordedRaceRuns();
  // barrier's two trees, plain and perturbed; butterfly; shared's clusters
  CHECK(races.size() == 2 * 3 * 2 + 3 + 3);
  for (const Params& p : races) {
    CHECK_FALSE(p.barrier);
    CHECK_NOTHROW(resolve(p));
  }
}
