// One check for both catalogues of words: the app's own (app/gui/strings, keyed by the English
// the code passes to tr()) and the core's sentences (lessons/engine/messages, keyed by the id
// the code gives Message()). The keys are read from the sources as string literals after the
// call's name; a catalogue must give exactly those keys, each with the reference's placeholders.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "lessons/engine/texts/messages.hpp"

namespace catalogue_checks {

namespace fs = std::filesystem;

// The string literal (or adjacent literals) at `at`, escapes decoded; false if there is none.
inline bool readLiterals(const std::string& source, size_t& at, std::string& text,
                         std::string& why) {
  auto skipSpace = [&] {
    while (at < source.size() && std::isspace(static_cast<unsigned char>(source[at]))) ++at;
  };
  skipSpace();
  if (at >= source.size() || source[at] != '"') {
    why = "takes a string literal, so that the catalogue test can read the key";
    return false;
  }
  while (at < source.size() && source[at] == '"') {
    for (++at; at < source.size() && source[at] != '"'; ++at) {
      if (source[at] != '\\') {
        text += source[at];
        continue;
      }
      const char e = source[++at];
      if (e == 'n' || e == 't') {
        why = "a key holds a line break or tab, which a catalogue file cannot";
        return false;
      }
      if (e == 'x') {
        text += char(std::stoi(source.substr(at + 1, 2), nullptr, 16));
        at += 2;
      } else {
        text += e;  // \" \\ \'
      }
    }
    ++at;  // the closing quote
    skipSpace();
  }
  return true;
}

// Where a key is used first: "panel_result.cpp:42".
using KeyUses = std::map<std::string, std::string>;

inline std::string fileText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Calls `read(path, text)` for each file under `folders` (relative to the source tree, searched
// recursively) with one of `extensions`, but for the files named in `skip`.
inline void forEachSource(const std::vector<std::string>& folders,
                          const std::vector<std::string>& extensions,
                          const std::vector<std::string>& skip,
                          const std::function<void(const fs::path&, const std::string&)>& read) {
  for (const std::string& folder : folders)
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(RLAB_SOURCE_DIR) / folder)) {
      const fs::path path = entry.path();
      if (std::find(extensions.begin(), extensions.end(), path.extension().string()) ==
              extensions.end() ||
          std::find(skip.begin(), skip.end(), path.filename().string()) != skip.end())
        continue;
      read(path, fileText(path));
    }
}

inline std::string whereIn(const fs::path& path, const std::string& source, size_t at) {
  const int line = 1 + int(std::count(source.begin(), source.begin() + long(at), '\n'));
  return fs::relative(path, RLAB_SOURCE_DIR).string() + ":" + std::to_string(line);
}

// Every key passed to one of `calls` ("tr(", "Message(") in those sources. A call whose argument
// is not a literal is a problem, unless `literalOptional` (Message's copy constructor, say).
inline KeyUses keysInSources(const std::vector<std::string>& folders,
                             const std::vector<std::string>& extensions,
                             const std::vector<std::string>& skip,
                             const std::vector<std::string>& calls, bool literalOptional,
                             std::vector<std::string>& problems) {
  KeyUses keys;
  forEachSource(folders, extensions, skip, [&](const fs::path& path, const std::string& source) {
    for (const std::string& name : calls)
      for (size_t at = source.find(name); at != std::string::npos; at = source.find(name, at + 1)) {
        const char before = at ? source[at - 1] : ' ';
        if (std::isalnum(static_cast<unsigned char>(before)) || before == '_') continue;
        size_t end = at + name.size();
        std::string key, why;
        if (!readLiterals(source, end, key, why)) {
          if (!literalOptional)
            problems.push_back(whereIn(path, source, at) + ": " + name + ") " + why);
          continue;
        }
        keys.emplace(key, whereIn(path, source, at));
      }
  });
  return keys;
}

// Every string literal in those sources that is one of `keys` (lowercase words joined by dots
// and dashes, as the core's message ids are): a key chosen at run time among literals
// (cond ? "a.b" : "a.c") is used too.
inline KeyUses literalsAmong(const std::vector<std::string>& folders,
                             const std::vector<std::string>& extensions,
                             const std::vector<std::string>& skip,
                             const std::map<std::string, std::string, std::less<>>& keys) {
  KeyUses found;
  forEachSource(folders, extensions, skip, [&](const fs::path& path, const std::string& source) {
    // Keys are lowercase words joined by dots and dashes: no escape or quote inside to misread.
    static const std::regex literal(R"re("([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*)")re");
    for (auto it = std::sregex_iterator(source.begin(), source.end(), literal);
         it != std::sregex_iterator(); ++it)
      if (keys.count((*it)[1].str()))
        found.emplace((*it)[1].str(), whereIn(path, source, size_t(it->position())));
  });
  return found;
}

// A catalogue against the keys the sources use: each used key has an entry, each entry is used,
// and each entry's placeholders are those of `reference(key)` (the English text: for the app,
// the key itself; for the core, en.txt's entry), as `placeholders` lists them.
inline void checkCatalogue(
    const std::string& file, const rlab::Catalogue& catalogue, const KeyUses& used,
    const std::function<std::string(const std::string&)>& reference,
    const std::function<std::vector<std::string>(const std::string&)>& placeholders) {
  CAPTURE(file);
  for (const auto& problem : catalogue.problems) FAIL_CHECK(problem);
  for (const auto& [key, where] : used)
    if (!catalogue.entries.count(key))
      FAIL_CHECK("no entry for \"" << key << "\" (" << where << ")");
  auto joined = [](const std::vector<std::string>& parts) {
    std::string all;
    for (const auto& p : parts) all += (all.empty() ? "" : " ") + p;
    return all.empty() ? std::string("none") : all;
  };
  for (const auto& [key, text] : catalogue.entries) {
    if (!used.count(key)) FAIL_CHECK("\"" << key << "\" has an entry but no code uses it");
    const auto expected = placeholders(reference(key)), given = placeholders(text);
    if (expected != given)
      FAIL_CHECK("\"" << key << "\": placeholders " << joined(expected) << ", given as "
                      << joined(given));
  }
}

}  // namespace catalogue_checks
