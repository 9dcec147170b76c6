// Text measured and broken into words for a terminal or a window: wide (CJK) characters count
// two columns, and a line may break between any two of them, never before closing punctuation
// and never after opening punctuation.
#include <algorithm>

#include "lessons/engine/texts/texts.hpp"

namespace rlab::text {

namespace {

// The code point at s[i] and its length in bytes.
std::pair<uint32_t, size_t> codePoint(const std::string& s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const size_t bytes = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  uint32_t cp = bytes == 1 ? c : c & (0xFF >> (bytes + 1));
  for (size_t k = 1; k < bytes && i + k < s.size(); ++k) cp = (cp << 6) | (s[i + k] & 0x3F);
  return {cp, std::min(bytes, s.size() - i)};
}

bool isWide(uint32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
         (cp >= 0xFFE0 && cp <= 0xFFE6);
}

bool closesPunctuation(uint32_t cp) {  // never starts a line
  for (uint32_t c : {0x3001u, 0x3002u, 0xFF0Cu, 0xFF0Eu, 0xFF09u, 0x300Du, 0x300Fu, 0xFF01u,
                     0xFF1Fu, 0xFF1Au, 0xFF1Bu, 0x30FCu, 0x3011u, 0x3009u, 0x300Bu})
    if (cp == c) return true;
  return false;
}

bool opensPunctuation(uint32_t cp) {  // never ends a line
  for (uint32_t c : {0xFF08u, 0x300Cu, 0x300Eu, 0x3010u, 0x3008u, 0x300Au, 0x3014u, 0xFF3Bu,
                     0xFF5Bu, 0x201Cu, 0x2018u})
    if (cp == c) return true;
  return false;
}

}  // namespace

int columns(const std::string& utf8) {
  int n = 0;
  for (size_t i = 0; i < utf8.size();) {
    const auto [cp, bytes] = codePoint(utf8, i);
    n += isWide(cp) ? 2 : 1;
    i += bytes;
  }
  return n;
}

std::vector<Word> words(const std::string& s) {
  std::vector<Word> all;
  size_t i = 0;
  while (i < s.size()) {
    Word w;
    if (s[i] == '\n') {
      w.begin = i;
      w.end = ++i;
      w.newline = true;
      all.push_back(w);
      continue;
    }
    while (i < s.size() && s[i] == ' ') ++i, w.spaceBefore = true;
    w.begin = i;
    bool opened = false;  // the last character opens a bracket: the next one stays with it
    while (i < s.size() && s[i] != ' ' && s[i] != '\n') {
      const auto [cp, bytes] = codePoint(s, i);
      if (isWide(cp) && i > w.begin && !closesPunctuation(cp) && !opened) break;  // its own word
      i += bytes;
      w.columns += isWide(cp) ? 2 : 1;
      opened = opensPunctuation(cp);
      if (opened) continue;
      if (isWide(cp)) {  // ends the word, with any closing punctuation after it
        while (i < s.size()) {
          const auto [next, nextBytes] = codePoint(s, i);
          if (!closesPunctuation(next)) break;
          i += nextBytes;
          w.columns += 2;
        }
        break;
      }
    }
    w.end = i;
    if (w.end > w.begin) all.push_back(w);
  }
  return all;
}

}  // namespace rlab::text
