#include "lessons/engine/exercise_runner/gpu_device.hpp"

#include "lessons/engine/exercise_runner/drivers.hpp"

namespace rlab::exercise {

WholeReduction::WholeReduction(const Exercise& e, Gpu& gpu, const std::vector<int>& host, int block)
    : e_(e), gpu_(gpu), n_((long long)host.size()), block_(block), input_(gpu, host.size()) {
  input_.upload(host);
  switch (e.shape) {
    case ExerciseShape::AtomicResult:
      grid_ = blocksFor(n_, (long long)block * e.perThread);
      if (e.gridStride)
        grid_ = std::min(grid_, gpu.multiprocessors * gpu.threadsPerMultiprocessor / block);
      out_.push_back(std::make_unique<DeviceInts>(gpu, 1));
      break;
    case ExerciseShape::BlockPartials:
      for (long long len = n_; len > 1 || out_.empty(); len = blocksFor(len, block)) {
        lengths_.push_back(len);
        out_.push_back(std::make_unique<DeviceInts>(gpu, size_t(blocksFor(len, block))));
      }
      break;
    case ExerciseShape::FoldStep:
      out_.push_back(std::make_unique<DeviceInts>(gpu, host.size()));
      break;
    default:
      break;
  }
}

void WholeReduction::prepare() {
  if (e_.shape == ExerciseShape::AtomicResult) out_.front()->fill(identityOf(e_.op));
  if (e_.shape == ExerciseShape::FoldStep) out_.front()->copyFrom(input_, size_t(n_));
}

void WholeReduction::queue() {
  long long count = n_;
  switch (e_.shape) {
    case ExerciseShape::AtomicResult:
      queueLaunch(gpu_, grid_, block_, &input_.ptr(), &count, &out_.front()->ptr());
      break;
    case ExerciseShape::BlockPartials: {
      CUdeviceptr source = input_.ptr();
      for (size_t pass = 0; pass < out_.size(); ++pass) {
        long long len = lengths_[pass];
        queueLaunch(gpu_, blocksFor(len, block_), block_, &source, &len, &out_[pass]->ptr());
        source = out_[pass]->ptr();
      }
      break;
    }
    case ExerciseShape::FoldStep:
      for (long long len = n_; len > 1; len -= len / 2)
        queueLaunch(gpu_, blocksFor(len - len / 2, block_), block_, &out_.front()->ptr(), &len);
      break;
    default:
      break;
  }
}

int WholeReduction::result() {
  waitForGpu(gpu_);
  return out_.back()->download(1)[0];
}

}  // namespace rlab::exercise
