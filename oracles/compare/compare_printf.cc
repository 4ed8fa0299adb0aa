#include "oracles/compare/compare_printf.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"

namespace l0spv::oracles {
namespace {

bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)); }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }
bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

// Length of a hex float starting at `s[i]` (optional sign, 0x, digits with
// at most one point, p, optional sign, decimal digits), or 0.
size_t HexFloatLength(std::string_view s, size_t i) {
  size_t j = i;
  if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
  if (j + 1 >= s.size() || s[j] != '0' || (s[j + 1] != 'x' && s[j + 1] != 'X'))
    return 0;
  j += 2;
  size_t digits = 0;
  while (j < s.size() && IsHex(s[j])) ++j, ++digits;
  if (j < s.size() && s[j] == '.') {
    ++j;
    while (j < s.size() && IsHex(s[j])) ++j, ++digits;
  }
  if (digits == 0 || j >= s.size() || (s[j] != 'p' && s[j] != 'P')) return 0;
  ++j;
  if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
  const size_t exponent = j;
  while (j < s.size() && IsDigit(s[j])) ++j;
  return j == exponent ? 0 : j - i;
}

// Length of a NaN starting at `s[i]` ([+-]nan, optionally followed by a
// parenthesised n-char-sequence, any case), or 0.
size_t NanLength(std::string_view s, size_t i) {
  size_t j = i;
  if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
  if (j + 3 > s.size()) return 0;
  for (size_t k = 0; k < 3; ++k)
    if (std::tolower(static_cast<unsigned char>(s[j + k])) != "nan"[k])
      return 0;
  j += 3;
  if (j < s.size() && s[j] == '(') {
    const size_t close = s.find(')', j);
    if (close != std::string_view::npos) j = close + 1;
  }
  if (j < s.size() && IsWordChar(s[j])) return 0;
  return j - i;
}

}  // namespace

std::string CanonicalPrintfLine(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (size_t i = 0; i < line.size();) {
    // A token starts the line or follows a non-word character.
    const bool boundary = i == 0 || !IsWordChar(line[i - 1]);
    if (boundary) {
      if (const size_t n = HexFloatLength(line, i); n > 0) {
        const std::string token(line.substr(i, n));
        const bool upper = token.find('X') != std::string::npos;
        const double v = std::strtod(token.c_str(), nullptr);
        const bool plus = token[0] == '+';
        if (upper)
          out += plus ? absl::StrFormat("%+A", v) : absl::StrFormat("%A", v);
        else
          out += plus ? absl::StrFormat("%+a", v) : absl::StrFormat("%a", v);
        i += n;
        continue;
      }
      if (const size_t n = NanLength(line, i); n > 0) {
        const size_t letters = line[i] == '+' || line[i] == '-' ? i + 1 : i;
        out += std::isupper(static_cast<unsigned char>(line[letters]))
                   ? "NAN"
                   : "nan";
        i += n;
        continue;
      }
    }
    out += line[i++];
  }
  return out;
}

CompareResult ComparePrintf(const std::string& expected,
                            const std::string& actual) {
  if (expected == actual) return {};
  auto lines = [](const std::string& text) {
    std::vector<std::string> v;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      end = end == std::string::npos ? text.size() : end + 1;
      v.push_back(CanonicalPrintfLine(
          std::string_view(text).substr(start, end - start)));
      start = end;
    }
    std::sort(v.begin(), v.end());
    return v;
  };
  const std::vector<std::string> x = lines(expected);
  const std::vector<std::string> y = lines(actual);
  if (x == y) return {};
  // The first line (in sorted order) whose counts differ.
  size_t i = 0, j = 0;
  std::string line;
  while (i < x.size() || j < y.size()) {
    if (j == y.size() || (i < x.size() && x[i] < y[j])) {
      line = x[i];
      break;
    }
    if (i == x.size() || y[j] < x[i]) {
      line = y[j];
      break;
    }
    std::string same = x[i];
    size_t a = 0, b = 0;
    while (i < x.size() && x[i] == same) ++i, ++a;
    while (j < y.size() && y[j] == same) ++j, ++b;
    if (a != b) {
      line = same;
      break;
    }
  }
  const auto count = [&line](const std::vector<std::string>& v) {
    return std::count(v.begin(), v.end(), line);
  };
  std::string shown = line;
  if (!shown.empty() && shown.back() == '\n') shown.pop_back();
  return {false,
          absl::StrFormat("printf output differs: line \"%s\" printed %d "
                          "time(s) by the reference, %d by the target (%d vs "
                          "%d lines, compared in any order)",
                          absl::CHexEscape(shown), count(x), count(y),
                          x.size(), y.size()),
          "printf"};
}

}  // namespace l0spv::oracles
