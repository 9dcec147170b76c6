// [SECTION] Walking the command line
// [SECTION] The manual page
// [SECTION] Bash completion

#include "app/docs/command_line_docs.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace rlab::docs {

// ============================================================================================
// [SECTION] Walking the command line
// ============================================================================================

std::string CommandInfo::name() const {
  std::string all;
  for (const std::string& part : path) all += (all.empty() ? "" : " ") + part;
  return all;
}

namespace {

void walk(const CLI::App& app, std::vector<std::string> path, std::vector<CommandInfo>& out) {
  path.push_back(app.get_name());
  CommandInfo info;
  info.path = path;
  info.description = app.get_description();
  info.options = app.get_options();
  const auto subcommands = app.get_subcommands([](const CLI::App*) { return true; });
  info.hasSubcommands = !subcommands.empty();
  out.push_back(info);
  for (const CLI::App* sub : subcommands) walk(*sub, path, out);
}

std::string upper(std::string text) {
  for (char& c : text) c = char(std::toupper((unsigned char)c));
  return text;
}

}  // namespace

std::vector<CommandInfo> commandsOf(const CLI::App& app) {
  std::vector<CommandInfo> out;
  walk(app, {}, out);
  return out;
}

std::string optionName(const CLI::Option& option) {
  if (option.get_positional()) return upper(option.get_name(true));
  std::string longest;
  for (const std::string& name : option.get_lnames())
    if (name.size() > longest.size()) longest = name;
  if (!longest.empty()) return "--" + longest;
  return option.get_snames().empty() ? option.get_name() : "-" + option.get_snames().front();
}

bool takesValue(const CLI::Option& option) {
  return option.get_positional() || option.get_expected_max() != 0;  // flags expect none
}

std::vector<std::string> checkedValues(const CLI::Option& option) {
  // CLI11 appends each check's description to the type name: "TEXT:{int,float}".
  const std::string type = option.get_type_name();
  const size_t open = type.find(":{"), close = type.rfind('}');
  std::vector<std::string> values;
  if (open == std::string::npos || close == std::string::npos || close < open) return values;
  std::istringstream list(type.substr(open + 2, close - open - 2));
  for (std::string value; std::getline(list, value, ',');) values.push_back(value);
  return values;
}

// ============================================================================================
// [SECTION] The manual page
// ============================================================================================

std::string roff(const std::string& text) {
  std::string out;
  bool lineStart = true;
  for (char c : text) {
    if (lineStart && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
    lineStart = c == '\n';
  }
  return out;
}

namespace {

// How the option is written in a synopsis or an option list: "--type int|float", "--n N".
std::string usage(const CLI::Option& option, bool bold) {
  if (option.get_positional()) return "\\fI" + optionName(option) + "\\fR";
  std::string names;
  for (const std::string& s : option.get_snames()) names += (names.empty() ? "" : ", ") + ("-" + s);
  for (const std::string& l : option.get_lnames())
    names += (names.empty() ? "" : ", ") + ("--" + l);
  std::string text = bold ? "\\fB" + roff(names) + "\\fR" : roff(names);
  if (!takesValue(option)) return text;
  const auto values = checkedValues(option);
  if (!values.empty()) {
    std::string joined;
    for (const std::string& v : values) joined += (joined.empty() ? "" : "|") + v;
    return text + " " + roff(joined);
  }
  std::string value = upper(optionName(option).substr(2));
  return text + " \\fI" + roff(value) + "\\fR";
}

std::string synopsis(const CommandInfo& command) {
  std::string line = ".B " + roff(command.name()) + "\n";
  std::string rest;
  bool anyOption = false;
  for (const CLI::Option* option : command.options) {
    if (option->get_positional()) {
      const std::string slot = "\\fI" + optionName(*option) + "\\fR";
      rest += " " + (option->get_required() ? slot : "[" + slot + "]");
    } else if (option->get_lnames() != std::vector<std::string>{"help"}) {
      anyOption = true;
    }
  }
  if (command.hasSubcommands) rest += " \\fICOMMAND\\fR";
  if (anyOption) rest += " [\\fIoptions\\fR]";
  return line + (rest.empty() ? "" : rest.substr(1) + "\n") + ".br\n";
}

}  // namespace

std::string manualPage(const CLI::App& app, const ManualText& text) {
  const auto commands = commandsOf(app);
  std::ostringstream out;
  out << ".\\\" Generated from the program's own options by rlab-docs (app/docs); do not edit.\n";
  out << ".TH " << upper(text.name) << " 1 \"" << text.date << "\" \"Reduction Lab " << text.version
      << "\" \"Reduction Lab\"\n";
  out << ".SH NAME\n" << roff(text.name) << " \\- " << roff(text.summary) << "\n";
  out << ".SH SYNOPSIS\n";
  for (const CommandInfo& command : commands)
    if (!command.hasSubcommands || command.path.size() == 1) out << synopsis(command);
  for (const auto& [title, body] : text.beforeOptions) out << ".SH " << title << "\n" << body;
  const bool several = commands.size() > 1;
  out << ".SH " << (several ? "COMMANDS" : "OPTIONS") << "\n";
  for (const CommandInfo& command : commands) {
    if (several) {
      out << ".SS \"" << roff(command.name()) << "\"\n";
      const std::string& d = command.description;
      if (!d.empty()) out << roff(d) << (d.back() == '.' ? "\n" : ".\n");
    }
    for (const CLI::Option* option : command.options) {
      out << ".TP\n" << usage(*option, true) << "\n";
      std::string description = option->get_description();
      if (option->get_required()) description += " (required)";
      out << roff(description) << "\n";
    }
  }
  for (const auto& [title, body] : text.afterOptions) out << ".SH " << title << "\n" << body;
  return out.str();
}

// ============================================================================================
// [SECTION] Bash completion
// ============================================================================================
// One function, _rlab: the command is found from the words typed so far (a subcommand's name
// where the command before it has subcommands), then the words offered are that command's
// options, the values of the option just typed, or its positional slot's words.

namespace {

std::string words(const std::vector<std::string>& list) {
  std::string joined;
  for (const std::string& w : list) joined += (joined.empty() ? "" : " ") + w;
  return joined;
}

std::string shellQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The compgen line for one slot's words.
std::string offer(const std::vector<std::string>& list) {
  if (list.size() == 1 && list[0] == "FILES") return "_rlab_files ''";
  if (list.size() == 1 && list[0].rfind("FILES:", 0) == 0)
    return "_rlab_files " + shellQuoted(list[0].substr(6));
  if (list.size() == 1 && list[0] == "FOLDERS") return "_rlab_folders";
  return "COMPREPLY=($(compgen -W " + shellQuoted(words(list)) + " -- \"$cur\"))";
}

// _rlab_files and _rlab_folders, which offer() calls: file names (matching a pattern where one is
// given) or folders.
void writeFileHelpers(std::ostream& out) {
  out << "_rlab_files() {\n"
         "  local IFS=$'\\n'\n"
         "  if [[ -n $1 ]]; then\n"
         "    COMPREPLY=($(compgen -d -- \"$cur\") $(compgen -f -X \"!$1\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "  compopt -o filenames 2>/dev/null\n"
         "}\n"
         "_rlab_folders() {\n"
         "  local IFS=$'\\n'\n"
         "  COMPREPLY=($(compgen -d -- \"$cur\"))\n"
         "  compopt -o filenames 2>/dev/null\n"
         "}\n\n";
}

// Every long option of every command that takes a value, "--n", sorted.
std::vector<std::string> valuedOptions(const std::vector<CommandInfo>& commands) {
  std::set<std::string> valued;
  for (const CommandInfo& command : commands)
    for (const CLI::Option* option : command.options)
      if (!option->get_positional() && takesValue(*option))
        for (const std::string& l : option->get_lnames()) valued.insert("--" + l);
  return std::vector<std::string>(valued.begin(), valued.end());
}

// The loop over the words typed so far: it finds the command, the lesson (the first positional
// word) and which positional slot the cursor is in.
void writeWordLoop(std::ostream& out, const std::string& program,
                   const std::vector<CommandInfo>& commands,
                   const std::vector<std::string>& valuedList) {
  out << "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
      << "  local command=" << program << " word i slot=0 lesson=\"\" expects_value=0\n"
      << "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      << "    word=${COMP_WORDS[i]}\n"
      << "    if ((expects_value)); then expects_value=0; continue; fi\n"
      << "    case \"$command $word\" in\n";
  // Subcommands: "rlab run" and so on.
  for (const CommandInfo& command : commands)
    if (command.path.size() > 1) {
      out << "      " << shellQuoted(command.name()) << ") command=" << shellQuoted(command.name())
          << "; slot=0; continue ;;\n";
    }
  out << "    esac\n"
      << "    case \"$word\" in\n"
      << "      --*=*) ;;\n";
  // Options that take a value swallow the next word.
  if (!valuedList.empty()) {
    std::string pattern;
    for (const std::string& v : valuedList) pattern += (pattern.empty() ? "" : "|") + v;
    out << "      " << pattern << ") expects_value=1 ;;\n";
  }
  out << "      -*) ;;\n"
      << "      *) ((slot == 0)) && lesson=$word; slot=$((slot + 1)) ;;\n"
      << "    esac\n"
      << "  done\n\n";
}

// The value of the option just typed.
void writeOptionValues(std::ostream& out, const std::vector<CommandInfo>& commands,
                       const CompletionWords& given, const std::vector<std::string>& valuedList) {
  out << "  case \"$prev\" in\n";
  out << "    --variant)\n      case \"$lesson\" in\n";
  for (const auto& [lesson, variants] : given.variantsOfLesson)
    out << "        " << lesson << ") " << offer(variants) << " ;;\n";
  out << "      esac\n      return ;;\n";
  std::map<std::string, std::vector<std::string>> afterOption = given.afterOption;
  for (const CommandInfo& command : commands)
    for (const CLI::Option* option : command.options)
      if (!option->get_positional() && takesValue(*option)) {
        const auto checked = checkedValues(*option);
        const std::string name = optionName(*option);
        if (!checked.empty() && !afterOption.count(name)) afterOption[name] = checked;
      }
  std::map<std::string, std::map<std::string, std::vector<std::string>>> commandsOfOption;
  for (const auto& [command, options] : given.afterOptionIn)
    for (const auto& [option, list] : options) commandsOfOption[option][command] = list;
  for (const auto& [option, list] : afterOption) {
    const auto own = commandsOfOption.find(option);
    if (own == commandsOfOption.end()) {
      out << "    " << option << ") " << offer(list) << "; return ;;\n";
      continue;
    }
    out << "    " << option << ")\n      case \"$command\" in\n";
    for (const auto& [command, words] : own->second)
      out << "        " << shellQuoted(command) << ") " << offer(words) << " ;;\n";
    out << "        *) " << offer(list) << " ;;\n      esac\n      return ;;\n";
  }
  // Any other option with a value: nothing to offer but what the user types.
  if (!valuedList.empty()) {
    std::string pattern;
    for (const std::string& v : valuedList)
      if (!afterOption.count(v) && v != "--variant") pattern += (pattern.empty() ? "" : "|") + v;
    if (!pattern.empty()) out << "    " << pattern << ") return ;;\n";
  }
  out << "  esac\n\n";
}

// Options, subcommands or positional words of the command.
void writeCommandWords(std::ostream& out, const std::vector<CommandInfo>& commands,
                       const CompletionWords& given) {
  out << "  case \"$command\" in\n";
  for (const CommandInfo& command : commands) {
    std::vector<std::string> options, subcommands;
    for (const CLI::Option* option : command.options)
      if (!option->get_positional())
        for (const std::string& l : option->get_lnames()) options.push_back("--" + l);
    for (const CommandInfo& other : commands)
      if (other.path.size() == command.path.size() + 1 &&
          std::equal(command.path.begin(), command.path.end(), other.path.begin()))
        subcommands.push_back(other.path.back());
    out << "    " << shellQuoted(command.name()) << ")\n";
    out << "      if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W " << shellQuoted(words(options))
        << " -- \"$cur\")); return; fi\n";
    if (!subcommands.empty()) {
      out << "      COMPREPLY=($(compgen -W " << shellQuoted(words(subcommands))
          << " -- \"$cur\")) ;;\n";
      continue;
    }
    const auto slots = given.positionals.find(command.name());
    if (slots == given.positionals.end()) {
      out << "      ;;\n";
      continue;
    }
    out << "      case $slot in\n";
    for (size_t k = 0; k < slots->second.size(); ++k)
      out << "        " << k << ") " << offer(slots->second[k]) << " ;;\n";
    out << "      esac ;;\n";
  }
  out << "  esac\n}\n";
}

}  // namespace

std::string bashCompletion(const CLI::App& app, const CompletionWords& given) {
  const auto commands = commandsOf(app);
  const std::string program = app.get_name();
  const std::vector<std::string> valuedList = valuedOptions(commands);
  std::ostringstream out;
  out << "# bash completion for " << program
      << ": generated from its own options by rlab-docs (app/docs); do not edit.\n\n";
  writeFileHelpers(out);
  out << "_" << program << "() {\n";
  writeWordLoop(out, program, commands, valuedList);
  writeOptionValues(out, commands, given, valuedList);
  writeCommandWords(out, commands, given);
  out << "complete -F _" << program << " " << program << "\n";
  return out.str();
}

}  // namespace rlab::docs
