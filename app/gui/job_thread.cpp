#include "app/gui/job_thread.hpp"

#include "app/gui/strings.hpp"

namespace rlab::gui {

JobThread::~JobThread() {
  cancel();
  if (thread_.joinable()) thread_.join();
}

bool JobThread::start(const std::string& label, Work work) {
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
      const Message message = messageOf(e);  // said when it arrives, in the UI's language
      apply = [message](UiState& ui) {
        ui.status = say(message);
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

void JobThread::cancel() {
  if (job_) job_->cancel = true;
}

float JobThread::progress() const {
  return job_ ? job_->progress.load() : 0.f;
}

std::string JobThread::label() const {
  return job_ ? job_->label : std::string();
}

std::string JobThread::stage() const {
  return job_ ? job_->stage.load() : "";
}

bool JobThread::poll(UiState& ui) {
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

void JobThread::wait() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace rlab::gui
