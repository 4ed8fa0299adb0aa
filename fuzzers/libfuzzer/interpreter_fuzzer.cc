// libFuzzer target for the reference interpreter: arbitrary bytes → read →
// validate → run, with small limits. The interpreter's contract is that no
// input crashes, hangs or touches host memory out of bounds (sanitizers
// report those); whatever the module does must come back as an Execution.
//
// Inputs are made 4-byte aligned and get the SPIR-V magic number, as
// SPIRV-Cross's parser fuzzer does, so mutations spend their time past the
// header. Modules spirv-val rejects are still run with skip_validation, which
// exercises the decoder's own guards.
#include <cstdint>
#include <cstring>
#include <vector>

#include "oracles/reference/interpreter.h"
#include "spirv/binary.h"
#include "spirv/test_case.h"
#include "spirv/type_table.h"
#include "spirv/unified1/spirv.hpp11"

namespace {

using l0spv::spirv::KernelArg;

constexpr uint64_t kArgBytes = 256;

// One argument per parameter of the first entry point, sized from its type.
std::vector<KernelArg> ArgsFor(const l0spv::spirv::Module& module,
                               uint32_t entry_id) {
  std::vector<KernelArg> args;
  const l0spv::spirv::Function* fn = module.FindFunction(entry_id);
  if (fn == nullptr) return args;
  const l0spv::spirv::TypeTable types(module);
  for (const auto& param : fn->parameters) {
    KernelArg arg;
    const auto* type = types.Get(param.type_id());
    if (type != nullptr && type->op == spv::Op::OpTypePointer &&
        type->storage_class == spv::StorageClass::Workgroup) {
      arg.kind = KernelArg::Kind::kLocal;
      arg.local_bytes = kArgBytes;
    } else if (type != nullptr && type->op == spv::Op::OpTypePointer &&
               type->storage_class != spv::StorageClass::Function) {
      arg.kind = KernelArg::Kind::kBuffer;
      arg.bytes.assign(kArgBytes, 0x5A);
    } else {
      // Scalars, vectors, by-value structs (Function pointers + ByVal).
      uint32_t value_type = param.type_id();
      if (type != nullptr && type->op == spv::Op::OpTypePointer)
        value_type = type->element;
      const uint64_t size = types.SizeOf(value_type).value_or(8);
      arg.kind = KernelArg::Kind::kScalar;
      arg.bytes.assign(size == 0 || size > kArgBytes ? 8 : size, 0x01);
    }
    args.push_back(std::move(arg));
  }
  return args;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  bytes.resize((bytes.size() + 3) / 4 * 4);
  if (bytes.size() < 20) bytes.resize(20, 0);
  const uint32_t magic = l0spv::spirv::kMagicNumber;
  std::memcpy(bytes.data(), &magic, 4);

  auto module = l0spv::spirv::ReadModule(bytes);
  if (!module.ok() || module->entry_points.empty()) return 0;
  const auto& entry = module->entry_points.front();
  if (entry.NumOperands() < 3) return 0;

  l0spv::spirv::TestCase tc;
  tc.module_words = l0spv::spirv::EncodeModule(*module);
  tc.entry_point = entry.operand(2).AsString();
  tc.nd_range.dims = 1;
  tc.nd_range.global = {4, 1, 1};
  tc.nd_range.local = std::array<uint64_t, 3>{2, 1, 1};
  tc.args = ArgsFor(*module, entry.word(1));

  l0spv::oracles::reference::ReferenceOptions options;
  options.step_budget = 20'000;
  options.memory_limit_bytes = 64 << 20;
  // Every optional check on half of the inputs (races are on by default),
  // and a schedule seed / odd subgroup size on some, chosen from the input
  // so a reproducer replays the same run.
  options.check_uninitialized = (size & 1) != 0;
  if ((size & 2) != 0) options.schedule_seed = size;
  if ((size & 4) != 0) options.subgroup_size = 3;
  auto e = l0spv::oracles::reference::RunReference(tc, options);
  if (e.status == l0spv::oracles::ExecutionStatus::kBuildFailed) {
    options.skip_validation = true;
    (void)l0spv::oracles::reference::RunReference(tc, options);
  }
  return 0;
}
