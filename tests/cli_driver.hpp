// rlab's front end called in the test's own process, as a shell would run it: the exit code
// and what it printed on stdout and stderr.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli.hpp"

namespace {

struct Outcome {
  int code;
  std::string out, err;
};

inline Outcome rlabWith(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = rlab::cli::main(args, out, err, false);
  return {code, out.str(), err.str()};
}

}  // namespace
