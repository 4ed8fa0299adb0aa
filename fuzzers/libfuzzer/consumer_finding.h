// fuzzers/libfuzzer/consumer_finding.h — what a differential fuzz target
// does with a finding about a third-party consumer (spirv-opt, llvm-spirv).
//
// Contract: ConsumerFinding() prints the finding to stderr, then aborts —
// a crash, which is how libFuzzer and OSS-Fuzz record a finding — unless
// the environment sets L0SPV_FUZZ_REPORT_ONLY (to anything non-empty): then
// it returns and the run goes on. CI's smoke runs and the OSS-Fuzz build
// test set it: they prove that the harness builds and runs clean (our own
// code still aborts on any problem); the consumers' bugs, which these
// targets keep finding, are for nightly and OSS-Fuzz runs to collect, not
// a reason for an unrelated change to fail CI. (A fixed -seed does not make
// these runs repeatable: the consumers' own coverage varies between runs,
// e.g. LLVM's pointer-keyed maps.)
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace l0spv::fuzzers {

inline void ConsumerFinding(const std::string& report) {
  std::fprintf(stderr, "%s", report.c_str());
  const char* only = std::getenv("L0SPV_FUZZ_REPORT_ONLY");
  if (only != nullptr && only[0] != '\0') {
    std::fprintf(stderr, "(L0SPV_FUZZ_REPORT_ONLY: reported, not a crash)\n");
    return;
  }
  std::abort();
}

}  // namespace l0spv::fuzzers
