// The lessons, their variants and limits. Ids are fixed: tests, texts and the CLI use them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rlab {

struct LessonInfo {
  std::string id;
  std::string title;
  std::string summary;  // shown until the lesson texts exist
  std::vector<std::string> variants;
  int64_t maxN;  // the lesson's own limit on n
  int64_t defaultN;
  bool switchableBarrier = false;                  // takes --no-barrier and --perturb
  bool oneBlock = false;                           // block must cover n
  std::string kernelFile;                          // kernels/<id>.cuh
  int minBlock(const std::string& variant) const;  // 32 where the kernel uses warp operations
};

const std::vector<LessonInfo>& lessons();
const LessonInfo* findLesson(const std::string& id);
std::string lessonIds();  // "atomic, folding, ..." for messages

}  // namespace rlab
