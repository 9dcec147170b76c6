// The simulator backend's device memory: buffers aligned for vector loads, a poisoned guard zone
// after the last element (reads past the end show, writes past the end stop the run), no
// lesson kernel that touches it, and a stripped program's kernels refused.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

// Kernel code below is CUDA, compiled through the shim, exactly as kernels/*.cuh are.
#include "kernels/sim/shim.hpp"
#include "kernels/sim/runtime.hpp"  // the host side: launch, options, errors
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/backends/sim/backend.hpp"
#include "tests/temp_folder.hpp"

using rlab::SimBackend;

namespace {

__global__ void copyWithOffset(const int* in, int* out, int offset) {
  out[threadIdx.x] = in[threadIdx.x + offset];
}

__global__ void writeAt(int* out, int index) {
  if (threadIdx.x == 0) out[index] = 42;
}

__global__ void loadVectors(const float* in, float* out) {
  const float4 v = reinterpret_cast<const float4*>(in)[threadIdx.x];
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

SimBackend backend() {
  return SimBackend(rlab::sim::LaunchOptions{});
}

std::string launchError(SimBackend& b, SimBackend::Buffer<int>& out, int index) {
  try {
    b.launch(dim3(1), dim3(32), writeAt, out.get(), index);
  } catch (const rlab::sim::LaunchError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("sim buffers: zeroed, aligned for 16-byte loads, and poison after the last element") {
  SimBackend b = backend();
  for (size_t count : {1, 3, 5, 1000}) {
    CAPTURE(count);
    auto ints = b.alloc<int>(count);
    auto floats = b.alloc<float>(count);
    CHECK(ints.size() == count);
    CHECK(reinterpret_cast<uintptr_t>(ints.get()) % 16 == 0);
    CHECK(reinterpret_cast<uintptr_t>(floats.get()) % 16 == 0);
    for (size_t i = 0; i < count; ++i) CHECK(ints.get()[i] == 0);
    // The guard zone: 1024 elements of the shared-memory poison.
    for (size_t i = count; i < count + 1024; i += 97) {
      CHECK(ints.get()[i] == 2139062143);
      CHECK(floats.get()[i] > 3.3e38f);
    }
  }
  auto empty = b.alloc<int>(0);
  CHECK(empty.get() == nullptr);
  CHECK(empty.size() == 0);
}

TEST_CASE("sim buffers: a kernel reading past the end gets the poison") {
  SimBackend b = backend();
  auto in = b.alloc<int>(30);
  auto out = b.alloc<int>(32);
  const std::vector<int> host(30, 5);
  b.upload(in, host.data(), host.size());
  b.launch(dim3(1), dim3(32), copyWithOffset, (const int*)in.get(), out.get(), 0);
  std::vector<int> seen(32);
  b.download(seen.data(), out, seen.size());
  CHECK(seen[29] == 5);
  CHECK(seen[30] == 2139062143);
  CHECK(seen[31] == 2139062143);
}

TEST_CASE("sim buffers: a write past the end stops the run with one sentence") {
  SimBackend b = backend();
  auto out = b.alloc<int>(5);
  CHECK(launchError(b, out, 4) == "no error");
  CHECK(launchError(b, out, 7) ==
        "a kernel launched with 1 block of 32 threads wrote past the end of a buffer of 5 ints "
        "(indices 0 to 4): element 7 is the first one written past the end.");
  // Reported once: the guard is whole again for the next launch.
  CHECK(launchError(b, out, 3) == "no error");
  // A buffer moved elsewhere is still watched.
  SimBackend::Buffer<int> moved = std::move(out);
  CHECK(launchError(b, moved, 5).find("element 5 is the first") != std::string::npos);
  // A buffer freed is not.
  { auto gone = b.alloc<int>(2); }
  CHECK(launchError(b, moved, 0) == "no error");
}

TEST_CASE("sim buffers: copies outside a buffer are refused") {
  SimBackend b = backend();
  auto buffer = b.alloc<int>(4);
  std::vector<int> host(8);
  CHECK_THROWS_AS(b.upload(buffer, host.data(), 5), std::out_of_range);
  CHECK_THROWS_AS(b.download(host.data(), buffer, 2, 3), std::out_of_range);
  CHECK_NOTHROW(b.download(host.data(), buffer, 2, 2));
}

TEST_CASE("sim buffers: whole vectors load within the buffer") {
  SimBackend b = backend();
  auto in = b.alloc<float>(4 * 32);
  auto out = b.alloc<float>(32);
  const std::vector<float> host(4 * 32, 0.5f);
  b.upload(in, host.data(), host.size());
  b.launch(dim3(1), dim3(32), loadVectors, (const float*)in.get(), out.get());
  std::vector<float> sums(32);
  b.download(sums.data(), out, sums.size());
  CHECK(sums == std::vector<float>(32, 2.0f));
}

// Every lesson kernel at sizes that end mid-vector (fastest's int4/float4 loads), mid-warp and
// mid-block, at the smallest and the largest block: a read past n would add the poison, a
// write past the end would stop the run.
TEST_CASE("no lesson kernel reads or writes past the end of a buffer") {
  for (const rlab::LessonInfo& lesson : rlab::lessons()) {
    for (const rlab::VariantInfo& variant : lesson.variants) {
      for (int64_t n : {1, 5, 6, 7, 33, 1023, 1025, 4101}) {
        if (n > lesson.maxN) continue;
        for (int block : {0, 1024}) {
          for (rlab::ElementType type : {rlab::ElementType::Int, rlab::ElementType::Float}) {
            rlab::Params p;
            p.lesson = lesson.id;
            p.variant = variant.id;
            p.n = n;
            p.block = block;
            p.type = type;
            p.data = "ones";
            p.trace = n < 100;
            const std::string what = lesson.id + " " + variant.id + " n=" + std::to_string(n) +
                                     " block " + std::to_string(block) + " " + rlab::name(type);
            CAPTURE(what);
            rlab::Trace t;
            CHECK_NOTHROW(t = rlab::runLesson(p));
            // allreduce: element 0 of rank 0, the ones of every GPU added up.
            CHECK(t.result == double(lesson.defaultGpus > 0 ? t.params.gpus : n));
          }
        }
      }
    }
  }
}

TEST_CASE("a stripped rlab refuses its kernels in one sentence instead of poisoning itself") {
  // The simulator finds a kernel's __shared__ variables by name in the symbol table (the
  // package keeps it); without one it cannot tell them from the program's own thread-locals.
  TempFolder folder("stripped");
  const std::string copy = (folder / "rlab").string();
  const std::string errors = (folder / "errors").string();
  REQUIRE(std::system(("strip -o '" + copy + "' '" + RLAB_CLI_BINARY + "'").c_str()) == 0);
  const int status =
      std::system(("'" + copy + "' run shared --n 64 > /dev/null 2> '" + errors + "'").c_str());
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) != 0);
  std::ifstream in(errors);
  const std::string said((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(said.find("has no symbol table (it was stripped)") != std::string::npos);
  CHECK(std::count(said.begin(), said.end(), '\n') == 1);
}
