// Which lines of a kernel file are one __global__ function's, read line by line as the file is
// shown or searched: from the line that declares it (`__global__` and " NAME(" on one line)
// to the line whose closing brace ends its body. The witness finds the barrier and the read in
// it; the app's source panel marks the function's lines.
#pragma once

#include <string>
#include <utility>

namespace rlab {

class KernelBody {
 public:
  explicit KernelBody(std::string function) : call_(" " + std::move(function) + "(") {}
  // The next line of the file: whether it is part of the function, its braces counted.
  bool take(const std::string& line) {
    if (!inside_) {
      inside_ =
          line.find("__global__") != std::string::npos && line.find(call_) != std::string::npos;
      if (!inside_) return false;
      entered_ = true;
    }
    for (char c : line) depth_ += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (depth_ == 0 && line.find('}') != std::string::npos) inside_ = false;
    return true;
  }
  // The line just taken declared the function (its first line).
  bool entered() {
    const bool was = entered_;
    entered_ = false;
    return was;
  }

 private:
  std::string call_;
  bool inside_ = false, entered_ = false;
  int depth_ = 0;
};

}  // namespace rlab
