#include "tests/reducer/fault_findings.h"

#include <chrono>

#include "fuzzers/campaign/findings.h"
#include "generators/kernel/generator.h"
#include "reducers/interestingness.h"
#include "reducers/module_edit.h"
#include "tests/reducer/reduce_fault_target.h"

namespace l0spv::testing {

std::vector<std::string> MakeFaultFindings(const FaultFindingOptions& options,
                                           const std::string& out_dir) {
  std::vector<std::string> found;
  reducers::InterestingnessOptions io;
  io.targets = {options.fault};
  io.make_target = MakeReduceFaultTarget;
  io.limits.wall_time = std::chrono::seconds(10);
  auto oracle = reducers::Interestingness::Make(io);
  if (!oracle.ok()) return found;
  for (uint64_t seed = options.first_seed;
       found.size() < options.count && seed < options.last_seed; ++seed) {
    generators::kernel::GeneratorOptions g;
    g.seed = seed;
    g.max_statements = options.max_statements;
    auto tc = generators::kernel::GenerateTestCase(g);
    if (!tc.ok() ||
        reducers::FunctionBodyInstructionCount(tc->module_words) <
            options.min_instructions ||
        !HasFault(options.fault, tc->module_words))
      continue;
    const reducers::CheckOutcome c = (*oracle)->Check(*tc);
    if (!c.interesting) continue;
    fuzzers::campaign::FindingRecord r;
    for (const auto& v : c.verdicts)
      if (v.target == options.fault && v.IsFinding()) r.verdict = v;
    r.test_case = *tc;
    r.seed = seed;
    r.outputs = c.executions;
    r.reproduce = options.reproduce;
    const std::string dir = out_dir + "/" + std::to_string(found.size());
    if (!fuzzers::campaign::RecordFinding(dir, r).ok()) continue;
    found.push_back(dir + "/findings/" +
                    fuzzers::campaign::FindingDirName(r.verdict.signature));
  }
  return found;
}

}  // namespace l0spv::testing
