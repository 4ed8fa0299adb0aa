// oracles/verdict/log_cause.h — the cause a consumer's log names, for a
// signature that separates causes: the missing-symbol list of a JIT link, an
// assertion's text, the LLVM pass that was running, the first stack frame
// inside the consumer, a verifier or translator message — never a banner
// ("Compilation started"), a command line ("Program arguments: ...") or an
// address.
//
// Contract: LogCause(text) tries the rules below over the whole text, in
// order, and returns the first that matches, as "RULE: DETAIL" text ready
// for Slug (numbers and ids already normalised, symbol names kept whole and
// demangled to their base name, lists sorted and de-duplicated):
//   1. symbols     "Symbols not found: [ _Z20get_global_linear_idv, ... ]"
//                  (LLVM ORC JIT: Intel's CPU runtime, a missing built-in)
//                  -> "symbols not found: get_global_linear_id" (the
//                  first name in sorted order: one cause per signature)
//                  "undefined symbol: NAME" (a loader) likewise;
//   2. assertion   "Assertion `COND' failed." -> "assertion: COND";
//   3. llvm-error  "LLVM ERROR: TEXT" -> "llvm error: TEXT";
//   4. pass        the last "N.\tRunning pass 'NAME' on ..." (or "NAME")
//                  of an LLVM stack dump, pass managers and pipelines
//                  skipped -> "pass NAME";
//   5. frame       the first frame of a stack ("#N 0x... FUNC(...)" or
//                  " #N 0x... FUNC (...)") that is not the crash handler,
//                  libc, the C++ runtime or LLVM's signal printer ->
//                  "frame FUNC" (arguments and offsets dropped).
// Empty when none matches; the caller then takes the first meaningful line
// (FirstMeaningfulLine in verdict.cc), which skips banners too.
// IsBannerLine says whether a line is one of those banners (progress lines
// every build prints, whatever the outcome).
#pragma once

#include <string>
#include <string_view>

namespace l0spv::oracles {

std::string LogCause(std::string_view text);

bool IsBannerLine(std::string_view lowercase_line);

// "_Z20get_global_linear_idv" -> "get_global_linear_id"; other names as
// they are.
std::string BaseSymbolName(std::string_view symbol);

}  // namespace l0spv::oracles
