// Every lesson variant through the race detector on the simulator: the variants meant to be
// right are found race-free, those that race by design (a barrier or __syncwarp switched off,
// the last warp's volatile and plain kernels) are found racing, and a barrier-off run whose sum
// came out right says so beside its race.
#include <doctest/doctest.h>

#include <string>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/texts/messages.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"

using namespace rlab;

namespace {

Trace traced(const std::string& lesson, const std::string& variant, int64_t n, int block) {
  Params p;
  p.lesson = lesson;
  p.variant = variant;
  p.n = n;
  p.block = block;
  p.schedule = "lockstep";
  return runLesson(p);
}

bool hasNote(const Trace& t, const std::string& id) {
  for (const Message& m : t.notes)
    if (m.id == id) return true;
  return false;
}

}  // namespace

TEST_CASE("lesson races: the right variants race-free, the ones that race by design racing") {
  if (!sim::lessonKernelsDetectRaces()) {
    MESSAGE(
        "skipped: this build's lesson kernels carry no race detector hooks (a sanitizer "
        "build)");
    return;
  }
  for (const LessonInfo& lesson : lessons()) {
    for (const VariantInfo& variant : lesson.variants) {
      CAPTURE(lesson.id);
      CAPTURE(variant.id);
      // A size with two warps and a partial one, where the lesson allows it.
      const int64_t n = lesson.oneBlock ? 64 : 300;
      const int block = std::max(64, variant.minBlock);
      const Trace right = traced(lesson.id, variant.id, n, block);
      const bool racesByDesign =
          lesson.id == "lastwarp" && (variant.id == "volatile" || variant.id == "plain");
      CHECK(right.racesLooked);
      if (racesByDesign) {
        CHECK(right.racingAccesses > 0);
      } else {
        CHECK_MESSAGE(right.racingAccesses == 0,
                      (right.notes.empty() ? std::string() : english(right.notes.back())));
      }
      if (variant.barrierSwitch) {
        Params p;
        p.lesson = lesson.id;
        p.variant = variant.id;
        p.n = n;
        p.block = block;
        p.barrier = false;
        const Trace off = runLesson(p);
        CHECK(off.racingAccesses > 0);
        CHECK((hasNote(off, "note.race") || hasNote(off, "note.race-right")));
      }
    }
  }
}

TEST_CASE("lesson races: the barrier lesson without its barrier names its race, right or wrong") {
  if (!sim::lessonKernelsDetectRaces()) return;
  Params p;
  p.lesson = "barrier";
  p.variant = "global";
  p.n = 8;
  p.barrier = false;
  p.schedule = "stall:4:2:1";
  const Trace wrong = runLesson(p);
  CHECK_FALSE(wrong.correct);
  REQUIRE(hasNote(wrong, "note.race"));
  // Reverse order: every write lands before the read that needs it, and the sum is right.
  p.schedule = "reverse";
  const Trace lucky = runLesson(p);
  REQUIRE(hasNote(lucky, "note.race-right"));
  for (const Message& m : lucky.notes)
    if (m.id == "note.race-right") {
      const std::string sentence = english(m);
      MESSAGE(sentence);
      CHECK(sentence.find("kernel raced on int[") != std::string::npos);
      CHECK(sentence.find("barrier.cuh:") != std::string::npos);
    }
}
