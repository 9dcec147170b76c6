// The CUDA device as a lesson backend. Every API call is checked; errors become one sentence.
#pragma once

#include <cuda_runtime.h>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/common.cuh"

#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/run/stdout_capture.hpp"

namespace rlab {

// After an illegal address or a kernel fault the CUDA context is unusable until the process
// ends: say so once and refuse GPU work from then on.
bool gpuBroken();
void markGpuBroken();

// Throws GpuUnavailable with a sentence saying what went wrong and what to do; `call` is the CUDA
// function whose status it is, named in the sentence.
void checkCuda(cudaError_t status, const char* call);

// Keeps the GPU busy for a moment, so that the events and kernels queued after it run back to
// back on the GPU: the time between two events is then the GPU's alone, without the host's
// launch overhead (several microseconds, as long as a small kernel itself).
void holdGpuWhileQueueing();

// Makes `device` current for a scope (-1: leaves the current one), then restores it.
class OnDevice {
 public:
  explicit OnDevice(int device) {
    if (device < 0) return;
    cudaGetDevice(&previous_);
    if (previous_ != device) cudaSetDevice(device);
  }
  ~OnDevice() {
    if (previous_ >= 0) cudaSetDevice(previous_);
  }
  OnDevice(const OnDevice&) = delete;
  OnDevice& operator=(const OnDevice&) = delete;

 private:
  int previous_ = -1;
};

// NCCL's all-reduce, the library opened at run time (lessons/engine/backends/gpu/ranks.cu). Codes
// as NCCL's.
enum class NcclType { Int32 = 2, Float32 = 7 };
enum class NcclOp { Sum = 0, Product = 1, Max = 2, Min = 3 };
template <class T>
constexpr NcclType ncclTypeOf() {
  return std::is_same<T, float>::value ? NcclType::Float32 : NcclType::Int32;
}
template <class Op>
constexpr NcclOp ncclOpOf() {
  return std::is_same<Op, MaxOp>::value       ? NcclOp::Max
         : std::is_same<Op, MinOp>::value     ? NcclOp::Min
         : std::is_same<Op, ProductOp>::value ? NcclOp::Product
                                              : NcclOp::Sum;
}

class GpuBackend {
 public:
  template <class T>
  class Buffer {
   public:
    // device -1: the current device; else that device (a rank of the allreduce lesson).
    explicit Buffer(size_t count, int device = -1) : count_(count), device_(device) {
      OnDevice on(device_);
      if (count) checkCuda(cudaMalloc(&data_, count * sizeof(T)), "cudaMalloc");
    }
    Buffer(Buffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)),
          count_(std::exchange(other.count_, 0)),
          device_(other.device_) {}
    Buffer& operator=(Buffer&& other) noexcept {
      std::swap(data_, other.data_);
      std::swap(count_, other.count_);
      std::swap(device_, other.device_);
      return *this;
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() {
      OnDevice on(device_);
      if (data_) cudaFree(data_);
    }
    T* get() { return data_; }
    const T* get() const { return data_; }
    size_t size() const { return count_; }

   private:
    T* data_ = nullptr;
    size_t count_ = 0;
    int device_ = -1;
  };

  GpuBackend();
  ~GpuBackend();

  LaunchLog launches;  // the launches of the run being traced

  // A GPU keeps no record of the order its atomics landed in: drivers rebuild it from values.
  static constexpr bool kRecordsAtomics = false;

  template <class T>
  Buffer<T> alloc(size_t count) {
    return Buffer<T>(count);
  }
  template <class T>
  void upload(Buffer<T>& dst, const T* src, size_t count, size_t offset = 0) {
    if (count)
      checkCuda(cudaMemcpy(dst.get() + offset, src, count * sizeof(T), cudaMemcpyHostToDevice),
                "cudaMemcpy");
  }
  template <class T>
  void download(T* dst, const Buffer<T>& src, size_t count, size_t offset = 0) {
    if (count)
      checkCuda(cudaMemcpy(dst, src.get() + offset, count * sizeof(T), cudaMemcpyDeviceToHost),
                "cudaMemcpy");
  }

  // Events around each launch only: kernelMs() adds up the kernels, not the host in between.
  // With capturePrintf(true), what the kernel prints is caught around the launch and its sync
  // (when the device's printf buffer reaches the host's stdout) and kept in printed().
  template <class... Params, class... Args>
  void launch(dim3 grid, dim3 block, void (*kernel)(Params...), Args... args) {
    timed(grid, block, [&] {
      kernel<<<grid, block>>>(args...);
      checkCuda(cudaGetLastError(), "cudaGetLastError");
    });
  }
  // launch() in thread block clusters of `cluster` blocks; a GPU before sm_90 has none, and
  // the run stops with GpuUnavailable's sentence.
  template <class... Params, class... Args>
  void launchInClusters(dim3 grid, dim3 block, dim3 cluster, void (*kernel)(Params...),
                        Args... args) {
    if (!clusters_) throw GpuUnavailable(clustersAbsent());
    timed(grid, block, [&] {
      cudaLaunchAttribute attribute{};
      attribute.id = cudaLaunchAttributeClusterDimension;
      attribute.val.clusterDim.x = cluster.x;
      attribute.val.clusterDim.y = cluster.y;
      attribute.val.clusterDim.z = cluster.z;
      cudaLaunchConfig_t config{};
      config.gridDim = grid;
      config.blockDim = block;
      config.attrs = &attribute;
      config.numAttrs = 1;
      checkCuda(cudaLaunchKernelEx(&config, kernel, args...), "cudaLaunchKernelEx");
    });
  }
  // Thread block clusters: compute capability 9.0 and later.
  bool hasClusters() const { return clusters_; }

  void capturePrintf(bool on) { capturePrintf_ = on; }
  const std::string& printed() const { return printed_; }
  // stdout could not be redirected (closed): what the kernel printed went wherever it goes.
  bool printedUncaught() const { return printedUncaught_; }

 private:
  // Events around what `queue` queues, and what it printed where asked.
  template <class Queue>
  void timed(dim3 grid, dim3 block, Queue&& queue) {
    launches.launched(grid.x, block.x);
    std::optional<StdoutCapture> capture;
    if (capturePrintf_) capture.emplace();
    holdGpuWhileQueueing();
    checkCuda(cudaEventRecord(start_), "cudaEventRecord");
    queue();
    checkCuda(cudaEventRecord(stop_), "cudaEventRecord");
    checkCuda(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    if (capture) {
      checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");  // the printf buffer, flushed
      printedUncaught_ = printedUncaught_ || !capture->capturing();
      printed_ += capture->finish();
    }
    float ms = 0;
    checkCuda(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    kernelMs_ += ms;
  }
  Message clustersAbsent() const;

 public:

  // ---- Several GPUs (lesson allreduce) ----
  // Rank r is the device r places after the current one, with its own stream; copies between
  // ranks run on the receiver's stream (cudaMemcpyPeerAsync, NVLink where there is one).
  static constexpr bool kHasNccl = true;
  // Throws GpuUnavailable with one sentence when fewer than two GPUs (or fewer than `ranks`)
  // are present. Turns on peer access between every pair that allows it.
  void openRanks(int ranks);
  template <class T>
  Buffer<T> allocOnRank(int rank, size_t count) {
    return Buffer<T>(count, ranks_[rank].device);
  }
  template <class T>
  void copyBetweenRanks(int toRank, T* to, int fromRank, const T* from, size_t count) {
    if (count)
      checkCuda(cudaMemcpyPeerAsync(to, ranks_[toRank].device, from, ranks_[fromRank].device,
                                    count * sizeof(T), ranks_[toRank].stream),
                "cudaMemcpyPeerAsync");
  }
  template <class... Params, class... Args>
  void launchOnRank(int rank, dim3 grid, dim3 block, void (*kernel)(Params...), Args... args) {
    launches.launched(grid.x, block.x);
    launches.note({{"rank", rank}});
    OnDevice on(ranks_[rank].device);
    kernel<<<grid, block, 0, ranks_[rank].stream>>>(args...);
    checkCuda(cudaGetLastError(), "cudaGetLastError");
  }
  // On the GPUs, not the host: every rank's stream waits for what every other one queued.
  void rankBarrier();
  void finishRanks();
  // Events on rank 0's stream around what is queued between them, after a barrier each.
  void startRankTimer();
  double stopRankTimerMs();
  // ncclAllReduce in place on every rank's buffer, one group; communicators made once.
  template <class T, class Op>
  void ncclAllReduce(const std::vector<T*>& buffers, size_t count) {
    std::vector<void*> pointers(buffers.begin(), buffers.end());
    ncclAllReduceVoid(pointers, count, ncclTypeOf<T>(), ncclOpOf<Op>());
  }
  Message ncclDescription();  // "NCCL 2.28.3 from /usr/lib/...": for the run's notes
  int deviceCount() const { return deviceCount_; }

  long long multiprocessors() const { return multiprocessors_; }
  int threadSlotsPerMultiprocessor() const { return threadSlotsPerMultiprocessor_; }
  double kernelMs() const { return kernelMs_; }
  void resetKernelTime() { kernelMs_ = 0; }
  const std::string& deviceName() const { return deviceName_; }
  // Name, compute capability and memory, for the controls and the run's header.
  const Message& description() const { return description_; }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  double kernelMs_ = 0;
  bool capturePrintf_ = false, printedUncaught_ = false;
  std::string printed_;
  int multiprocessors_ = 1;
  int threadSlotsPerMultiprocessor_ = 2048;
  bool clusters_ = false;
  std::string capability_;
  std::string deviceName_;
  Message description_;
  struct Rank {
    int device = 0;
    cudaStream_t stream = nullptr;
    cudaEvent_t queued = nullptr;  // for rankBarrier
  };
  std::vector<Rank> ranks_;
  int deviceCount_ = 0;
  cudaEvent_t rankStart_ = nullptr, rankStop_ = nullptr;
  void* ncclComms_ = nullptr;  // one communicator per rank (ncclComm_t[]), made on first use
  int ncclRanks_ = 0;
  void ncclAllReduceVoid(const std::vector<void*>& buffers, size_t count, NcclType type, NcclOp op);
  void closeRanks();
};

}  // namespace rlab
