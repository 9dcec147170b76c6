// The core (kernels/ and lessons/) must not include UI headers: the CLI and the GUI both link it.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>

TEST_CASE("the core includes no ImGui, GLFW or glad") {
  const std::regex uiInclude(R"(#\s*include\s*[<"](imgui|GLFW|glad))");
  int files = 0;
  for (const char* folder : {"kernels", "lessons"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(
             std::string(RLAB_SOURCE_DIR) + "/" + folder)) {
      if (!entry.is_regular_file()) continue;
      std::ifstream in(entry.path());
      std::string line;
      while (std::getline(in, line)) {
        CAPTURE(entry.path().string());
        CHECK_FALSE(std::regex_search(line, uiInclude));
      }
      ++files;
    }
  }
  CHECK(files > 10);
}
