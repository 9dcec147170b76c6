// The simulator as a lesson backend: "device" memory is host memory, launches run on fibers.
#pragma once

#include <cstring>
#include <vector>

#include "kernels/sim/runtime.hpp"

namespace rlab {

class SimBackend {
 public:
  explicit SimBackend(sim::LaunchOptions options) : options_(options) {}

  template <class T>
  class Buffer {
   public:
    explicit Buffer(size_t count) : data_(count) {}
    T* get() { return data_.empty() ? nullptr : data_.data(); }
    const T* get() const { return data_.empty() ? nullptr : data_.data(); }
    size_t size() const { return data_.size(); }

   private:
    std::vector<T> data_;  // operator new: 16-byte aligned, enough for int4/float4 loads
  };

  template <class T>
  Buffer<T> alloc(size_t count) {
    return Buffer<T>(count);
  }
  template <class T>
  void upload(Buffer<T>& dst, const T* src, size_t count, size_t offset = 0) {
    if (count) std::memcpy(dst.get() + offset, src, count * sizeof(T));
  }
  template <class T>
  void download(T* dst, const Buffer<T>& src, size_t count, size_t offset = 0) {
    if (count) std::memcpy(dst, src.get() + offset, count * sizeof(T));
  }

  template <class... Params, class... Args>
  void launch(dim3 grid, dim3 block, void (*kernel)(Params...), Args... args) {
    sim::launch(grid, block, options_, [&] { kernel(args...); });
  }

  // The simulator runs one block at a time; two "SMs" keep grid-stride kernels honest, with
  // the thread slots of an H100's.
  long long multiprocessors() const { return 2; }
  int threadSlotsPerMultiprocessor() const { return 2048; }

 private:
  sim::LaunchOptions options_;
};

}  // namespace rlab
