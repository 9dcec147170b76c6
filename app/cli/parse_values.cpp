// The command line's values, read and checked (parse_values.hpp).
#include "app/cli/parse_values.hpp"

#include <algorithm>

namespace rlab::cli {

int64_t parseInteger(const std::string& option, const std::string& text, int64_t low, int64_t high,
                     const char* allowed) {
  const bool digits =
      !text.empty() && text.size() <= 18 &&
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  const int64_t v = digits ? std::stoll(text) : -1;
  if (!digits || v < low || v > high)
    throw UsageError(Message(
        "usage.not-allowed",
        {{"option", option},
         {"given", text},
         {"allowed", Message(allowed, {{"low", low}, {"high", high}, {"option", option}})}}));
  return v;
}

double parseDecimal(const std::string& option, const std::string& text, double low, double high,
                    const Message& allowed) {
  const size_t point = text.find('.');
  const std::string whole = text.substr(0, point);
  const std::string fraction = point == std::string::npos ? "" : text.substr(point + 1);
  auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 6 &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const bool valid = digits(whole) && (point == std::string::npos || digits(fraction));
  double v = valid ? double(std::stol(whole)) : -1;
  double place = 0.1;
  for (char c : valid ? fraction : std::string()) v += (c - '0') * place, place /= 10;
  if (!valid || v < low || v > high)
    throw UsageError(
        Message("usage.not-allowed", {{"option", option}, {"given", text}, {"allowed", allowed}}));
  return v;
}

double parseSeconds(const std::string& option, const std::string& text, int most) {
  return parseDecimal(option, text, 0, most, Message("usage.decimal-seconds", {{"high", most}}));
}

Language languageOrLocale(const std::string& given) {
  return given.empty() ? languageFromEnvironment() : parseLanguage(given);
}

Format parseFormat(const std::string& text, bool csvToo) {
  if (text == "text") return Format::Text;
  if (text == "json") return Format::Json;
  if (csvToo && text == "csv") return Format::Csv;
  throw UsageError(
      Message("usage.bad-format",
              {{"format", text}, {"formats", csvToo ? "text, csv, json" : "text, json"}}));
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  if (text.empty()) return items;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    items.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

}  // namespace rlab::cli
