// Every lesson kernel compiled by nvcc, run by the same lesson drivers as on the simulator,
// plus what only a GPU has: timings, the copy roofline, and CUB to compare with.
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "kernels/gpu/backend.cuh"
#include "lessons/bench.hpp"
#include "lessons/dispatch.hpp"

namespace rlab {

// ---- Errors ------------------------------------------------------------------------------------

namespace {
bool g_broken = false;
}

bool gpuBroken() {
  return g_broken;
}
void markGpuBroken() {
  g_broken = true;
}

void checkCuda(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  const std::string during = std::string(" (while ") + what + ").";
  switch (status) {
    case cudaErrorNoDevice:
      throw GpuUnavailable("No CUDA device is present" + during);
    case cudaErrorInsufficientDriver:
      throw GpuUnavailable(
          "The NVIDIA driver is older than this build's CUDA runtime; update "
          "the driver" +
          during);
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
      throw GpuUnavailable(
          "This build has no kernel image for this GPU's architecture; "
          "rebuild with CMAKE_CUDA_ARCHITECTURES set to it" +
          during);
    case cudaErrorMemoryAllocation:
      throw GpuUnavailable("The GPU is out of memory for this n; try a smaller --n" + during);
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
      markGpuBroken();
      throw GpuUnavailable(std::string("A kernel failed on the GPU: ") +
                           cudaGetErrorString(status) +
                           "; GPU use ends for this process, your settings are kept" + during);
    default:
      throw GpuUnavailable(std::string("CUDA error: ") + cudaGetErrorString(status) + during);
  }
}

namespace {

// Longer than the host takes to queue an event, CUB's two launches and another event.
constexpr long long kHoldNanoseconds = 100'000;

__global__ void spinFor(long long nanoseconds) {
  long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  while (now - start < nanoseconds);
}

}  // namespace

void holdGpuWhileQueueing() {
  spinFor<<<1, 1>>>(kHoldNanoseconds);
  checkCuda(cudaGetLastError(), "launching a kernel");
}

GpuBackend::GpuBackend() {
  if (gpuBroken())
    throw GpuUnavailable("GPU use ended earlier in this process after a kernel failed.");
  int driver = 0;
  cudaDriverGetVersion(&driver);
  if (driver == 0)
    throw GpuUnavailable("No NVIDIA driver is installed here, so no CUDA device can run.");
  int count = 0;
  checkCuda(cudaGetDeviceCount(&count), "looking for a CUDA device");
  if (count == 0) throw GpuUnavailable("No CUDA device is present.");
  int device = 0;
  checkCuda(cudaGetDevice(&device), "choosing the device");
  cudaDeviceProp prop{};
  checkCuda(cudaGetDeviceProperties(&prop, device), "reading the device's properties");
  deviceName_ = prop.name;
  multiprocessors_ = prop.multiProcessorCount;
  checkCuda(cudaEventCreate(&start_), "creating an event");
  checkCuda(cudaEventCreate(&stop_), "creating an event");
}

GpuBackend::~GpuBackend() {
  if (start_) cudaEventDestroy(start_);
  if (stop_) cudaEventDestroy(stop_);
}

bool gpuBackendBuilt() {
  return true;
}

bool gpuUsable(std::string* why) {
  try {
    GpuBackend probe;
    return true;
  } catch (const GpuUnavailable& e) {
    if (why) *why = e.what();
    return false;
  }
}

// ---- Measurements -------------------------------------------------------------------------------

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

template <class F>
double eventMs(F&& work) {
  cudaEvent_t start, stop;
  checkCuda(cudaEventCreate(&start), "creating an event");
  checkCuda(cudaEventCreate(&stop), "creating an event");
  holdGpuWhileQueueing();
  checkCuda(cudaEventRecord(start), "recording an event");
  work();
  checkCuda(cudaEventRecord(stop), "recording an event");
  checkCuda(cudaEventSynchronize(stop), "timing");
  float ms = 0;
  checkCuda(cudaEventElapsedTime(&ms, start, stop), "timing");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

// Device-to-device copy bandwidth, reads plus writes, measured once per process.
double copyBandwidthGBs() {
  static double measured = 0;
  if (measured > 0) return measured;
  const size_t bytes = size_t(1) << 30;
  void *a = nullptr, *b = nullptr;
  checkCuda(cudaMalloc(&a, bytes), "allocating the copy test");
  checkCuda(cudaMalloc(&b, bytes), "allocating the copy test");
  checkCuda(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice), "copying");  // warm-up
  std::vector<double> ms;
  for (int k = 0; k < 10; ++k)
    ms.push_back(eventMs([&] { cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice); }));
  cudaFree(a);
  cudaFree(b);
  measured = 2.0 * bytes / (median(ms) * 1e6);
  return measured;
}

template <class Op>
struct CubOp {
  template <class T>
  __device__ T operator()(T a, T b) const {
    return Op::apply(a, b);
  }
};

// cub::DeviceReduce on one input, its workspace allocated once.
template <class T, class Op>
class CubReduce {
 public:
  CubReduce(const T* in, long long n) : in_(in), n_(n) {
    checkCuda(cudaMalloc(&out_, sizeof(T)), "allocating CUB's result");
    try {
      cub::DeviceReduce::Reduce(nullptr, tempBytes_, in_, out_, n_, CubOp<Op>{},
                                Op::template identity<T>());
      checkCuda(cudaMalloc(&temp_, tempBytes_), "allocating CUB's workspace");
      runMs();  // warm-up
    } catch (...) {
      cudaFree(temp_);
      cudaFree(out_);
      throw;
    }
  }
  ~CubReduce() {
    cudaFree(temp_);
    cudaFree(out_);
  }
  CubReduce(const CubReduce&) = delete;
  CubReduce& operator=(const CubReduce&) = delete;

  double runMs() {
    return eventMs([&] {
      cub::DeviceReduce::Reduce(temp_, tempBytes_, in_, out_, n_, CubOp<Op>{},
                                Op::template identity<T>());
    });
  }
  double medianMs(int reps) {
    std::vector<double> ms;
    for (int k = 0; k < reps; ++k) ms.push_back(runMs());
    return median(ms);
  }

 private:
  const T* in_;
  long long n_;
  T* out_ = nullptr;
  void* temp_ = nullptr;
  size_t tempBytes_ = 0;
};

template <class T, class Op>
double cpuLoopMs(const std::vector<T>& host) {
  const auto start = std::chrono::steady_clock::now();
  T acc = Op::template identity<T>();
  for (const T& v : host) acc = Op::apply(acc, v);
  volatile T sink = acc;
  (void)sink;
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// Lessons whose kernels reduce the array in place.
bool modifiesInput(const Params& p) {
  return p.lesson == "folding" || p.lesson == "barrier" ||
         (p.lesson == "shared" && p.variant == "global");
}

struct SideBySide {
  double lessonMs = 0;
  double cubMs = 0;
};

// Kernel-only times of the lesson and of CUB on the same input, medians over `reps` after a
// warm-up. The two alternate run by run, so that clock and temperature drift touch both alike.
// In-place lessons get a fresh copy of the input before every run, outside the timed launches;
// the others read the same buffer as CUB does (a copy just before would leave the L2 cache full
// of dirty lines that the timed kernel then has to write back).
template <class T, class Op>
SideBySide lessonAndCubMs(GpuBackend& b, const Params& p, GpuBackend::Buffer<T>& base,
                          GpuBackend::Buffer<T>& work, CubReduce<T, Op>& cub, int reps) {
  std::vector<double> lesson, library;
  const bool inPlace = modifiesInput(p);
  for (int k = -1; k < reps; ++k) {
    if (inPlace)
      checkCuda(
          cudaMemcpy(work.get(), base.get(), size_t(p.n) * sizeof(T), cudaMemcpyDeviceToDevice),
          "restoring the input");
    b.resetKernelTime();
    driveLesson<GpuBackend, T, Op>(b, p, inPlace ? work : base, false);
    const double cubMs = cub.runMs();
    if (k < 0) continue;
    lesson.push_back(b.kernelMs());
    library.push_back(cubMs);
  }
  return {median(lesson), median(library)};
}

int repetitionsFor(long long n) {
  return n >= (1 << 26) ? 20 : n >= (1 << 20) ? 30 : 50;
}

template <class T, class Op>
Timings timeRun(GpuBackend& b, const Params& p, const std::vector<double>& input) {
  Timings t;
  const std::vector<T> host(input.begin(), input.end());
  auto base = b.alloc<T>(host.size()), work = b.alloc<T>(host.size());
  b.upload(base, host.data(), host.size());
  t.repetitions = repetitionsFor(p.n);
  CubReduce<T, Op> cub(base.get(), p.n);
  const SideBySide side = lessonAndCubMs<T, Op>(b, p, base, work, cub, t.repetitions);
  t.kernelMs = side.lessonMs;
  t.cubMs = side.cubMs;
  // With copies: the input up, the lesson, the result down.
  std::vector<double> total;
  for (int k = 0; k < 3; ++k) {
    const auto start = std::chrono::steady_clock::now();
    b.upload(work, host.data(), host.size());
    const T result = driveLesson<GpuBackend, T, Op>(b, p, work, false).result;
    (void)result;
    total.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  t.withCopiesMs = median(total);
  t.gbPerSecond = double(p.n) * sizeof(T) / (t.kernelMs * 1e6);
  t.copyFraction = t.gbPerSecond / copyBandwidthGBs();
  t.cpuMs = cpuLoopMs<T, Op>(host);
  t.cubRatio = t.cubMs / t.kernelMs;
  t.measured = true;
  return t;
}

template <class T>
Timings timeRunWithOp(GpuBackend& b, const Params& p, const std::vector<double>& input) {
  switch (p.op) {
    case Op::Sum:
      return timeRun<T, SumOp>(b, p, input);
    case Op::Max:
      return timeRun<T, MaxOp>(b, p, input);
    case Op::Min:
      return timeRun<T, MinOp>(b, p, input);
    case Op::Product:
      return timeRun<T, ProductOp>(b, p, input);
  }
  return {};
}

}  // namespace

RunOutput runOnGpu(const Params& p, const std::vector<double>& input, bool trace) {
  GpuBackend backend;
  RunOutput out = runOnBackend(backend, p, input, trace);
  out.device = backend.deviceName();
  // The barrier lesson is about a race, not speed; everything else is timed.
  if (p.timed && p.lesson != "barrier")
    out.timings = p.type == ElementType::Int ? timeRunWithOp<int>(backend, p, input)
                                             : timeRunWithOp<float>(backend, p, input);
  return out;
}

// ---- rlab bench ---------------------------------------------------------------------------------

namespace {

template <class T>
std::vector<BenchRow> benchSizeTyped(
    GpuBackend& b, long long n, const std::vector<std::pair<std::string, std::string>>& kernels,
    int reps, const BenchProgress& progress) {
  std::vector<BenchRow> rows;
  std::vector<T> host(static_cast<size_t>(n));
  for (size_t i = 0; i < host.size(); ++i) host[i] = T(int(i % 7));  // small: sums stay exact
  auto base = b.alloc<T>(host.size()), work = b.alloc<T>(host.size());
  b.upload(base, host.data(), host.size());
  const double copyGBs = copyBandwidthGBs();
  CubReduce<T, SumOp> cub(base.get(), n);
  const double cubMs = cub.medianMs(reps);
  // A lesson's ratio compares it with the CUB runs that alternated with its own.
  auto row = [&](const std::string& name, double ms, double cubSideBySideMs) {
    BenchRow r;
    r.kernel = name;
    r.n = n;
    r.ms = ms;
    r.gbPerSecond = double(n) * sizeof(T) / (ms * 1e6);
    r.copyFraction = r.gbPerSecond / copyGBs;
    r.cubRatio = cubSideBySideMs / ms;
    return r;
  };
  {
    BenchRow cpu = row("cpu loop", cpuLoopMs<T, SumOp>(host), cubMs);
    rows.push_back(cpu);
  }
  rows.push_back(row("cub", cubMs, cubMs));
  for (const auto& [lesson, variant] : kernels) {
    if (progress && !progress(lesson + " " + variant, n)) break;
    Params p;
    p.lesson = lesson;
    p.variant = variant;
    p.n = n;
    p.type = std::is_same<T, int>::value ? ElementType::Int : ElementType::Float;
    p.block = 256;
    const SideBySide side = lessonAndCubMs<T, SumOp>(b, p, base, work, cub, reps);
    rows.push_back(
        row(variant == "default" ? lesson : lesson + " " + variant, side.lessonMs, side.cubMs));
  }
  // The copy roofline for this size: reading n elements at copy speed.
  BenchRow copy =
      row("copy (read n at copy speed)", double(n) * sizeof(T) / (copyGBs * 1e6), cubMs);
  rows.push_back(copy);
  return rows;
}

}  // namespace

std::vector<BenchRow> benchGpu(const BenchRequest& request, const BenchProgress& progress,
                               std::string& device) {
  GpuBackend b;
  device = b.deviceName();
  std::vector<BenchRow> rows;
  for (long long n : request.sizes) {
    auto part = request.type == ElementType::Int
                    ? benchSizeTyped<int>(b, n, request.kernels, request.reps, progress)
                    : benchSizeTyped<float>(b, n, request.kernels, request.reps, progress);
    rows.insert(rows.end(), part.begin(), part.end());
  }
  return rows;
}

}  // namespace rlab
