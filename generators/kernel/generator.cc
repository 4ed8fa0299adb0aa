#include "generators/kernel/generator.h"

#include "absl/strings/str_cat.h"
#include "generators/kernel/context.h"
#include "generators/kernel/features.h"
#include "generators/kernel/kernel_builder.h"
#include "generators/kernel/statements.h"
#include "oracles/validity/device_profile.h"
#include "spirv/binary.h"
#include "spirv/entry_interface.h"

namespace l0spv::generators::kernel {

void GenContext::Decorate(uint32_t target, spv::Decoration decoration,
                          std::vector<uint32_t> literals) {
  std::vector<spirv::Operand> ops{
      Id(target), spirv::EnumOperand(spirv::OperandKind::kDecoration,
                                     static_cast<uint32_t>(decoration))};
  for (uint32_t l : literals) ops.push_back(Lit(l));
  if (decoration == spv::Decoration::FPRoundingMode ||
      decoration == spv::Decoration::SaturatedConversion)
    decorated_conversions.insert(target);
  module.annotations.emplace_back(static_cast<uint32_t>(spv::Op::OpDecorate), 0,
                                  0, std::move(ops));
}

absl::StatusOr<spirv::TestCase> GenerateTestCase(
    const GeneratorOptions& options) {
  absl::StatusOr<oracles::DeviceProfile> profile =
      oracles::FindDeviceProfile(options.profile);
  if (!profile.ok()) return profile.status();

  const auto [min_version, max_version] = SpirvVersionRange(*profile, options);
  const bool well_formed = [](uint32_t v) {
    return (v & 0xFF0000FF) == 0 && (v >> 16) == 1;
  }(min_version);
  if (!well_formed || min_version > max_version) {
    return absl::InvalidArgumentError(
        absl::StrCat("no SPIR-V version to generate: versions ",
                     oracles::SpirvVersionString(min_version), " to ",
                     oracles::SpirvVersionString(max_version),
                     " requested, profile '", options.profile,
                     "' accepts 1.0 to ", profile->MaxSpirvVersionString()));
  }
  Rng rng(options.seed, options.decisions);
  rng.Record(options.record_decisions);
  const Features features = DrawFeatures(rng, *profile, options);

  spirv::Module module;
  module.header.version = features.spirv_version;
  // Registered generator ids are SPIR-V Khronos business; 0 = unknown.
  module.header.generator = 0;
  module.header.bound = 1;
  spirv::ModuleBuilder builder(module);
  TypeCatalog types(builder);
  builder.AddCapability(spv::Capability::Addresses);
  builder.AddCapability(spv::Capability::Kernel);
  builder.AddCapability(spv::Capability::Int64);  // size_t built-ins
  const uint32_t std_set = builder.ImportExtInstSet("OpenCL.std");
  module.memory_model.emplace_back(
      static_cast<uint32_t>(spv::Op::OpMemoryModel), 0, 0,
      std::vector<spirv::Operand>{
          spirv::EnumOperand(
              spirv::OperandKind::kAddressingModel,
              static_cast<uint32_t>(spv::AddressingModel::Physical64)),
          spirv::EnumOperand(spirv::OperandKind::kMemoryModel,
                             static_cast<uint32_t>(spv::MemoryModel::OpenCL))});

  GenContext ctx(rng, features, options, module, builder, types);
  ctx.std_set = std_set;
  if (rng.Percent(50)) {
    ctx.debug_file = builder.TakeNextId();
    module.debug_source.emplace_back(
        static_cast<uint32_t>(spv::Op::OpString), 0, ctx.debug_file,
        std::vector<spirv::Operand>{spirv::StringOperand("fuzz_kernel.cl")});
  }
  ctx.statements_left = features.statements;
  spirv::TestCase test_case;
  BuildHelperFunctions(ctx);
  BuildKernel(ctx, test_case);
  spirv::CompleteEntryPointInterfaces(module);  // SPIR-V 1.4 interfaces
  test_case.module_words = spirv::EncodeModule(module);
  return test_case;
}

}  // namespace l0spv::generators::kernel
