// A program's CLI11 command line, walked: its commands and their options, written as a manual
// page (roff, man(7)) and as bash completion. The programs' own option objects are the one
// source: what `rlab --help` lists is what the page and the completion list.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace rlab::docs {

// One command: "rlab", "rlab run", "rlab exercise check", with its description and options
// (positionals included), in the order they were added.
struct CommandInfo {
  std::vector<std::string> path;  // {"rlab", "exercise", "check"}
  std::string description;
  std::vector<const CLI::Option*> options;
  bool hasSubcommands = false;
  std::string name() const;  // "rlab exercise check"
};
std::vector<CommandInfo> commandsOf(const CLI::App& app);

// How an option is named on the command line: "--n" (the longest of its names), or a
// positional's NAME in capitals.
std::string optionName(const CLI::Option& option);
bool takesValue(const CLI::Option& option);
// The values an option's check allows where CLI11 knows them (IsMember: "{int,float}").
std::vector<std::string> checkedValues(const CLI::Option& option);

// The parts of a manual page that no option says: each section's title and its text, in man(7)
// markup (the options' text is escaped by the writer; these are written as they are).
struct ManualText {
  std::string name, summary;  // NAME: "rlab \- ..."
  std::string date, version;  // for the title line
  std::vector<std::pair<std::string, std::string>> beforeOptions, afterOptions;
};
std::string manualPage(const CLI::App& app, const ManualText& text);

// Words to offer after an option (by its name) or in a command's positional slots (by the
// command's name and the slot). "FILES" offers file names, "FOLDERS" folders, "FILES:*.md"
// file names matching the pattern. --variant's words depend on the lesson named before it.
struct CompletionWords {
  std::map<std::string, std::vector<std::string>> afterOption;
  // Where one command takes other values for an option than the rest ("rlab quiz" → "--format"
  // → text json moodle gift): offered after that option in that command only.
  std::map<std::string, std::map<std::string, std::vector<std::string>>> afterOptionIn;
  std::map<std::string, std::vector<std::vector<std::string>>> positionals;
  std::map<std::string, std::vector<std::string>> variantsOfLesson;
};
std::string bashCompletion(const CLI::App& app, const CompletionWords& words);

// roff-escapes text for a man page: backslashes, leading dots and quotes, hyphens.
std::string roff(const std::string& text);

}  // namespace rlab::docs
