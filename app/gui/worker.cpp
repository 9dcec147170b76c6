#include "app/gui/worker.hpp"

namespace rlab::gui {

Worker::~Worker() {
  cancel();
  if (thread_.joinable()) thread_.join();
}

bool Worker::start(const std::string& label, Work work) {
  if (running_) return false;
  if (thread_.joinable()) thread_.join();
  job_ = std::make_shared<Job>();
  job_->label = label;
  running_ = true;
  thread_ = std::thread([this, job = job_, work = std::move(work)] {
    Apply apply;
    try {
      apply = work(*job);
    } catch (const std::exception& e) {
      const std::string message = e.what();
      apply = [message](UiState& ui) {
        ui.status = message;
        ui.statusIsError = true;
      };
    }
    {
      std::lock_guard<std::mutex> lock(doneMutex_);
      done_ = std::move(apply);
    }
    running_ = false;
  });
  return true;
}

void Worker::cancel() {
  if (job_) job_->cancel = true;
}

float Worker::progress() const {
  return job_ ? job_->progress.load() : 0.f;
}

std::string Worker::label() const {
  return job_ ? job_->label : std::string();
}

bool Worker::poll(UiState& ui) {
  Apply apply;
  {
    std::lock_guard<std::mutex> lock(doneMutex_);
    apply = std::move(done_);
    done_ = nullptr;
  }
  if (!apply) return false;
  apply(ui);
  return true;
}

void Worker::wait() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace rlab::gui
