// Several GPUs as the ranks of an all-reduce: peer access, a stream per rank, barriers on the
// GPUs, event timing, and NCCL opened at run time with our own few declarations of it.
#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include "lessons/engine/backends/gpu/backend.cuh"

namespace rlab {

// ---- NCCL, opened at run time ----------------------------------------------------------------
// No NCCL header at build time: the few types and functions used, as nccl.h declares them.

namespace {

using ncclComm_t = void*;
using ncclResult_t = int;  // ncclSuccess = 0
using CommInitAll = ncclResult_t (*)(ncclComm_t* comms, int ndev, const int* devlist);
using AllReduce = ncclResult_t (*)(const void* send, void* recv, size_t count, int datatype, int op,
                                   ncclComm_t comm, cudaStream_t stream);
using GroupCall = ncclResult_t (*)();
using CommDestroy = ncclResult_t (*)(ncclComm_t comm);
using GetErrorString = const char* (*)(ncclResult_t result);
using GetVersion = ncclResult_t (*)(int* version);

struct Nccl {
  void* handle = nullptr;
  std::string path;
  Message why;
  int version = 0;
  CommInitAll commInitAll = nullptr;
  AllReduce allReduce = nullptr;
  GroupCall groupStart = nullptr, groupEnd = nullptr;
  CommDestroy commDestroy = nullptr;
  GetErrorString errorString = nullptr;
  GetVersion getVersion = nullptr;
};

// Where it looks, in order: $RLAB_NCCL (the library or its folder), the CUDA toolkit's library
// folder, then the loader's own path (LD_LIBRARY_PATH, ld.so.cache).
const Nccl& nccl() {
  static Nccl lib;
  static std::once_flag once;
  std::call_once(once, [] {
    // NVLink multicast (NVLS) stays off, also if something set it on: a program that uses it
    // can take the host's shared GPUs out of service. Set before NCCL reads its environment.
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    std::vector<std::string> tries;
    if (const char* own = std::getenv("RLAB_NCCL"); own && *own) {
      const std::string p = own;
      tries.push_back(p.size() > 3 && p.find(".so") != std::string::npos ? p : p + "/libnccl.so.2");
    }
#ifdef RLAB_CUDA_LIBRARY_DIR
    tries.push_back(std::string(RLAB_CUDA_LIBRARY_DIR) + "/libnccl.so.2");
#endif
    tries.push_back("/usr/local/cuda/lib64/libnccl.so.2");
    tries.push_back("libnccl.so.2");
    std::string looked;
    for (const std::string& t : tries) {
      lib.handle = dlopen(t.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (lib.handle) {
        lib.path = t;
        break;
      }
      looked +=
          (looked.empty() ? "" : ", ") + (t == "libnccl.so.2" ? "LD_LIBRARY_PATH, ld.so.cache" : t);
    }
    if (!lib.handle) {
      lib.why = Message("note.allreduce.nccl-missing", {{"looked", looked}});
      return;
    }
    auto symbol = [&](const char* name) { return dlsym(lib.handle, name); };
    lib.commInitAll = reinterpret_cast<CommInitAll>(symbol("ncclCommInitAll"));
    lib.allReduce = reinterpret_cast<AllReduce>(symbol("ncclAllReduce"));
    lib.groupStart = reinterpret_cast<GroupCall>(symbol("ncclGroupStart"));
    lib.groupEnd = reinterpret_cast<GroupCall>(symbol("ncclGroupEnd"));
    lib.commDestroy = reinterpret_cast<CommDestroy>(symbol("ncclCommDestroy"));
    lib.errorString = reinterpret_cast<GetErrorString>(symbol("ncclGetErrorString"));
    lib.getVersion = reinterpret_cast<GetVersion>(symbol("ncclGetVersion"));
    if (!lib.commInitAll || !lib.allReduce || !lib.groupStart || !lib.groupEnd ||
        !lib.commDestroy || !lib.errorString || !lib.getVersion) {
      lib.why = Message("note.allreduce.nccl-unusable",
                        {{"path", lib.path},
                         {"functions",
                          "ncclCommInitAll, ncclAllReduce, ncclGroupStart, ncclGroupEnd, "
                          "ncclCommDestroy, ncclGetErrorString, ncclGetVersion"}});
      lib.handle = nullptr;
      return;
    }
    lib.getVersion(&lib.version);
  });
  return lib;
}

void checkNccl(ncclResult_t result, const char* call) {
  if (result == 0) return;
  throw GpuUnavailable(
      Message("gpu.nccl-failed", {{"call", call}, {"error", nccl().errorString(result)}}));
}

}  // namespace

// ---- The ranks -------------------------------------------------------------------------------

void GpuBackend::openRanks(int ranks) {
  if (deviceCount_ < 2)
    throw GpuUnavailable(Message("gpu.allreduce-needs-two", {{"gpus", deviceCount_}}));
  if (ranks > deviceCount_)
    throw GpuUnavailable(
        Message("gpu.allreduce-too-few", {{"asked", ranks}, {"gpus", deviceCount_}}));
  if (int(ranks_.size()) == ranks) return;
  closeRanks();
  int current = 0;
  checkCuda(cudaGetDevice(&current), "cudaGetDevice");
  for (int r = 0; r < ranks; ++r) {
    Rank rank;
    rank.device = (current + r) % deviceCount_;
    OnDevice on(rank.device);
    checkCuda(cudaStreamCreateWithFlags(&rank.stream, cudaStreamNonBlocking),
              "cudaStreamCreateWithFlags");
    checkCuda(cudaEventCreateWithFlags(&rank.queued, cudaEventDisableTiming),
              "cudaEventCreateWithFlags");
    ranks_.push_back(rank);
  }
  for (const Rank& a : ranks_)
    for (const Rank& b : ranks_) {
      if (a.device == b.device) continue;
      int can = 0;
      checkCuda(cudaDeviceCanAccessPeer(&can, a.device, b.device), "cudaDeviceCanAccessPeer");
      if (!can) continue;  // copies then go through the host, slower but right
      OnDevice on(a.device);
      const cudaError_t status = cudaDeviceEnablePeerAccess(b.device, 0);
      if (status == cudaErrorPeerAccessAlreadyEnabled)
        cudaGetLastError();
      else
        checkCuda(status, "cudaDeviceEnablePeerAccess");
    }
  OnDevice on(ranks_[0].device);
  checkCuda(cudaEventCreate(&rankStart_), "cudaEventCreate");
  checkCuda(cudaEventCreate(&rankStop_), "cudaEventCreate");
}

void GpuBackend::rankBarrier() {
  for (const Rank& r : ranks_) {
    OnDevice on(r.device);
    checkCuda(cudaEventRecord(r.queued, r.stream), "cudaEventRecord");
  }
  for (const Rank& r : ranks_)
    for (const Rank& other : ranks_)
      if (&r != &other)
        checkCuda(cudaStreamWaitEvent(r.stream, other.queued, 0), "cudaStreamWaitEvent");
}

void GpuBackend::finishRanks() {
  for (const Rank& r : ranks_) checkCuda(cudaStreamSynchronize(r.stream), "cudaStreamSynchronize");
}

void GpuBackend::startRankTimer() {
  rankBarrier();
  OnDevice on(ranks_[0].device);
  checkCuda(cudaEventRecord(rankStart_, ranks_[0].stream), "cudaEventRecord");
}

double GpuBackend::stopRankTimerMs() {
  rankBarrier();
  OnDevice on(ranks_[0].device);
  checkCuda(cudaEventRecord(rankStop_, ranks_[0].stream), "cudaEventRecord");
  checkCuda(cudaEventSynchronize(rankStop_), "cudaEventSynchronize");
  float ms = 0;
  checkCuda(cudaEventElapsedTime(&ms, rankStart_, rankStop_), "cudaEventElapsedTime");
  return ms;
}

void GpuBackend::ncclAllReduceVoid(const std::vector<void*>& buffers, size_t count, NcclType type,
                                   NcclOp op) {
  const Nccl& lib = nccl();
  if (!lib.handle) throw GpuUnavailable(lib.why);
  if (!ncclComms_ || ncclRanks_ != int(ranks_.size())) {
    std::vector<int> devices;
    for (const Rank& r : ranks_) devices.push_back(r.device);
    auto* comms = new ncclComm_t[ranks_.size()]();
    const ncclResult_t made = lib.commInitAll(comms, int(ranks_.size()), devices.data());
    if (made != 0) {
      delete[] comms;
      checkNccl(made, "ncclCommInitAll");
    }
    ncclComms_ = comms;
    ncclRanks_ = int(ranks_.size());
  }
  auto* comms = static_cast<ncclComm_t*>(ncclComms_);
  // The ranks' streams are ready when every rank's earlier work is: NCCL's kernels queue after.
  rankBarrier();
  checkNccl(lib.groupStart(), "ncclGroupStart");
  for (size_t r = 0; r < ranks_.size(); ++r)
    checkNccl(lib.allReduce(buffers[r], buffers[r], count, int(type), int(op), comms[r],
                            ranks_[r].stream),
              "ncclAllReduce");
  checkNccl(lib.groupEnd(), "ncclGroupEnd");
}

Message GpuBackend::ncclDescription() {
  const Nccl& lib = nccl();
  if (!lib.handle) return lib.why;
  const int v = lib.version;  // 22803 for 2.28.3 (major * 10000 + minor * 100 + patch)
  return Message("note.allreduce.nccl-library",
                 {{"version", std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) +
                                  "." + std::to_string(v % 100)},
                  {"path", lib.path}});
}

void GpuBackend::closeRanks() {
  if (ncclComms_) {
    auto* comms = static_cast<ncclComm_t*>(ncclComms_);
    for (int r = 0; r < ncclRanks_; ++r) nccl().commDestroy(comms[r]);
    delete[] comms;
    ncclComms_ = nullptr;
    ncclRanks_ = 0;
  }
  for (Rank& r : ranks_) {
    OnDevice on(r.device);
    if (r.stream) cudaStreamSynchronize(r.stream);
    if (r.stream) cudaStreamDestroy(r.stream);
    if (r.queued) cudaEventDestroy(r.queued);
  }
  ranks_.clear();
  if (rankStart_) cudaEventDestroy(rankStart_);
  if (rankStop_) cudaEventDestroy(rankStop_);
  rankStart_ = rankStop_ = nullptr;
}

}  // namespace rlab
