// The layout's rules, checked on the source tree: the core (kernels/ and lessons/) includes no
// UI header, since the CLI and the GUI both link it; kernels/ holds the kernels and CUDA on the
// CPU only, so nothing there includes lessons/ or app/.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>

namespace {

// Every line of every file under the folder that matches; counts the files it read.
std::vector<std::string> matchingLines(const char* folder, const std::regex& pattern, int& files) {
  std::vector<std::string> found;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(RLAB_SOURCE_DIR) + "/" + folder)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);)
      if (std::regex_search(line, pattern)) found.push_back(entry.path().string() + ": " + line);
    ++files;
  }
  return found;
}

}  // namespace

TEST_CASE("the core includes no ImGui, GLFW or glad") {
  const std::regex uiInclude(R"(#\s*include\s*[<"](imgui|GLFW|glad))");
  int files = 0;
  for (const char* folder : {"kernels", "lessons"})
    CHECK(matchingLines(folder, uiInclude, files) == std::vector<std::string>{});
  CHECK(files > 10);
}

TEST_CASE("nothing under kernels/ includes lessons/ or app/") {
  const std::regex outward(R"(#\s*include\s*[<"](lessons|app)/)");
  int files = 0;
  CHECK(matchingLines("kernels", outward, files) == std::vector<std::string>{});
  CHECK(files >= 8);
  // The pattern itself finds such an include where there is one.
  int lessonFiles = 0;
  CHECK_FALSE(matchingLines("lessons", outward, lessonFiles).empty());
}

TEST_CASE("only the simulator's own files include kernels/sim/detail/") {
  // What a kernel may use is shim.hpp's; the hooks behind it are the runtime's (HIP-CPU's
  // detail/ rule): kernels, lessons, the engine, the front ends and the tests include the shim.
  const std::regex detailInclude(R"(#\s*include\s*"kernels/sim/detail/)");
  const std::regex ownFile(R"(/kernels/sim/(detail/[a-z_]+\.hpp|[a-z_]+\.cpp|shim\.hpp): )");
  int files = 0;
  std::vector<std::string> outside;
  for (const char* folder : {"kernels", "lessons", "app", "tests"})
    for (const std::string& line : matchingLines(folder, detailInclude, files))
      if (!std::regex_search(line, ownFile)) outside.push_back(line);
  CHECK(outside == std::vector<std::string>{});
  int simFiles = 0;
  CHECK(matchingLines("kernels/sim", detailInclude, simFiles).size() >= 8);
}
