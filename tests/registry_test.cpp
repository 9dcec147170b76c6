// Every lesson descriptor is complete: a driver on both backends for each variant, a kernel
// file that holds the kernel it names, its texts and a tour; unknown ids are refused.
#include <doctest/doctest.h>

#include <iterator>
#include <set>

#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"

using namespace rlab;

TEST_CASE("every lesson and variant has a driver, its kernel, texts and a tour stop") {
  REQUIRE(lessons().size() >= 7);
  for (const LessonInfo& lesson : lessons()) {
    CAPTURE(lesson.id);
    CHECK(lesson.defaultN >= 1);
    CHECK(lesson.defaultN <= lesson.maxN);
    const std::string* kernels = embeddedFile(lesson.kernelFile);
    REQUIRE(kernels != nullptr);
    REQUIRE(!lesson.variants.empty());
    for (const VariantInfo& variant : lesson.variants) {
      CAPTURE(variant.id);
      CHECK(simulatorHasDriver(variant.driver));
      if (gpuBackendBuilt()) CHECK(gpuHasDriver(variant.driver));
      CHECK(kernels->find("__global__ void " + variant.kernelFunction + "(") != std::string::npos);
      if (!variant.noLoadAddKernelFunction.empty())
        CHECK(kernels->find("__global__ void " + variant.noLoadAddKernelFunction + "(") !=
              std::string::npos);
      CHECK(variant.minBlock >= 1);
      CHECK(bool(variant.longestChain));
    }
    // The host code that launches it is embedded too, and launches every variant's kernel
    // (fastestReduce<T, Op, ...> with a recorder or without).
    const std::string* host = embeddedFile(lesson.hostFile);
    REQUIRE(host != nullptr);
    for (const VariantInfo& variant : lesson.variants)
      CHECK(host->find(variant.kernelFunction + "<T, Op") != std::string::npos);
    const std::string* text = embeddedFile(lesson.textFolder + "/en.md");
    REQUIRE(text != nullptr);
    CHECK(text->size() > 100);
    REQUIRE(!lesson.tour.empty());
    for (const TourStop& stop : lesson.tour) {
      CAPTURE(rlab::english(stop.why));
      CHECK(lesson.findVariant(stop.variant) != nullptr);
      CHECK_NOTHROW(resolve(tourStopParams(lesson, stop)));
      CHECK(!stop.why.empty());
    }
  }
}

TEST_CASE("a lesson or variant the registry lacks is refused with the ones there are") {
  Params p;
  p.lesson = "reduce-by-magic";
  try {
    runLesson(p);
    FAIL("an unknown lesson ran");
  } catch (const ParamError& e) {
    const std::string message = e.what();
    CHECK(message.find("reduce-by-magic") != std::string::npos);
    for (const LessonInfo& lesson : lessons()) CHECK(message.find(lesson.id) != std::string::npos);
  }
  p.lesson = "shared";
  p.variant = "magic";
  try {
    runLesson(p);
    FAIL("an unknown variant ran");
  } catch (const ParamError& e) {
    const std::string message = e.what();
    for (const VariantInfo& v : findLesson("shared")->variants)
      CHECK(message.find(v.id) != std::string::npos);
  }
}

TEST_CASE("each variant has a driver of its own, and the empty variant is the default") {
  std::set<DriverId> drivers;
  size_t variants = 0;
  for (const LessonInfo& lesson : lessons()) {
    for (const VariantInfo& variant : lesson.variants) {
      CAPTURE(lesson.id + " " + variant.id);
      CHECK(drivers.insert(variant.driver).second);
      CHECK(variant.offersSubtract == offersSubtract(variant.driver));
      ++variants;
    }
    CHECK(lesson.findVariant("") == &lesson.variants.front());
    Params p;
    p.lesson = lesson.id;
    CHECK(variantOf(p) == &lesson.variants.front());
    p.variant = lesson.variants.back().id;
    CHECK(variantOf(p) == &lesson.variants.back());
  }
  CHECK(drivers.size() == variants);
  CHECK(subtractRuns().size() == std::size(kSubtractRuns));
  Params unknown;
  unknown.lesson = "shared";
  unknown.variant = "magic";
  CHECK(variantOf(unknown) == nullptr);
  unknown.lesson = "reduce-by-magic";
  unknown.variant = "";
  CHECK(variantOf(unknown) == nullptr);
}
