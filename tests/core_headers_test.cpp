// The layout's rules, checked on the source tree: each folder includes only the folders below
// it (app -> lessons/engine -> kernels), one rule per folder; the files' includes make no
// circle; a lesson's folder holds only a lesson; no source file needs more than one sitting.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lessons/engine/registry.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kRoot = RLAB_SOURCE_DIR;

bool isSource(const fs::path& p) {
  const std::string e = p.extension().string();
  return e == ".cpp" || e == ".hpp" || e == ".cu" || e == ".cuh";
}

// Every project include ("a/b.hpp") of every source file under the folders, by the file's path
// from the root.
std::map<std::string, std::vector<std::string>> includesUnder(
    const std::vector<std::string>& folders) {
  static const std::regex include(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::map<std::string, std::vector<std::string>> all;
  for (const std::string& folder : folders)
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / folder)) {
      if (!entry.is_regular_file() || !isSource(entry.path())) continue;
      const std::string file = fs::relative(entry.path(), kRoot).generic_string();
      std::ifstream in(entry.path());
      auto& list = all[file];
      std::smatch m;
      for (std::string line; std::getline(in, line);)
        if (std::regex_search(line, m, include)) list.push_back(m[1]);
    }
  return all;
}

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// The folder rule a file falls under: the longest prefix of the table that it starts with.
struct FolderRule {
  std::string folder;                   // "lessons/engine/"
  std::vector<std::string> mayInclude;  // path prefixes; a regex where it starts with '^'
};

const std::vector<FolderRule>& folderRules() {
  static const std::vector<FolderRule> rules = {
      // CUDA on the CPU and the kernels: nothing above them.
      {"kernels/", {"kernels/"}},
      // The simulator's private half: the shim includes it, nobody else outside kernels/sim.
      {"kernels/sim/", {"kernels/"}},
      // A lesson: its driver sees the engine's driver support and the kernels.
      {"lessons/", {"kernels/", "lessons/engine/"}},
      // The engine: the kernels and itself; the drivers' table (drivers.hpp) and the backends
      // that compile it reach the lessons' drivers.
      {"lessons/engine/", {"kernels/", "lessons/engine/", "^lessons/[a-z]+/driver\\.hpp$"}},
      // The front ends: the engine below them, never each other.
      {"app/cli/", {"app/cli/", "lessons/engine/", "kernels/"}},
      {"app/gui/", {"app/gui/", "lessons/engine/", "kernels/"}},
      // The manual pages' generator: both front ends' command lines (the app's options only,
      // none of its drawing) and the engine's lists.
      {"app/docs/",
       {"app/docs/", "app/cli/", "^app/gui/options\\.hpp$", "lessons/engine/", "kernels/"}},
  };
  return rules;
}

const FolderRule* ruleFor(const std::string& file) {
  const FolderRule* best = nullptr;
  for (const FolderRule& r : folderRules())
    if (startsWith(file, r.folder) && (!best || r.folder.size() > best->folder.size())) best = &r;
  return best;
}

bool allowed(const FolderRule& rule, const std::string& included) {
  for (const std::string& p : rule.mayInclude)
    if (p[0] == '^' ? std::regex_search(included, std::regex(p)) : startsWith(included, p))
      return true;
  return false;
}

}  // namespace

TEST_CASE("layout: each folder includes only what its rule allows") {
  const auto includes = includesUnder({"kernels", "lessons", "app"});
  CHECK(includes.size() > 100);
  std::vector<std::string> broken;
  for (const auto& [file, list] : includes) {
    const FolderRule* rule = ruleFor(file);
    REQUIRE_MESSAGE(rule, file << " is under no folder rule");
    for (const std::string& included : list)
      if (!allowed(*rule, included)) broken.push_back(file + " includes " + included);
  }
  CHECK(broken == std::vector<std::string>{});
  // The rules bite: an include from the engine up into the app, or from kernels/ into the
  // engine, is refused.
  CHECK_FALSE(allowed(*ruleFor("lessons/engine/run/run.cpp"), "app/gui/app.hpp"));
  CHECK_FALSE(allowed(*ruleFor("kernels/common.cuh"), "lessons/engine/run/trace.hpp"));
  CHECK_FALSE(allowed(*ruleFor("lessons/folding/driver.hpp"), "lessons/shared/driver.hpp"));
  CHECK_FALSE(allowed(*ruleFor("app/cli/run.cpp"), "app/gui/app.hpp"));
}

TEST_CASE("layout: the core includes no ImGui, GLFW or glad") {
  const std::regex uiInclude(R"(#\s*include\s*[<"](imgui|GLFW|glad))");
  int files = 0;
  std::vector<std::string> found;
  for (const char* folder : {"kernels", "lessons"})
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / folder)) {
      if (!entry.is_regular_file() || !isSource(entry.path())) continue;
      ++files;
      std::ifstream in(entry.path());
      for (std::string line; std::getline(in, line);)
        if (std::regex_search(line, uiInclude))
          found.push_back(entry.path().string() + ": " + line);
    }
  CHECK(found == std::vector<std::string>{});
  CHECK(files > 10);
}

TEST_CASE("layout: the files' includes make no circle") {
  const auto includes = includesUnder({"kernels", "lessons", "app", "tests"});
  std::map<std::string, int> state;  // 1: on the path being walked, 2: done
  std::vector<std::string> path, circle;
  std::function<bool(const std::string&)> walk = [&](const std::string& file) {
    if (state[file] == 2) return false;
    if (state[file] == 1) {
      circle.assign(std::find(path.begin(), path.end(), file), path.end());
      circle.push_back(file);
      return true;
    }
    state[file] = 1;
    path.push_back(file);
    const auto found = includes.find(file);
    if (found != includes.end())
      for (const std::string& next : found->second)
        if (walk(next)) return true;
    path.pop_back();
    state[file] = 2;
    return false;
  };
  for (const auto& [file, list] : includes)
    if (walk(file)) break;
  CHECK(circle == std::vector<std::string>{});
}

TEST_CASE("layout: a lesson's folder holds only a lesson") {
  // Its driver, its chapter in each language, and its exercises (kernels and texts; the
  // solution also written with cooperative groups).
  const std::regex lessonFile(
      R"(^lessons/[a-z]+/(driver\.hpp|[a-z]{2}\.md|exercises/[a-z-]+/([a-z]{2}\.md|start\.cu|solution(-groups)?\.cu))$)");
  int files = 0;
  std::vector<std::string> strangers;
  for (const auto& entry : fs::directory_iterator(kRoot / "lessons")) {
    if (!entry.is_directory() || entry.path().filename() == "engine") continue;
    for (const auto& inside : fs::recursive_directory_iterator(entry.path())) {
      if (!inside.is_regular_file()) continue;
      ++files;
      const std::string file = fs::relative(inside.path(), kRoot).generic_string();
      if (!std::regex_match(file, lessonFile)) strangers.push_back(file);
    }
  }
  CHECK(strangers == std::vector<std::string>{});
  CHECK(files > 40);
}

TEST_CASE("layout: no source file is longer than 500 lines (a test's, 700)") {
  std::vector<std::string> long_;
  for (const char* folder : {"kernels", "lessons", "app", "tests"})
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / folder)) {
      if (!entry.is_regular_file() || !isSource(entry.path())) continue;
      std::ifstream in(entry.path());
      int lines = 0;
      for (std::string line; std::getline(in, line);) ++lines;
      if (lines > (std::string(folder) == "tests" ? 700 : 500))
        long_.push_back(fs::relative(entry.path(), kRoot).generic_string() + ": " +
                        std::to_string(lines) + " lines");
    }
  CHECK(long_ == std::vector<std::string>{});
}

// The lengths of the functions a file defines at namespace level (the house's style: such a
// function's signature starts in column 0 and its closing brace stands alone in column 0), by
// name, where longer than `most` lines; `measured` counts every function it measured.
std::vector<std::string> functionsLongerThan(const std::string& file, std::istream& in, int most,
                                             int* measured = nullptr) {
  static const std::regex opening(R"(^[A-Za-z_][^;(]*\b([A-Za-z_][A-Za-z_0-9]*)\(.*$)");
  std::vector<std::string> long_;
  std::string name;
  int start = 0, number = 0;
  bool opened = false;
  for (std::string line; std::getline(in, line);) {
    ++number;
    std::smatch m;
    if (name.empty()) {
      if (std::regex_match(line, m, opening) && !startsWith(line, "namespace") &&
          !startsWith(line, "struct") && !startsWith(line, "class"))
        name = m[1], start = number, opened = false;
      else
        continue;
    }
    if (line.find('{') != std::string::npos) opened = true;
    if (!opened && !line.empty() && line.back() == ';') name.clear();  // a declaration
    if (!name.empty() && line == "}") {
      if (measured) ++*measured;
      if (number - start + 1 > most)
        long_.push_back(file + ": " + name + " " + std::to_string(number - start + 1) + " lines");
      name.clear();
    }
  }
  return long_;
}

TEST_CASE("layout: no function is longer than 80 lines, but the tables") {
  // Tables of data read best whole: the lessons' and exercises' descriptors, the manual's text,
  // and the fastest kernel, which learners read as one.
  const std::set<std::string> tables = {"describeLessons", "describeExercises", "rlabText",
                                        "fastestReduce"};
  std::vector<std::string> long_;
  int functions = 0;
  for (const char* folder : {"kernels", "lessons", "app"})
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / folder)) {
      if (!entry.is_regular_file() || !isSource(entry.path())) continue;
      std::ifstream in(entry.path());
      const std::string file = fs::relative(entry.path(), kRoot).generic_string();
      for (const std::string& found : functionsLongerThan(file, in, 80, &functions)) {
        const std::string name =
            found.substr(file.size() + 2, found.find(' ', file.size() + 2) - file.size() - 2);
        if (!tables.count(name)) long_.push_back(found);
      }
    }
  for (const std::string& f : long_) MESSAGE(f);
  CHECK(long_ == std::vector<std::string>{});
  CHECK(functions > 1000);  // the measure finds the house's functions
  // The measure bites: a function of 81 lines is found, one of 80 is not.
  auto body = [](int lines) {
    std::string text = "int sum(int a) {\n";
    for (int k = 0; k < lines - 2; ++k) text += "  a += 1;\n";
    return text + "}\n";
  };
  std::istringstream over(body(81)), under(body(80));
  CHECK(functionsLongerThan("x.cpp", over, 80) == std::vector<std::string>{"x.cpp: sum 81 lines"});
  CHECK(functionsLongerThan("x.cpp", under, 80).empty());
}

// A string literal that is a lesson's, a variant's or a chapter's id, compared with ==, != or
// in a case: a fact about that lesson kept outside the registry.
std::vector<std::string> idComparisons(const std::string& file, std::istream& in,
                                       const std::set<std::string>& ids) {
  static const std::regex compared(R"re((==|!=)\s*"([a-z-]+)"|"([a-z-]+)"\s*(==|!=))re");
  std::vector<std::string> found;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::string code = line.substr(0, line.find("//"));
    for (std::sregex_iterator it(code.begin(), code.end(), compared), end; it != end; ++it) {
      const std::string id = (*it)[2].matched ? (*it)[2].str() : (*it)[3].str();
      if (ids.count(id)) found.push_back(file + ":" + std::to_string(number) + ": " + id);
    }
  }
  return found;
}

TEST_CASE("layout: lessons' and variants' ids are compared only in the registry and the lessons") {
  std::set<std::string> ids = {rlab::kBasicsChapter};
  for (const rlab::LessonInfo& lesson : rlab::lessons()) {
    ids.insert(lesson.id);
    for (const rlab::VariantInfo& variant : lesson.variants) ids.insert(variant.id);
  }
  std::vector<std::string> found;
  for (const char* folder : {"app", "lessons/engine"})
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / folder)) {
      if (!entry.is_regular_file() || !isSource(entry.path())) continue;
      const std::string file = fs::relative(entry.path(), kRoot).generic_string();
      if (startsWith(file, "lessons/engine/registry.")) continue;
      std::ifstream in(entry.path());
      for (const std::string& f : idComparisons(file, in, ids)) found.push_back(f);
    }
  for (const std::string& f : found) MESSAGE(f);
  CHECK(found == std::vector<std::string>{});
  // The look bites: the comparisons the registry replaced are found.
  std::istringstream old(
      "if (p.variant == \"ring\") x();\nif (\"butterfly\" != lesson) y(); // == \"shared\"\n");
  CHECK(idComparisons("x.cpp", old, ids) ==
        std::vector<std::string>{"x.cpp:1: ring", "x.cpp:2: butterfly"});
}

TEST_CASE("layout: only the simulator's own files include kernels/sim/detail/") {
  // What a kernel may use is shim.hpp's; the hooks behind it are the runtime's (HIP-CPU's
  // detail/ rule): kernels, lessons, the engine, the front ends and the tests include the shim.
  const auto includes = includesUnder({"kernels", "lessons", "app", "tests"});
  const std::regex ownFile(R"(^kernels/sim/(detail/[a-z_]+\.hpp|[a-z_]+\.cpp|shim\.hpp)$)");
  std::vector<std::string> outside;
  int inside = 0;
  for (const auto& [file, list] : includes)
    for (const std::string& included : list)
      if (startsWith(included, "kernels/sim/detail/")) {
        if (std::regex_match(file, ownFile))
          ++inside;
        else
          outside.push_back(file + " includes " + included);
      }
  CHECK(outside == std::vector<std::string>{});
  CHECK(inside >= 8);
}
