// What the manual pages say besides their options: descriptions, lessons, environment, files,
// exit status, examples. Lists (lessons, variants, exercises, chapters) come from the core.
#pragma once

#include <string>

#include "app/docs/command_line_docs.hpp"

namespace rlab::docs {

ManualText rlabText(const std::string& version, const std::string& date);
ManualText appText(const std::string& version, const std::string& date);

}  // namespace rlab::docs
