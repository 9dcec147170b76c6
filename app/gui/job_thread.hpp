// Long work off the UI thread: one job at a time, with progress, cancel, and a result that is
// applied to the UiState on the UI thread.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "app/gui/ui_state.hpp"

namespace rlab::gui {

class JobThread {
 public:
  struct Job {
    std::atomic<bool> cancel{false};
    std::atomic<float> progress{0};
    std::string label;
    std::atomic<const char*> stage{""};  // what it does now, a string literal ("compiling")
  };
  // The work returns what to do to the UiState once it is done (on the UI thread).
  using Apply = std::function<void(UiState&)>;
  using Work = std::function<Apply(Job&)>;

  ~JobThread();
  bool busy() const { return running_; }
  bool start(const std::string& label, Work work);  // false while busy
  void cancel();
  float progress() const;
  std::string label() const;
  std::string stage() const;
  // Applies a finished job's result. Returns true when one was applied.
  bool poll(UiState& ui);
  void wait();  // screenshots and tests: block until the job is done

 private:
  std::thread thread_;
  std::shared_ptr<Job> job_;
  std::atomic<bool> running_{false};
  std::mutex doneMutex_;
  Apply done_;
};

}  // namespace rlab::gui
