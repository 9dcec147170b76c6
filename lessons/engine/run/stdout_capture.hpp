// Catching what is written to the process's stdout for a while: a CUDA kernel's printf reaches
// the host's stdout only when the host synchronises, as plain text, so a run that wants the lines
// (--printf) catches them around its launch and sync. Header-only: the GPU backend (a library
// of its own, below the core) and the tests both use it.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>

namespace rlab {

// While one lives, file descriptor 1 points at a temporary file (a pipe would fill up and stall
// the writer before anyone reads it); finish() (or the destructor) points it back and returns
// what arrived. C stdio's and iostream's buffers are flushed at both ends, so text written before
// stays outside and text written inside stays inside. One capture at a time in the process:
// another thread's capture waits for this one to end. Whatever another thread writes to stdout
// meanwhile is caught too, so keep the window short (a launch and its sync).
class StdoutCapture {
 public:
  StdoutCapture() : lock_(mutex()) {
    std::cout.flush();
    std::fflush(stdout);
    file_ = std::tmpfile();
    saved_ = file_ ? ::dup(1) : -1;
    if (saved_ >= 0 && ::dup2(::fileno(file_), 1) < 0) {
      ::close(saved_);
      saved_ = -1;
    }
  }
  ~StdoutCapture() { finish(); }
  StdoutCapture(const StdoutCapture&) = delete;
  StdoutCapture& operator=(const StdoutCapture&) = delete;

  // False where stdout could not be redirected (no temporary file, fd 1 closed): the text then
  // went wherever stdout goes, and finish() returns nothing.
  bool capturing() const { return saved_ >= 0; }

  // Restores stdout and returns what was written to it since the capture began (at most
  // `limit` bytes). Later calls return nothing.
  std::string finish(size_t limit = size_t(16) << 20) {
    std::string text;
    if (saved_ >= 0) {
      std::cout.flush();
      std::fflush(stdout);
      ::dup2(saved_, 1);
      ::close(saved_);
      saved_ = -1;
      std::rewind(file_);
      char buffer[4096];
      size_t got = 0;
      while (text.size() < limit && (got = std::fread(buffer, 1, sizeof buffer, file_)) > 0)
        text.append(buffer, std::min(got, limit - text.size()));
    }
    if (file_) std::fclose(file_);
    file_ = nullptr;
    if (lock_.owns_lock()) lock_.unlock();
    return text;
  }

 private:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  std::unique_lock<std::mutex> lock_;
  std::FILE* file_ = nullptr;
  int saved_ = -1;
};

}  // namespace rlab
