// The command line's values, read and checked by our own parsers: each refusal is one sentence
// naming the option, what was given and what is allowed (a UsageError).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/cli/cli.hpp"

namespace rlab::cli {

// Digits only, from `low` to `high`; `allowed` says what is: Message("usage.whole-number") and
// the like take {low} and {high}.
int64_t parseInteger(const std::string& option, const std::string& text, int64_t low, int64_t high,
                     const char* allowed = "usage.whole-number");
// A decimal number as "2" or "2.5" (read digit by digit: std::stod would follow the locale's
// decimal point), from `low` to `high`; else `allowed` says what is.
double parseDecimal(const std::string& option, const std::string& text, double low, double high,
                    const Message& allowed);
// Seconds as "2" or "2.5", from 0 to `most`.
double parseSeconds(const std::string& option, const std::string& text, int most);
// --lang: en, ja or zh; not given, the locale's.
Language languageOrLocale(const std::string& given);
// text or json (and csv where `csvToo`).
Format parseFormat(const std::string& text, bool csvToo);
// "a,b,c" as its items; "" as none.
std::vector<std::string> splitList(const std::string& text);

}  // namespace rlab::cli
