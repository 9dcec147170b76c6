#include "lessons/engine/system/animation_export.hpp"

#include <cstdio>
#include <filesystem>

#include "lessons/engine/run/params.hpp"
#include "lessons/engine/system/process.hpp"

namespace rlab {

AnimationFormat animationFormatFor(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".gif") return AnimationFormat::Gif;
  if (extension == ".webp") return AnimationFormat::WebP;
  if (!path.empty() && (extension.empty() || path.back() == '/')) return AnimationFormat::PngFolder;
  throw ParamError(Message("params.animation-path", {{"path", path}}));
}

AnimationExport runAnimationExport(const std::vector<std::string>& appArguments,
                                   const std::function<void(int frame, int frames)>& onFrame,
                                   const std::function<bool()>& keepGoing) {
  AnimationExport report;
  std::string pending, said;
  auto read = [&](const std::string& line) {
    int frame = 0;
    if (std::sscanf(line.c_str(), "frame %d %d", &frame, &report.frames) == 2) {
      if (onFrame) onFrame(frame, report.frames);
    } else if (std::sscanf(line.c_str(), "wrote %llu", &report.bytes) == 1) {
      report.written = true;
    } else if (!line.empty()) {
      const std::string prefix = "reduction-lab: ";
      said = line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : line;
    }
  };
  ChildOptions options;
  options.keepGoing = keepGoing;
  options.onOutput = [&](const std::string& piece) {
    pending += piece;
    for (size_t end; (end = pending.find('\n')) != std::string::npos; pending.erase(0, end + 1))
      read(pending.substr(0, end));
  };
  try {
    const ChildResult result = runChild(appArguments, options);
    read(pending);
    report.cancelled = result.cancelled;
    report.exitCode = result.exitCode;
    if (report.cancelled) report.written = false;
    if (!report.written && said.empty())
      said = result.signal ? "it ended on signal " + std::to_string(result.signal)
                           : "it ended with exit status " + std::to_string(result.exitCode);
    if (result.exitCode != 0) report.written = false;
  } catch (const std::runtime_error& e) {  // the app could not be started
    said = e.what();
    report.exitCode = -1;
  }
  if (!report.written && !report.cancelled)
    report.problem = Message("export.failed", {{"why", said}});
  return report;
}

}  // namespace rlab
