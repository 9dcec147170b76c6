// The sentences the core composes, as data: a message is an id and its arguments, and render()
// writes it in the learner's language. A run's step labels and notes, its device and result
// lines, race summaries, witness reasons, timeline sentences, check verdicts and failures,
// racecheck summaries: the core fills in Messages, and both front ends render them, so that a
// Japanese or Chinese screen has no English sentence on it.
//
// The sentences live in lessons/engine/texts/messages/en.txt, ja.txt and zh.txt, one a line
// ("step.barrier.level => level {level}: {combine} where tid % {modulus} == 0"), embedded at
// build time. A placeholder {name} takes the argument of that name; {name:one|other} writes
// `one` when the argument is 1 and `other` otherwise (English plurals; the number itself is a
// {name} of its own); {name:lines} puts each of the argument's sentences on a line of its own.
// {{ and }} are braces. Each language orders the placeholders as its
// grammar wants. Arguments are values, names and code, which read the same in every language
// (kernel, variant, schedule and parameter names, a[tid + 2], compiler messages), or sentences
// of their own, rendered in the same language. To add a sentence: construct
// Message("area.what", {{"name", value}, ...}) with the id as a string literal, and give the id
// a line in all three files; tests/messages_test.cpp checks that every id the sources use has
// every language with the same placeholders, that no entry is unused, and renders every
// lesson's runs in Japanese and Chinese looking for English left in them.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "lessons/engine/texts/language.hpp"

namespace rlab {

struct Message;

// One argument: `text` (a value, a name or code: the same in every language) or `sentences`
// (messages of their own, rendered in the message's language; several are a list, joined as the
// language joins lists).
struct MessageArg {
  std::string name;
  std::string text;
  std::vector<Message> sentences;

  MessageArg(std::string name, std::string text);
  MessageArg(std::string name, const char* text);
  template <
      class Integer,
      std::enable_if_t<std::is_integral_v<Integer> && !std::is_same_v<Integer, bool>, int> = 0>
  MessageArg(std::string name, Integer number)
      : name(std::move(name)), text(std::to_string(number)) {}
  MessageArg(std::string name, Message sentence);
  MessageArg(std::string name, std::vector<Message> sentences);

  bool operator==(const MessageArg& other) const;
};

struct Message {
  std::string id;  // empty: no message
  std::vector<MessageArg> args;

  Message() = default;
  explicit Message(std::string id, std::vector<MessageArg> args = {});

  bool empty() const { return id.empty(); }
  // The argument's text ("" where there is no such argument or it is a sentence).
  std::string arg(std::string_view name) const;
  bool operator==(const Message& other) const;
  bool operator!=(const Message& other) const { return !(*this == other); }
};

// Text the project did not write and does not translate (a compiler's message, a CUDA error
// string, a path): shown as it is in every language.
Message verbatim(std::string text);

std::string render(const Message& message, Language language);
// A message as one line of text (no line break, no tab) and back: how the exercise runner, a
// process of its own, sends its sentences. decodeMessage gives the text itself as verbatim where
// it is no encoded message.
std::string encodeMessage(const Message& message);
Message decodeMessage(std::string_view line);

// A number as printf's `format` ("%.4g") writes it: for numbers in a message's arguments.
std::string printedNumber(const std::string& format, double value);

// The English: what() of errors, JSON for scripts, logs.
std::string english(const Message& message);
std::vector<std::string> english(const std::vector<Message>& messages);
// `pattern` (a catalogue entry) with the message's arguments in `language`: what render() does
// with the entry for the message's id.
std::string fill(std::string_view pattern, const Message& message, Language language);

// What an error carries besides its English what(): the sentence as a message, so that a front
// end can say it in the learner's language (ParamError, GpuUnavailable, ...).
class MessageCarrier {
 public:
  explicit MessageCarrier(Message message) : message_(std::move(message)) {}
  virtual ~MessageCarrier() = default;
  const Message& message() const { return message_; }

 private:
  Message message_;
};

// Any other failure said as a message (a check that could not run, say).
class MessageError : public std::runtime_error, public MessageCarrier {
 public:
  explicit MessageError(Message message)
      : std::runtime_error(english(message)), MessageCarrier(std::move(message)) {}
};

// An error's sentence: its message where it carries one, the simulator's LaunchFailure where it
// is a sim::LaunchError, else its what() as it is.
Message messageOf(const std::exception& error);

// A catalogue file as parsed ("key => text" a line, '#' comments): key to text, and one
// sentence per line it could not take. The app's own words (app/gui/strings) use it too.
struct Catalogue {
  std::map<std::string, std::string, std::less<>> entries;
  std::vector<std::string> problems;
};
Catalogue parseCatalogue(std::string_view fileText);

// The language's message catalogue, lessons/engine/texts/messages/<code>.txt, parsed once.
const Catalogue& messageCatalogue(Language language);

// The names of a message text's placeholders, in order, once each: "{a} {b:x|y} {a}" gives
// a, b.
std::vector<std::string> messagePlaceholders(std::string_view text);

}  // namespace rlab
