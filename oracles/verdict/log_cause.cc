#include "oracles/verdict/log_cause.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "oracles/verdict/verdict.h"

namespace l0spv::oracles {
namespace {

// Debian's abseil has its own string_view type: std::string_view helpers.
bool Has(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}
bool Begins(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
      line.remove_suffix(1);
    out.push_back(line);
    start = end + 1;
  }
  return out;
}

bool IsSymbolChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
         c == '$';
}

// The names inside "[ a, b ]" (or a bare list) after `at`.
std::set<std::string> SymbolList(std::string_view rest) {
  std::set<std::string> out;
  size_t i = 0;
  const size_t close = rest.find(']');
  const std::string_view list =
      close == std::string_view::npos ? rest : rest.substr(0, close);
  while (i < list.size()) {
    while (i < list.size() && !IsSymbolChar(list[i])) ++i;
    size_t j = i;
    while (j < list.size() && IsSymbolChar(list[j])) ++j;
    if (j > i) out.insert(BaseSymbolName(list.substr(i, j - i)));
    i = j;
  }
  return out;
}

std::string SymbolsRule(const std::vector<std::string_view>& lines) {
  std::set<std::string> names;
  for (std::string_view line : lines) {
    for (std::string_view marker :
         {"Symbols not found:", "undefined symbol:", "Cannot find symbol "}) {
      const size_t at = line.find(marker);
      if (at == std::string_view::npos) continue;
      std::set<std::string> some = SymbolList(line.substr(at + marker.size()));
      // A loader names one symbol and then its library: keep the first.
      if (marker != std::string_view("Symbols not found:") && !some.empty()) {
        std::string_view rest = line.substr(at + marker.size());
        size_t i = rest.find_first_not_of(" \t");
        size_t j = i;
        while (j < rest.size() && IsSymbolChar(rest[j])) ++j;
        some = {BaseSymbolName(rest.substr(i, j - i))};
      }
      names.insert(some.begin(), some.end());
    }
  }
  if (names.empty()) return "";
  // One cause per signature: the first name. A module missing two built-ins
  // shows the first one's bug (its reduction keeps that one); the whole list
  // stays in the explanation.
  return absl::StrCat("symbols not found: ", *names.begin());
}

std::string AssertionRule(const std::vector<std::string_view>& lines) {
  for (std::string_view line : lines) {
    const size_t at = line.find("Assertion `");
    if (at == std::string_view::npos) continue;
    std::string_view cond = line.substr(at + 11);
    const size_t end = cond.find("' failed");
    if (end != std::string_view::npos) cond = cond.substr(0, end);
    return absl::StrCat("assertion: ", NormalizeMessage(cond));
  }
  return "";
}

std::string LlvmErrorRule(const std::vector<std::string_view>& lines) {
  for (std::string_view line : lines) {
    const size_t at = line.find("LLVM ERROR: ");
    if (at == std::string_view::npos) continue;
    return absl::StrCat("llvm error: ", NormalizeMessage(line.substr(at + 12)));
  }
  return "";
}

std::string PassRule(const std::vector<std::string_view>& lines) {
  std::string last;
  for (std::string_view line : lines) {
    // LLVM 14 quotes pass names with '...', newer releases with "...".
    const size_t at = line.find("Running pass ");
    if (at == std::string_view::npos || at + 14 > line.size()) continue;
    const char quote = line[at + 13];
    if (quote != '\'' && quote != '"') continue;
    std::string_view name = line.substr(at + 14);
    const size_t end = name.find(quote);
    if (end == std::string_view::npos) continue;
    name = name.substr(0, end);
    // The pass managers and pipelines ("function(a,b,...)") say nothing
    // about the cause.
    if (Has(name, "Pass Manager") || Has(name, "(")) continue;
    last = std::string(name);
  }
  return last.empty() ? "" : absl::StrCat("pass ", last);
}

// Frames of the crash machinery, not of the consumer.
bool IsHandlerFrame(std::string_view fn) {
  static constexpr std::string_view kSkip[] = {
      "llvm::sys::", "PrintStackTrace", "SignalHandler",  "__restore_rt",
      "__GI_raise",  "__GI_abort",      "__assert",       "__GI_",
      "__libc_",     "_start",          "std::terminate", "__cxa_",
      "__gnu_cxx::", "__pthread",       "pthread_kill",   "gsignal",
      "__sanitizer", "__asan",          "__ubsan",
  };
  for (std::string_view s : kSkip)
    if (Has(fn, s)) return true;
  return fn == "raise" || fn == "abort" || fn == "gsignal" ||
         fn == "__assert_fail";
}

// " #3 0x00007f12 llvm::Foo::bar(int) (/lib/x.so+0x12)" and
// "#3  0x00007f12 in llvm::Foo::bar (x=1) at f.cc:3" -> "llvm::Foo::bar".
std::string FrameFunction(std::string_view line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line[i] != '#') return "";
  ++i;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])))
    ++i;
  i = line.find_first_not_of(" \t", i);
  if (i == std::string_view::npos || line.substr(i, 2) != "0x") return "";
  i = line.find(' ', i);
  if (i == std::string_view::npos) return "";
  std::string_view fn = line.substr(i);
  while (!fn.empty() && (fn.front() == ' ' || fn.front() == '\t'))
    fn.remove_prefix(1);
  if (Begins(fn, "in ")) fn.remove_prefix(3);
  // The function ends at its argument list or at " (" / " at ".
  size_t end = fn.size();
  int depth = 0;
  for (size_t k = 0; k < fn.size(); ++k) {
    if (fn[k] == '<') ++depth;
    if (fn[k] == '>') --depth;
    if (depth <= 0 && (fn[k] == '(' || fn[k] == ' ')) {
      end = k;
      break;
    }
  }
  fn = fn.substr(0, end);
  if (fn.empty() || fn[0] == '(' || fn[0] == '/') return "";  // no symbol
  return std::string(fn);
}

std::string FrameRule(const std::vector<std::string_view>& lines) {
  for (std::string_view line : lines) {
    const std::string fn = FrameFunction(line);
    if (fn.empty() || IsHandlerFrame(fn)) continue;
    return absl::StrCat("frame ", fn);
  }
  return "";
}

}  // namespace

std::string BaseSymbolName(std::string_view symbol) {
  // Itanium mangling of a plain function: _Z <length> <name> <params>.
  if (symbol.size() > 3 && symbol.substr(0, 2) == "_Z" &&
      std::isdigit(static_cast<unsigned char>(symbol[2]))) {
    size_t i = 2;
    size_t len = 0;
    while (i < symbol.size() &&
           std::isdigit(static_cast<unsigned char>(symbol[i])))
      len = len * 10 + (symbol[i++] - '0');
    if (len > 0 && i + len <= symbol.size())
      return std::string(symbol.substr(i, len));
  }
  return std::string(symbol);
}

bool IsBannerLine(std::string_view lower) {
  static constexpr std::string_view kBanners[] = {
      "compilation started",
      "compilation done",
      "linking started",
      "linking done",
      "device build started",
      "device build done",
      "options used by backend compiler",
      "failed to build device program",
      "program arguments:",
      "remark: ",
      "build started",
      "build succeeded",
  };
  const size_t first = lower.find_first_not_of(" \t0123456789.");
  const std::string_view body =
      first == std::string_view::npos ? lower : lower.substr(first);
  for (std::string_view b : kBanners)
    if (Begins(body, b)) return true;
  return false;
}

std::string LogCause(std::string_view text) {
  const std::vector<std::string_view> lines = Lines(text);
  for (auto rule :
       {SymbolsRule, AssertionRule, LlvmErrorRule, PassRule, FrameRule}) {
    std::string cause = rule(lines);
    if (!cause.empty()) return cause;
  }
  return "";
}

}  // namespace l0spv::oracles
