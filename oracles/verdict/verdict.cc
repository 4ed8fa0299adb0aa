#include "oracles/verdict/verdict.h"

#include <cctype>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "oracles/compare/compare.h"
#include "oracles/verdict/log_cause.h"
#include "spirv/hash.h"

namespace l0spv::oracles {

const char* VerdictKindName(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kOk:
      return "ok";
    case VerdictKind::kSkipped:
      return "skipped";
    case VerdictKind::kCrash:
      return "crash";
    case VerdictKind::kTimeout:
      return "timeout";
    case VerdictKind::kRejectedValid:
      return "rejected-valid";
    case VerdictKind::kAcceptedInvalid:
      return "accepted-invalid";
    case VerdictKind::kMismatch:
      return "mismatch";
    case VerdictKind::kTargetUb:
      return "target-ub";
    case VerdictKind::kUb:
      return "ub";
  }
  return "?";
}

nlohmann::json Verdict::ToJson() const {
  return {{"kind", VerdictKindName(kind)},
          {"target", target},
          {"explanation", explanation},
          {"signature", signature}};
}

namespace {

constexpr size_t kMaxSignature = 120;

bool IsNoiseLine(std::string_view line) {
  // Lines that carry no information about where the consumer failed:
  // banners, stack-frame dumps (their addresses change every run).
  static constexpr std::string_view kNoise[] = {
      "compilation from ir - skipping loading of fcl",
      "linker execution has succeeded",  // ocloc link, before the compile
      "command was:",
      "build failed",
      "error: backend compiler failed build",
      "please submit a bug report",
      "stack dump",
      "debugging information not available",
  };
  const size_t first = line.find_first_not_of(" \t");
  if (first != std::string_view::npos &&
      (line.substr(first, 2) == "0x" ||
       (line[first] == '#' && first + 1 < line.size() &&
        std::isdigit(static_cast<unsigned char>(line[first + 1])))))
    return true;
  // "[oclgrind]", "[worker stderr]": section headers of adapter logs.
  if (!line.empty() && line.front() == '[' && line.back() == ']') return true;
  std::string lower(line);
  for (char& c : lower) c = static_cast<char>(std::tolower(c));
  if (IsBannerLine(lower)) return true;
  for (std::string_view n : kNoise) {
    if (lower.find(n) != std::string::npos) return true;
  }
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

// Keeps [a-z0-9] and separators, lowercases, collapses runs.
std::string Slug(std::string_view text) {
  std::string out;
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    char mapped = 0;
    if (std::isalnum(u)) {
      mapped = static_cast<char>(std::tolower(u));
    } else if (c == '.' || c == '_') {
      mapped = c;
    } else {
      mapped = '-';
    }
    if (mapped == '-' && (out.empty() || out.back() == '-')) continue;
    out.push_back(mapped);
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string Signature(VerdictKind kind, const std::string& target,
                      std::string_view detail) {
  std::string s =
      absl::StrCat(VerdictKindName(kind), ":", TargetKindForSignature(target));
  const std::string d = Slug(detail);
  if (!d.empty()) absl::StrAppend(&s, ":", d);
  if (s.size() > kMaxSignature) s.resize(kMaxSignature);
  while (!s.empty() && (s.back() == '-' || s.back() == ':')) s.pop_back();
  return s;
}

// The first informative line of a message or log.
std::string FirstMeaningfulLine(std::string_view text) {
  std::string pending;
  // Debian's abseil has its own string_view type.
  for (absl::string_view piece :
       absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    const std::string_view line(piece.data(), piece.size());
    if (IsNoiseLine(line)) continue;
    // "OCLGRIND FATAL ERROR (./src/core/WorkItem.cpp:1681)" says where,
    // the next line says what: keep both.
    if (pending.empty() && line.find("FATAL ERROR") != std::string_view::npos) {
      pending = std::string(line);
      continue;
    }
    return pending.empty() ? std::string(line)
                           : absl::StrCat(pending, " ", std::string(line));
  }
  return pending;
}

}  // namespace

std::string NormalizeMessage(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  size_t i = 0;
  while (i < message.size()) {
    const char c = message[i];
    // Quoted names ('foo', "bar") -> Q.
    if (c == '\'' || c == '"') {
      const size_t end = message.find(c, i + 1);
      if (end != std::string_view::npos && end - i < 80) {
        out += "Q";
        i = end + 1;
        continue;
      }
    }
    // Paths (/a/b/c) -> P.
    if (c == '/' && i + 1 < message.size() &&
        (std::isalnum(static_cast<unsigned char>(message[i + 1])) ||
         message[i + 1] == '_' || message[i + 1] == '.')) {
      while (i < message.size() && message[i] != ' ' && message[i] != ':' &&
             message[i] != ',' && message[i] != ')')
        ++i;
      out += "P";
      continue;
    }
    // Short decimal numbers after a space are kept: they name things (an
    // opcode, a signal, an access size) rather than vary between runs.
    if (std::isdigit(static_cast<unsigned char>(c)) && i > 0 &&
        message[i - 1] == ' ') {
      size_t end = i;
      while (end < message.size() &&
             std::isdigit(static_cast<unsigned char>(message[end])))
        ++end;
      const bool word_ends =
          end == message.size() ||
          !std::isalnum(static_cast<unsigned char>(message[end]));
      // ...except positions, which move with every module.
      bool positional = false;
      for (const char* word :
           {"word ", "line ", "column ", "offset ", "byte ", "instruction "}) {
        const size_t n = std::strlen(word);
        if (out.size() >= n && out.compare(out.size() - n, n, word) == 0)
          positional = true;
      }
      if (end - i <= 3 && word_ends && !positional) {
        out.append(message.substr(i, end - i));
        i = end;
        continue;
      }
    }
    // %ids, hex and other numbers -> N.
    if (c == '%' || std::isdigit(static_cast<unsigned char>(c))) {
      ++i;
      while (i < message.size() &&
             (std::isalnum(static_cast<unsigned char>(message[i])) ||
              message[i] == '_'))
        ++i;
      out += "N";
      continue;
    }
    out.push_back(c);
    ++i;
  }
  return out;
}

std::string TargetKindForSignature(const std::string& target) {
  const size_t colon = target.find(':');
  const std::string kind = target.substr(0, colon);
  if (kind == "ocloc" && colon != std::string::npos)
    return Slug(absl::StrCat("ocloc-", target.substr(colon + 1)));
  // An OpenCL platform is a consumer of its own (PoCL, Intel's CPU runtime,
  // a GPU driver): two platforms' findings must never share a signature.
  // The platform's first word names it ("opencl:Intel(R) OpenCL" and
  // "opencl:Intel" alike); a release suffix is kept, as for other kinds.
  if (kind == "opencl" && colon != std::string::npos) {
    const std::string platform = target.substr(colon + 1);
    const size_t at = platform.find('@');
    const std::string name = platform.substr(0, at);
    const size_t end = name.find_first_not_of(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789");
    return Slug(absl::StrCat(
        "opencl-", name.substr(0, end),
        at == std::string::npos ? "" : "-" + platform.substr(at + 1)));
  }
  return Slug(kind);
}

std::string TargetFileStem(const std::string& target) {
  std::string stem =
      absl::StrReplaceAll(target, {{"/", "_"}, {" ", "_"}, {":", "_"}});
  constexpr size_t kMax = 80;
  if (stem.size() <= kMax) return stem;
  const uint64_t h = spirv::Fnv1a64(target);  // stable across runs
  stem.resize(kMax);
  return absl::StrCat(stem, "-", absl::Hex(h & 0xffffffff, absl::kZeroPad8));
}

// Where a crash happened: the signal, plus the first informative line after
// the adapter's "<consumer> crashed: signal N (Name)" prefix (an assertion,
// a fatal error), else the first informative line of the log.
static std::string CrashDetail(const Execution& actual) {
  std::string signal;
  std::string rest = actual.message;
  const size_t sig = rest.find("signal ");
  if (sig != std::string::npos) {
    const size_t close = rest.find(')', sig);
    signal = rest.substr(
        sig, close == std::string::npos ? std::string::npos : close - sig + 1);
    rest = close == std::string::npos ? "" : rest.substr(close + 1);
    const size_t start = rest.find_first_not_of(": ");
    rest = start == std::string::npos ? "" : rest.substr(start);
  }
  // What the log names as the cause (an assertion, the running pass, the
  // first frame inside the consumer) before any first line: an LLVM crash's
  // first lines are its command line, the same for every crash.
  std::string cause = LogCause(absl::StrCat(rest, "\n", actual.log));
  if (!cause.empty()) return absl::StrCat(signal, " ", cause);
  std::string detail = FirstMeaningfulLine(rest);
  if (detail.empty()) detail = FirstMeaningfulLine(actual.log);
  return NormalizeMessage(absl::StrCat(signal, " ", detail));
}

Verdict JudgeReference(const Execution& reference) {
  Verdict v;
  v.target = "ref";
  switch (reference.status) {
    case ExecutionStatus::kOk:
      return v;
    case ExecutionStatus::kUbDetected: {
      v.kind = VerdictKind::kUb;
      v.explanation = absl::StrCat(
          "the reference found undefined behaviour in a generated case (a "
          "generator bug): ",
          reference.message);
      // The check's name is the text before the first ':' or ' in '.
      std::string check =
          reference.message.substr(0, reference.message.find_first_of(":("));
      v.signature = Signature(v.kind, "ref", NormalizeMessage(check));
      return v;
    }
    default:
      v.kind = VerdictKind::kSkipped;
      v.explanation = absl::StrCat("the reference could not run the case (",
                                   ExecutionStatusName(reference.status),
                                   "): ", reference.message);
      return v;
  }
}

Verdict Judge(const spirv::TestCase& test_case, const Execution& reference,
              const std::string& target, bool executes,
              const Execution& actual) {
  Verdict v;
  v.target = target;
  if (reference.status != ExecutionStatus::kOk) {
    v.kind = VerdictKind::kSkipped;
    v.explanation = "the reference did not run the case";
    return v;
  }
  switch (actual.status) {
    case ExecutionStatus::kOk:
      break;
    case ExecutionStatus::kUnsupported:
      v.kind = VerdictKind::kSkipped;
      v.explanation =
          absl::StrCat(target, " cannot run this case here: ", actual.message);
      return v;
    case ExecutionStatus::kCrashed: {
      v.kind = VerdictKind::kCrash;
      v.explanation = absl::StrCat(target, " crashed: ", actual.message,
                                   actual.log.empty() ? "" : "\n", actual.log);
      v.signature = Signature(v.kind, target, CrashDetail(actual));
      return v;
    }
    case ExecutionStatus::kTimedOut:
      v.kind = VerdictKind::kTimeout;
      v.explanation = absl::StrCat(target, " timed out: ", actual.message);
      v.signature = Signature(v.kind, target, "");
      return v;
    case ExecutionStatus::kBuildFailed: {
      v.kind = VerdictKind::kRejectedValid;
      // The cause the log names (the missing symbols, an assertion), else
      // its first line that is no banner.
      std::string first =
          LogCause(absl::StrCat(actual.message, "\n", actual.log));
      if (first.empty())
        first = NormalizeMessage(FirstMeaningfulLine(
            actual.log.empty() ? actual.message : actual.log));
      v.explanation = absl::StrCat(
          target,
          " rejected a module that spirv-val and the Level Zero "
          "rules accept: ",
          actual.message, actual.log.empty() ? "" : "\n", actual.log);
      v.signature =
          Signature(v.kind, target, first.empty() ? "no-message" : first);
      return v;
    }
    case ExecutionStatus::kUbDetected: {
      v.kind = VerdictKind::kTargetUb;
      v.explanation = absl::StrCat(
          target, " reported an error on a case the reference runs cleanly: ",
          actual.message);
      v.signature =
          Signature(v.kind, target,
                    NormalizeMessage(FirstMeaningfulLine(actual.message)));
      return v;
    }
  }
  if (!executes) return v;  // compile-only: accepted = ok
  const CompareResult r = CompareExecutions(test_case, reference, actual,
                                            CompareOptionsFor(test_case));
  if (r.equal) return v;
  v.kind = VerdictKind::kMismatch;
  v.explanation = absl::StrCat(
      target,
      " computed a different result than the reference: ", r.explanation);
  v.signature = Signature(v.kind, target, r.signature_kind);
  return v;
}

}  // namespace l0spv::oracles
