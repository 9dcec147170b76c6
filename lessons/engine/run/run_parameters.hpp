// The parameters of a run by name: the one vocabulary of a try link's keys (key=value), the
// rlab run command a link stands for, and the arguments that reproduce a run in a child process
// (the sanitizer's). Each key is also rlab run's option: --KEY VALUE, and for a switch --KEY
// where it is off by default or --no-KEY where it is on by default.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lessons/engine/run/params.hpp"

namespace rlab {

struct RunParameter {
  const char* key;
  bool isSwitch = false;     // on or off: key=on, key=off, or the bare key for on
  bool onByDefault = false;  // a switch's default
  // Sets the parameter from a link's value; throws ParamError naming key=value.
  void (*set)(Params& p, const std::string& value) = nullptr;
  // The run's value as a link gives it ("on"/"off" for a switch); empty where it is the default,
  // so that nothing needs saying.
  std::string (*get)(const Params& p) = nullptr;
};

// Every parameter, in the order a command line lists them.
const std::vector<RunParameter>& runParameters();

// A link's "key=value&key" pairs into the run; throws ParamError for an unknown key or value.
void setRunParameter(Params& p, const std::string& key, const std::string& value);

// "rlab run barrier --n 8 --no-barrier": the command a link's pairs stand for.
std::string commandLineFor(const std::string& lesson,
                           const std::vector<std::pair<std::string, std::string>>& pairs);

// "lesson=barrier&n=8&barrier=off": the run as a try link's keys, the lesson and every
// parameter not at its default (paramsFromQuery reads it back into the same run).
std::string linkQueryFor(const Params& p);

// rlab run's arguments that reproduce the run exactly: the lesson, then every parameter that is
// not at its default.
std::vector<std::string> runArguments(const Params& p);

}  // namespace rlab
