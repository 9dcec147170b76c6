// The terminal's colours for the text views (ANSI escapes; used only where stdout is a terminal).
#pragma once

namespace rlab::cli {

inline constexpr const char* kReset = "\033[0m";
inline constexpr const char* kChanged = "\033[1;33m";  // bold yellow: changed in this step
inline constexpr const char* kWorked = "\033[36m";     // cyan: written by a working thread
inline constexpr const char* kWrong = "\033[1;31m";
inline constexpr const char* kRight = "\033[1;32m";

}  // namespace rlab::cli
