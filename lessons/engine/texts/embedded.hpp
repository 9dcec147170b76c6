// The kernel sources and lesson texts, embedded at build time: what the app and rlab show is
// the file that was compiled, and they need no source tree at run time.
#pragma once

#include <string>
#include <vector>

namespace rlab {

// "kernels/barrier.cuh", "lessons/barrier/en.md": the file's text, or nullptr.
const std::string* embeddedFile(const std::string& path);
// Every embedded file's path, sorted ("assets/recordings/...json" among them).
std::vector<std::string> embeddedPaths();

}  // namespace rlab
