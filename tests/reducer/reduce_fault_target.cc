#include "tests/reducer/reduce_fault_target.h"

#include <signal.h>

#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "oracles/process/subprocess.h"
#include "spirv/binary.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::testing {
namespace {

using spv::Op;

// Result ids of the 16-bit integer vector types.
absl::flat_hash_map<uint32_t, bool> Int16Vectors(const spirv::Module& m) {
  absl::flat_hash_map<uint32_t, bool> int16, vec;
  for (const spirv::Instruction& i : m.types_values) {
    if (i.opcode() == static_cast<uint32_t>(Op::OpTypeInt) && i.word(0) == 16)
      int16[i.result_id()] = true;
    if (i.opcode() == static_cast<uint32_t>(Op::OpTypeVector) &&
        int16.contains(i.word(0)))
      vec[i.result_id()] = true;
  }
  return vec;
}

bool IsRotate(const spirv::Instruction& i, uint32_t ocl) {
  if (i.opcode() != static_cast<uint32_t>(Op::OpExtInst) || ocl == 0 ||
      i.NumOperands() < 2 || i.word(0) != ocl)
    return false;
  const spirv::ExtInstInfo* info = spirv::FindOpenClStd(i.word(1));
  return info != nullptr && std::strcmp(info->name, "rotate") == 0;
}

class ReduceFaultTarget : public oracles::Target {
 public:
  ReduceFaultTarget(std::string name, std::unique_ptr<oracles::Target> ref)
      : name_(std::move(name)), ref_(std::move(ref)) {}
  const std::string& name() const override { return name_; }
  bool executes() const override { return true; }
  const std::string& consumer() const override { return consumer_; }

  oracles::Execution Run(const spirv::TestCase& tc,
                         const oracles::TargetRunLimits& limits) override {
    auto m = spirv::ReadModuleWords(tc.module_words);
    if (!m.ok()) return ref_->Run(tc, limits);
    if (name_ == "fault-crash-rotate" || name_ == "fault-link-rotate") {
      bool faulty = false;
      if (name_ == "fault-crash-rotate") {
        faulty = HasFault(name_, tc.module_words);
      } else {  // a linker's fault: rotate in a linked module
        for (const auto& words : tc.linked_modules)
          faulty = faulty || HasFault("fault-crash-rotate", words);
      }
      if (!faulty) return ref_->Run(tc, limits);
      oracles::ChildLimits child;
      child.wall_time = limits.wall_time;
      auto r = oracles::RunInChild(
          []() -> std::string {
            ::raise(SIGSEGV);
            return "";
          },
          child);
      oracles::Execution e;
      if (!r.ok()) {
        e.status = oracles::ExecutionStatus::kUnsupported;
        e.message = std::string(r.status().message());
        return e;
      }
      e.status = oracles::ExecutionStatus::kCrashed;
      e.message = r->Describe();
      return e;
    }
    // fault-imul16v: miscompile 16-bit vector multiplies into additions.
    const auto vec16 = Int16Vectors(*m);
    for (spirv::Function& f : m->functions)
      for (spirv::BasicBlock& b : f.blocks)
        for (spirv::Instruction& i : b.instructions)
          if (i.opcode() == static_cast<uint32_t>(Op::OpIMul) &&
              vec16.contains(i.type_id()))
            i.set_opcode(static_cast<uint32_t>(Op::OpIAdd));
    spirv::TestCase miscompiled = tc;
    miscompiled.module_words = spirv::EncodeModule(*m);
    return ref_->Run(miscompiled, limits);
  }

 private:
  std::string name_;
  std::string consumer_ = "test fault injector (reference variant)";
  std::unique_ptr<oracles::Target> ref_;
};

}  // namespace

bool HasFault(const std::string& name, const std::vector<uint32_t>& words) {
  auto m = spirv::ReadModuleWords(words);
  if (!m.ok()) return false;
  const uint32_t ocl = m->OpenClStdImportId();
  const auto vec16 = Int16Vectors(*m);
  bool found = false;
  for (const spirv::Function& f : m->functions)
    for (const spirv::BasicBlock& b : f.blocks)
      for (const spirv::Instruction& i : b.instructions) {
        if (name == "fault-crash-rotate" && IsRotate(i, ocl)) found = true;
        if (name == "fault-imul16v" &&
            i.opcode() == static_cast<uint32_t>(Op::OpIMul) &&
            vec16.contains(i.type_id()))
          found = true;
      }
  return found;
}

absl::StatusOr<std::unique_ptr<oracles::Target>> MakeReduceFaultTarget(
    const std::string& name, const oracles::TargetOptions& options) {
  if (name != "fault-imul16v" && name != "fault-crash-rotate" &&
      name != "fault-link-rotate")
    return oracles::MakeTarget(name, options);
  // The faulty consumer runs the interpreter without UB checks, as a device
  // would; the oracle's own `ref` keeps them.
  oracles::TargetOptions plain = options;
  plain.reference = oracles::reference::ReferenceOptions{};
  plain.reference.check_races = false;
  auto ref = oracles::MakeTarget("ref", plain);
  if (!ref.ok()) return ref.status();
  return std::make_unique<ReduceFaultTarget>(name, std::move(*ref));
}

}  // namespace l0spv::testing
