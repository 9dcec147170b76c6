#include "lessons/engine/texts/messages.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/texts/embedded.hpp"

namespace rlab {

MessageArg::MessageArg(std::string name, std::string text)
    : name(std::move(name)), text(std::move(text)) {}
MessageArg::MessageArg(std::string name, const char* text)
    : name(std::move(name)), text(text ? text : "") {}
MessageArg::MessageArg(std::string name, Message sentence)
    : name(std::move(name)), sentences{std::move(sentence)} {}
MessageArg::MessageArg(std::string name, std::vector<Message> sentences)
    : name(std::move(name)), sentences(std::move(sentences)) {}

bool MessageArg::operator==(const MessageArg& other) const {
  return name == other.name && text == other.text && sentences == other.sentences;
}

Message::Message(std::string id, std::vector<MessageArg> args)
    : id(std::move(id)), args(std::move(args)) {}

std::string Message::arg(std::string_view name) const {
  for (const MessageArg& a : args)
    if (a.name == name) return a.text;
  return "";
}

bool Message::operator==(const Message& other) const {
  return id == other.id && args == other.args;
}

namespace {

// The simulator's sentence, as data below the engine, as a message: its arguments are text, its
// sites a list of sentences.
Message launchFailureMessage(const sim::LaunchFailure& failure) {
  std::vector<MessageArg> args;
  for (const auto& [name, text] : failure.args) args.emplace_back(name, text);
  if (!failure.sites.empty()) {
    std::vector<Message> sites;
    for (const sim::LaunchFailure& site : failure.sites)
      sites.push_back(launchFailureMessage(site));
    args.emplace_back("sites", std::move(sites));
  }
  return Message(failure.id, std::move(args));
}

}  // namespace

Message messageOf(const std::exception& error) {
  if (const auto* carrier = dynamic_cast<const MessageCarrier*>(&error)) return carrier->message();
  if (const auto* launch = dynamic_cast<const sim::LaunchError*>(&error))
    return launchFailureMessage(launch->failure());
  return verbatim(error.what());
}

Message verbatim(std::string text) {
  return Message("verbatim", {{"text", std::move(text)}});
}

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// How the language joins the items of a list.
const char* listSeparator(Language language) {
  return language == Language::En ? ", " : "、";
}

const MessageArg* findArg(const Message& m, std::string_view name) {
  for (const MessageArg& a : m.args)
    if (a.name == name) return &a;
  return nullptr;
}

std::string argText(const MessageArg& a, Language language) {
  if (a.sentences.empty()) return a.text;
  std::string joined;
  for (const Message& s : a.sentences)
    joined += (joined.empty() ? "" : listSeparator(language)) + render(s, language);
  return joined;
}

}  // namespace

Catalogue parseCatalogue(std::string_view text) {
  static constexpr std::string_view separator = " => ";
  Catalogue catalogue;
  int number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = trimmed(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++number;
    if (line.empty() || line.front() == '#') continue;
    const size_t at = line.find(separator);
    const std::string where = "line " + std::to_string(number) + ": ";
    if (at == std::string_view::npos) {
      catalogue.problems.push_back(where + "no \" => \" between the key and its text");
      continue;
    }
    const std::string key(trimmed(line.substr(0, at)));
    const std::string value(trimmed(line.substr(at + separator.size())));
    if (key.empty() || value.empty())
      catalogue.problems.push_back(where + "the key or its text is empty");
    else if (!catalogue.entries.emplace(key, value).second)
      catalogue.problems.push_back(where + "\"" + key + "\" is given twice");
  }
  return catalogue;
}

const Catalogue& messageCatalogue(Language language) {
  static const auto load = [](Language l) {
    const std::string* file =
        embeddedFile("lessons/engine/texts/messages/" + std::string(code(l)) + ".txt");
    return file ? parseCatalogue(*file) : Catalogue{{}, {"no messages file was built in"}};
  };
  static const Catalogue files[] = {load(kLanguages[0]), load(kLanguages[1]), load(kLanguages[2])};
  static_assert(std::size(files) == std::size(kLanguages));
  return files[int(language)];
}

std::vector<std::string> messagePlaceholders(std::string_view text) {
  std::vector<std::string> names;
  for (size_t at = 0; at < text.size(); ++at) {
    if (text[at] != '{') continue;
    if (at + 1 < text.size() && text[at + 1] == '{') {
      ++at;
      continue;
    }
    const size_t close = text.find('}', at);
    if (close == std::string_view::npos) break;
    const std::string_view spec = text.substr(at + 1, close - at - 1);
    const std::string name(spec.substr(0, spec.find(':')));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    at = close;
  }
  return names;
}

std::string render(const Message& m, Language language) {
  if (m.id.empty()) return "";
  auto lookup = [&](Language l) -> const std::string* {
    const auto& entries = messageCatalogue(l).entries;
    const auto found = entries.find(std::string_view(m.id));
    return found == entries.end() ? nullptr : &found->second;
  };
  const std::string* found = lookup(language);
  if (!found) found = lookup(Language::En);
  if (!found) {
    // No sentence for the id anywhere (the messages test fails on it): the id and its
    // arguments, so that nothing is lost.
    std::string text = m.id;
    for (const MessageArg& a : m.args) text += " " + a.name + "=" + argText(a, language);
    return text;
  }
  return fill(*found, m, language);
}

std::string fill(std::string_view pattern, const Message& m, Language language) {
  std::string out;
  for (size_t at = 0; at < pattern.size(); ++at) {
    const char c = pattern[at];
    if ((c == '{' || c == '}') && at + 1 < pattern.size() && pattern[at + 1] == c) {
      out += c;
      ++at;
      continue;
    }
    const size_t close = c == '{' ? pattern.find('}', at) : std::string::npos;
    if (close == std::string::npos) {
      out += c;
      continue;
    }
    const std::string spec(pattern.substr(at + 1, close - at - 1));
    const size_t colon = spec.find(':');
    const MessageArg* a = findArg(m, spec.substr(0, colon));
    if (!a) {
      out += pattern.substr(at, close - at + 1);  // left as it is: the test finds it
    } else if (colon == std::string::npos) {
      out += argText(*a, language);
    } else if (spec.substr(colon + 1) == "lines") {  // each sentence on a line of its own
      for (const Message& s : a->sentences) out += "\n" + render(s, language);
    } else {
      const std::string choices = spec.substr(colon + 1);
      const size_t bar = choices.find('|');
      out += a->text == "1" ? choices.substr(0, bar)
                            : (bar == std::string::npos ? "" : choices.substr(bar + 1));
    }
    at = close;
  }
  return out;
}

// ---- One line: id(name="text",name=[id(...),...]) with \\, \", \n and \t escaped ----------

namespace {

void encodeInto(const Message& m, std::string& out) {
  out += m.id + "(";
  for (size_t k = 0; k < m.args.size(); ++k) {
    const MessageArg& a = m.args[k];
    out += (k ? "," : "") + a.name + "=";
    if (a.sentences.empty()) {
      out += '"';
      for (char c : a.text)
        out += c == '\\'   ? "\\\\"
               : c == '"'  ? "\\\""
               : c == '\n' ? "\\n"
               : c == '\t' ? "\\t"
                           : std::string(1, c);
      out += '"';
      continue;
    }
    out += '[';
    for (size_t s = 0; s < a.sentences.size(); ++s) {
      if (s) out += ',';
      encodeInto(a.sentences[s], out);
    }
    out += ']';
  }
  out += ')';
}

// Reads a message at `at`; false where the text is not one.
bool decodeAt(std::string_view text, size_t& at, Message& m) {
  const size_t open = text.find('(', at);
  if (open == std::string_view::npos || open == at) return false;
  m.id = std::string(text.substr(at, open - at));
  for (char c : m.id)  // ids are lowercase words joined by dots and dashes
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-')) return false;
  at = open + 1;
  while (at < text.size() && text[at] != ')') {
    if (!m.args.empty()) {
      if (text[at] != ',') return false;
      ++at;
    }
    const size_t equals = text.find('=', at);
    if (equals == std::string_view::npos) return false;
    const std::string name(text.substr(at, equals - at));
    at = equals + 1;
    if (at < text.size() && text[at] == '"') {
      std::string value;
      for (++at; at < text.size() && text[at] != '"'; ++at) {
        if (text[at] != '\\') {
          value += text[at];
          continue;
        }
        if (++at >= text.size()) return false;
        value += text[at] == 'n' ? '\n' : text[at] == 't' ? '\t' : text[at];
      }
      if (at >= text.size()) return false;
      ++at;  // the closing quote
      m.args.emplace_back(name, std::move(value));
    } else if (at < text.size() && text[at] == '[') {
      std::vector<Message> sentences;
      for (++at; at < text.size() && text[at] != ']';) {
        if (!sentences.empty()) {
          if (text[at] != ',') return false;
          ++at;
        }
        Message inner;
        if (!decodeAt(text, at, inner)) return false;
        sentences.push_back(std::move(inner));
      }
      if (at >= text.size()) return false;
      ++at;  // ']'
      m.args.emplace_back(name, std::move(sentences));
    } else {
      return false;
    }
  }
  if (at >= text.size()) return false;
  ++at;  // ')'
  return true;
}

}  // namespace

std::string encodeMessage(const Message& message) {
  std::string out;
  encodeInto(message, out);
  return out;
}

Message decodeMessage(std::string_view line) {
  Message m;
  size_t at = 0;
  if (decodeAt(line, at, m) && at == line.size()) return m;
  return verbatim(std::string(line));
}

std::string printedNumber(const std::string& format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format.c_str(), value);
  return text;
}

std::string english(const Message& m) {
  return render(m, Language::En);
}

std::vector<std::string> english(const std::vector<Message>& messages) {
  std::vector<std::string> out;
  for (const Message& m : messages) out.push_back(english(m));
  return out;
}

}  // namespace rlab
