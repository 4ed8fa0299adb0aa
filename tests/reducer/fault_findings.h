// tests/reducer/fault_findings.h — campaign-style findings for the injected
// faults of reduce_fault_target.h, for the reducer tests, the fault tool
// (ci/reduce-bench.sh) and bench/reduce.
//
// Contract: MakeFaultFindings generates cases from consecutive seeds
// (first_seed up to, not including, last_seed), keeps those whose module
// holds the faulty operation, has at least min_instructions function-body
// instructions and makes the fault target disagree with `ref`, and records
// each as a campaign finding under out_dir/<i>/ (i = 0, 1, ...). Returns the
// finding directories: `count` of them, or fewer when the seeds run out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace l0spv::testing {

struct FaultFindingOptions {
  std::string fault;  // "fault-imul16v" or "fault-crash-rotate"
  size_t count = 1;
  uint64_t first_seed = 1;
  uint64_t last_seed = 100000;
  uint32_t max_statements = 200;
  size_t min_instructions = 0;
  // The finding's reproduce command ("{case}" = its case directory).
  std::string reproduce = "check {case}";
};

std::vector<std::string> MakeFaultFindings(const FaultFindingOptions& options,
                                           const std::string& out_dir);

}  // namespace l0spv::testing
