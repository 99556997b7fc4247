// c_lexer.cc — see c_lexer.h.
#include "c_lexer.h"

#include <cstring>

namespace nicc_fuzz {

namespace {

bool IdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool Digit(char c) {
  return c >= '0' && c <= '9';
}

bool Bad(std::string* why, size_t at, const std::string& what) {
  *why = "byte " + std::to_string(at) + ": " + what;
  return false;
}

}  // namespace

bool CheckEmittedC(const std::string& c, std::string* why) {
  std::string open;  // brackets not yet closed
  size_t i = 0;
  const size_t n = c.size();
  while (i < n) {
    const char ch = c[i];
    if (ch == ' ' || ch == '\n') {
      ++i;
    } else if (ch == '/' && i + 1 < n && c[i + 1] == '*') {
      const size_t end = c.find("*/", i + 2);
      if (end == std::string::npos) return Bad(why, i, "unterminated comment");
      i = end + 2;
    } else if (ch == '"') {
      size_t j = i + 1;
      for (;;) {
        if (j >= n) return Bad(why, i, "unterminated string literal");
        const char s = c[j];
        if (s == '"') break;
        if (s == '\\') {
          if (j + 1 < n && (c[j + 1] == '\\' || c[j + 1] == '"' || c[j + 1] == '?')) {
            j += 2;
          } else if (j + 3 < n && c[j + 1] >= '0' && c[j + 1] <= '3' && c[j + 2] >= '0' &&
                     c[j + 2] <= '7' && c[j + 3] >= '0' && c[j + 3] <= '7') {
            j += 4;  // three octal digits: one byte
          } else {
            return Bad(why, j, "bad escape in string literal");
          }
          continue;
        }
        if (s == '?' && j + 1 < n && c[j + 1] == '?')
          return Bad(why, j, "two '?' in a row in a string literal (a trigraph under -std=c99)");
        if (s < 0x20 || s > 0x7e)
          return Bad(
              why, j,
              "byte " + std::to_string(static_cast<unsigned char>(s)) + " inside a string literal");
        ++j;
      }
      i = j + 1;
    } else if (IdentStart(ch)) {
      while (i < n && (IdentStart(c[i]) || Digit(c[i]))) ++i;
    } else if (Digit(ch)) {
      const size_t start = i;
      while (i < n && Digit(c[i])) ++i;
      if (i < n && c[i] == 'u') ++i;
      if (i < n && (IdentStart(c[i]) || Digit(c[i])))
        return Bad(why, start, "malformed number '" + c.substr(start, i + 1 - start) + "'");
    } else if (ch == '#') {
      static const char kInclude[] = "#include \"";
      static const char kDefine[] = "#define ";
      if (c.compare(i, std::strlen(kInclude), kInclude) == 0) {
        i += std::strlen(kInclude) - 1;  // the string literal next
      } else if (c.compare(i, std::strlen(kDefine), kDefine) == 0) {
        i += std::strlen(kDefine);  // the name and value next
      } else {
        return Bad(why, i, "preprocessor line other than #include or #define");
      }
    } else if (ch == '{' || ch == '(' || ch == '[') {
      open += ch;
      ++i;
    } else if (ch == '}' || ch == ')' || ch == ']') {
      const char want = ch == '}' ? '{' : ch == ')' ? '(' : '[';
      if (open.empty() || open.back() != want)
        return Bad(why, i, std::string("unbalanced '") + ch + "'");
      open.pop_back();
      ++i;
    } else if (std::strchr(",;=*&->./", ch) != nullptr) {
      ++i;
    } else {
      return Bad(why, i, "unexpected byte " + std::to_string(static_cast<unsigned char>(ch)));
    }
  }
  if (!open.empty()) return Bad(why, n, "unclosed '" + open.substr(open.size() - 1) + "'");
  return true;
}

}  // namespace nicc_fuzz
