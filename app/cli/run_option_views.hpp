// The text views rlab run adds on request (run_option_views.cpp); views.cpp prints the memory
// view under each step. --timeline and --launches are declared in views.hpp.
#pragma once

#include <iosfwd>

#include "lessons/engine/run/trace.hpp"

namespace rlab::cli {

// The step's global loads and stores (rlab run --memory): a summary, then each warp's request.
void printMemoryStep(const StepSnapshot& s, std::ostream& out, int width, Language language);

}  // namespace rlab::cli
