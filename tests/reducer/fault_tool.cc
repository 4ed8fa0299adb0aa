// l0spv_reduce_fault_tool — the reducer driven with the test-only fault
// targets of reduce_fault_target.h, for the reducer tests and
// ci/reduce-bench.sh. Flags are --name=value.
//
//   check CASE_DIR --target=T --signature=S [--strict] [--timeout=S]
//         [--module=F [--kernel_fixup]]  exit 1 interesting, 0 not, 2 bad input
//   reduce FINDING_DIR [--reduce_time=S] [--no_spirv_reduce]
//                               one JSON line: the report + fault_present
//   make-findings --fault=T --count=N --out=DIR [--seed=S]
//         [--min_instructions=300] [--max_statements=200]
//                               DIR/<i>/findings/<name>/ per case found
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "fuzzers/campaign/findings.h"
#include "generators/kernel/generator.h"
#include "reducers/check_case.h"
#include "reducers/finding.h"
#include "reducers/module_edit.h"
#include "reducers/pipeline.h"
#include "tests/reducer/fault_findings.h"
#include "tests/reducer/reduce_fault_target.h"

namespace {

using namespace l0spv;

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> flags;
  std::string Get(const std::string& k, const std::string& d = "") const {
    auto it = flags.find(k);
    return it == flags.end() ? d : it->second;
  }
  uint64_t Num(const std::string& k, uint64_t d) const {
    uint64_t v = d;
    auto it = flags.find(k);
    if (it != flags.end() && !absl::SimpleAtoi(it->second, &v)) {
      std::cerr << "bad number for --" << k << "\n";
      std::exit(2);
    }
    return v;
  }
};

Args Parse(int argc, char** argv) {
  Args a;
  for (int i = 2; i < argc; ++i) {
    std::string s = argv[i];
    if (s.rfind("--", 0) == 0) {
      const size_t eq = s.find('=');
      a.flags[s.substr(2,
                       eq == std::string::npos ? std::string::npos : eq - 2)] =
          eq == std::string::npos ? "1" : s.substr(eq + 1);
    } else {
      a.positional.push_back(s);
    }
  }
  return a;
}

std::string Self() {
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/self/exe", ec).string();
}

int Check(const Args& a) {
  if (a.positional.size() != 1) return 2;
  reducers::CheckRequest r;
  r.case_dir = a.positional[0];
  r.module_file = a.Get("module");
  r.targets = absl::StrSplit(a.Get("target", "ref"), ',');
  r.signature = a.Get("signature");
  r.strict = a.flags.contains("strict");
  r.kernel_fixup = a.flags.contains("kernel_fixup");
  r.reference_steps = a.Num("ref_steps", 0);
  r.timeout = std::chrono::seconds(a.Num("timeout", 10));
  r.make_target = testing::MakeReduceFaultTarget;
  auto out = reducers::CheckCaseDir(r);
  if (!out.ok()) {
    std::cerr << out.status().message() << "\n";
    return 2;
  }
  return out->interesting ? 1 : 0;
}

int Reduce(const Args& a) {
  if (a.positional.size() != 1) return 2;
  reducers::ReduceOptions o;
  o.budget = std::chrono::seconds(a.Num("reduce_time", 120));
  o.target_timeout = std::chrono::seconds(a.Num("timeout", 10));
  o.make_target = testing::MakeReduceFaultTarget;
  o.self_command = Self();
  if (!a.flags.contains("no_spirv_reduce"))
    o.check_command = {o.self_command, "check"};
  o.spirv_reduce = a.Get("spirv_reduce");
  if (a.flags.contains("verbose")) o.log = &std::cerr;
  auto report = reducers::ReduceFinding(a.positional[0], o);
  if (!report.ok()) {
    std::cerr << report.status().message() << "\n";
    return 2;
  }
  auto finding = reducers::ReadFinding(a.positional[0]);
  auto reduced = spirv::ReadTestCase(a.positional[0] + "/reduced");
  nlohmann::json j = report->ToJson();
  j["finding"] = a.positional[0];
  j["fault_present"] =
      finding.ok() && reduced.ok() &&
      testing::HasFault(finding->target, reduced->module_words);
  j.erase("stages");
  std::cout << j.dump() << "\n";
  return 0;
}

int MakeFindings(const Args& a) {
  testing::FaultFindingOptions o;
  o.fault = a.Get("fault");
  const std::string out = a.Get("out");
  if (o.fault.empty() || out.empty()) return 2;
  o.count = a.Num("count", 20);
  o.first_seed = a.Num("seed", 1);
  o.min_instructions = a.Num("min_instructions", 300);
  o.max_statements = static_cast<uint32_t>(a.Num("max_statements", 200));
  o.reproduce = Self() + " check {case} --target=" + o.fault;
  const std::vector<std::string> found = testing::MakeFaultFindings(o, out);
  for (const std::string& dir : found) std::cout << dir << "\n";
  return found.size() == o.count ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: l0spv_reduce_fault_tool check|reduce|make-findings "
                 "...\n";
    return 2;
  }
  const std::string cmd = argv[1];
  const Args a = Parse(argc, argv);
  if (cmd == "check") return Check(a);
  if (cmd == "reduce") return Reduce(a);
  if (cmd == "make-findings") return MakeFindings(a);
  std::cerr << "unknown command " << cmd << "\n";
  return 2;
}
