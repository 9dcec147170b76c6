#include "lessons/engine/backends/gpu/timing.cuh"

namespace rlab {

namespace {

double measureCopyBandwidthGBs() {
  const size_t bytes = size_t(1) << 30;
  void *a = nullptr, *b = nullptr;
  checkCuda(cudaMalloc(&a, bytes), "cudaMalloc");
  checkCuda(cudaMalloc(&b, bytes), "cudaMalloc");
  checkCuda(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy");  // warm-up
  std::vector<double> ms;
  for (int k = 0; k < 10; ++k)
    ms.push_back(eventMs([&] { cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice); }));
  cudaFree(a);
  cudaFree(b);
  return 2.0 * bytes / (median(ms) * 1e6);
}

}  // namespace

double copyBandwidthGBs() {
  // Initialised once, also when two worker threads ask at the same time; a measurement that
  // throws leaves it to the next caller.
  static const double measured = measureCopyBandwidthGBs();
  return measured;
}

}  // namespace rlab
