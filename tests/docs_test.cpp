// The manual pages and rlab's bash completion, as the build wrote them, name every option of
// every command the programs take (both are generated from the option objects by rlab-docs;
// this reads the files themselves), and the completion offers lessons, variants and values
// that the programs accept.
#include <doctest/doctest.h>

#include <CLI/CLI.hpp>
#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/cli/cli.hpp"
#include "app/docs/command_line_docs.hpp"
#include "lessons/engine/registry.hpp"
#ifdef RLAB_GUI_BINARY
#include "app/gui/options.hpp"
#endif

namespace {

using rlab::docs::CommandInfo;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream all;
  all << in.rdbuf();
  return all.str();
}

// A command's part of the page: from its .SS heading to the next heading (a page with one
// command: its OPTIONS section).
std::string sectionOf(const std::string& page, const CommandInfo& command, bool several) {
  const std::string heading =
      several ? ".SS \"" + rlab::docs::roff(command.name()) + "\"\n" : ".SH OPTIONS\n";
  const size_t start = page.find(heading);
  if (start == std::string::npos) return "";
  const size_t end = std::min(page.find("\n.SS ", start + 1), page.find("\n.SH ", start + 1));
  return page.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// "rlab run: --n" for every option of every command the page does not show in its section.
std::vector<std::string> missingFromPage(const std::vector<CommandInfo>& commands,
                                         const std::string& page) {
  std::vector<std::string> missing;
  for (const CommandInfo& command : commands) {
    const std::string section = sectionOf(page, command, commands.size() > 1);
    for (const CLI::Option* option : command.options) {
      // An item of the section's list: ".TP", then the option's names in bold (a positional's
      // NAME in italics).
      const std::string name = rlab::docs::optionName(*option);
      std::string names;
      for (const std::string& s : option->get_snames())
        names += (names.empty() ? "" : ", ") + ("-" + s);
      for (const std::string& l : option->get_lnames())
        names += (names.empty() ? "" : ", ") + ("--" + l);
      const std::string shown = option->get_positional()
                                    ? ".TP\n\\fI" + name + "\\fR"
                                    : ".TP\n\\fB" + rlab::docs::roff(names) + "\\fR";
      if (section.find(shown) == std::string::npos ||
          section.find(rlab::docs::roff(option->get_description())) == std::string::npos)
        missing.push_back(command.name() + ": " + name);
    }
  }
  return missing;
}

// The same for the completion: each command's case offers each of its options.
std::vector<std::string> missingFromCompletion(const std::vector<CommandInfo>& commands,
                                               const std::string& script) {
  std::vector<std::string> missing;
  for (const CommandInfo& command : commands) {
    const size_t start = script.find("\n    '" + command.name() + "')\n");
    const size_t words = start == std::string::npos ? start : script.find("compgen -W '", start);
    const std::string offered =
        words == std::string::npos
            ? ""
            : " " + script.substr(words + 12, script.find('\'', words + 12) - words - 12) + " ";
    for (const CLI::Option* option : command.options)
      for (const std::string& l : option->get_lnames())
        if (offered.find(" --" + l + " ") == std::string::npos)
          missing.push_back(command.name() + ": --" + l);
  }
  return missing;
}

// What bash offers after these words (the last one being typed), with the generated
// completion loaded.
std::string completed(const std::vector<std::string>& words) {
  const std::string script = std::string(RLAB_DOCS_DIR) + "/rlab.bash-completion";
  std::string list;
  for (const std::string& w : words) list += " \"" + w + "\"";
  const std::string command = "bash --norc -c 'source \"" + script + "\"; COMP_WORDS=(" + list +
                              "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _rlab; "
                              "printf \"%s \" \"${COMPREPLY[@]}\"' 2>&1";
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    std::array<char, 4096> buffer{};
    while (size_t got = fread(buffer.data(), 1, buffer.size(), pipe))
      out.append(buffer.data(), got);
    pclose(pipe);
  }
  return out;
}

}  // namespace

TEST_CASE("docs: rlab's manual page and completion name every option of every command") {
  const std::string page = readFile(std::string(RLAB_DOCS_DIR) + "/rlab.1");
  const std::string script = readFile(std::string(RLAB_DOCS_DIR) + "/rlab.bash-completion");
  REQUIRE(!page.empty());
  REQUIRE(!script.empty());
  // Walked inside describeCommandLine: the option objects live only there.
  rlab::cli::describeCommandLine([&](const CLI::App& app) {
    const auto commands = rlab::docs::commandsOf(app);
    CHECK(commands.size() >= 15);  // rlab, its 8 commands and exercise's 7 actions
    int options = 0;
    for (const CommandInfo& c : commands) options += int(c.options.size());
    CHECK(options > 80);
    CHECK(missingFromPage(commands, page) == std::vector<std::string>{});
    CHECK(missingFromCompletion(commands, script) == std::vector<std::string>{});
    // The checks bite: an option taken out of either file is found missing.
    std::string withoutN = page;
    const std::string nOption = ".TP\n\\fB\\-\\-n\\fR \\fIN\\fR\n";
    REQUIRE(withoutN.find(nOption) != std::string::npos);
    withoutN.erase(withoutN.find(nOption), nOption.size());
    CHECK(!missingFromPage(commands, withoutN).empty());
    std::string withoutTimeline = script;
    withoutTimeline.replace(withoutTimeline.find(" --timeline"), 11, "");
    CHECK(missingFromCompletion(commands, withoutTimeline) ==
          std::vector<std::string>{"rlab run: --timeline"});
  });
}

#ifdef RLAB_GUI_BINARY
TEST_CASE("docs: reduction-lab's manual page names every option") {
  const std::string page = readFile(std::string(RLAB_DOCS_DIR) + "/reduction-lab.1");
  REQUIRE(!page.empty());
  CLI::App app{rlab::gui::kProgramDescription, "reduction-lab"};
  rlab::gui::CommandLine ignored;
  rlab::gui::addCommandLineOptions(app, ignored);
  const auto commands = rlab::docs::commandsOf(app);
  REQUIRE(commands.size() == 1);
  CHECK(commands[0].options.size() > 30);
  CHECK(missingFromPage(commands, page) == std::vector<std::string>{});
  CHECK(page.find("\\-\\-chapter") != std::string::npos);
  CHECK(page.find("\\fB\\-\\-type\\fR int|float") != std::string::npos);  // a check's values
}
#endif

TEST_CASE("docs: the completion offers what rlab takes: commands, lessons, variants, values") {
  CHECK(completed({"rlab", ""}) ==
        "list run race bench check profile record tour lesson exercise model quiz export ");
  CHECK(completed({"rlab", "exercise", ""}) ==
        "list progress show start check grade hint solution run ");
  CHECK(completed({"rlab", "run", "bar"}) == "barrier ");
  CHECK(completed({"rlab", "run", "barrier", "--variant", ""}) == "global shared ");
  CHECK(completed({"rlab", "race", "divergence", "--n", "8", "--variant", "s"}) ==
        "strided sequential ");
  CHECK(completed({"rlab", "check", "barrier", "--tool", ""}) ==
        "racecheck memcheck synccheck initcheck ");
  CHECK(completed({"rlab", "tour", "--lang", ""}) == "en ja zh ");
  CHECK(completed({"rlab", "run", "barrier", "--schedule", "st"}) == "stall: ");
  CHECK(completed({"rlab", "exercise", "check", "fold"}) == "fold-any-length ");
  CHECK(completed({"rlab", "run", "barrier", "--no-b"}) == "--no-barrier ");
  // --format's values are each command's own.
  CHECK(completed({"rlab", "run", "barrier", "--format", ""}) == "text json ");
  CHECK(completed({"rlab", "bench", "--format", ""}) == "text csv json ");
  CHECK(completed({"rlab", "quiz", "--format", ""}) == "text json moodle gift ");
  CHECK(completed({"rlab", "exercise", "grade", "one-queue", "k.cu", "--format", ""}) ==
        "text json gradescope prairielearn ");
  // Every variant it offers is one rlab run takes.
  for (const rlab::LessonInfo& lesson : rlab::lessons())
    for (const rlab::VariantInfo& variant : lesson.variants) {
      CAPTURE(variant.id);
      CHECK(completed({"rlab", "run", lesson.id, "--variant", ""}).find(variant.id + " ") !=
            std::string::npos);
      CHECK_NOTHROW(rlab::cli::parseCommandLine({"run", lesson.id, "--variant", variant.id}));
    }
}
