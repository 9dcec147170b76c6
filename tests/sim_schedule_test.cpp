#include <doctest/doctest.h>

#include "kernels/sim/runtime.hpp"

using rlab::sim::Schedule;

TEST_CASE("schedules parse and print back") {
  for (const char* text :
       {"lockstep", "sequential", "reverse", "random:42", "warps-random:7", "stall:4:2:1"})
    CHECK(Schedule::parse(text).str() == text);
  const Schedule s = Schedule::parse("stall:4:2:1");
  CHECK(s.kind == Schedule::Kind::Stall);
  CHECK(s.stallThread == 4);
  CHECK(s.stallRound == 2);
  CHECK(s.stallRounds == 1);
}

TEST_CASE("malformed schedules are refused with what is allowed") {
  for (const char* text : {"", "lock", "random", "random:", "random:x", "random:1:2", "stall:1:2",
                           "stall:a:1:1", "stall:1:0:1", "stall:2000:1:1", "lockstep:3",
                           "random:-5", "warps-random:99999999999999999999"}) {
    CAPTURE(text);
    try {
      Schedule::parse(text);
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find("stall:T:R:K") != std::string::npos);
    }
  }
}
