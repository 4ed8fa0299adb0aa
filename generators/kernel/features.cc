#include "generators/kernel/features.h"

#include <algorithm>
#include <vector>

#include "generators/kernel/float_atomics.h"

namespace l0spv::generators::kernel {

std::pair<uint32_t, uint32_t> SpirvVersionRange(
    const oracles::DeviceProfile& profile, const GeneratorOptions& options) {
  uint32_t high = profile.max_spirv_version;
  if (options.max_spirv_version != 0)
    high = std::min(high, options.max_spirv_version);
  return {options.min_spirv_version, high};
}

Features DrawFeatures(Rng& rng, const oracles::DeviceProfile& profile,
                      const GeneratorOptions& options) {
  Features f;
  // Each family is on with probability 3/4 and gets a weight 1..10; a few
  // core families are always on so every case computes something.
  for (uint32_t i = 0; i < kFamPrintf; ++i) {
    f.weights[i] = rng.Percent(75) ? rng.Range(1, 10) : 0;
  }
  f.weights[kFamIntArith] = std::max<uint32_t>(f.weights[kFamIntArith], 2);
  f.weights[kFamSink] = rng.Range(3, 8);

  f.int8 = rng.Percent(50);
  f.int16 = rng.Percent(50);
  f.int64 = rng.Percent(60);
  f.fp32 = rng.Percent(70);
  // Half precision: PoCL 3.1 lacks most half overloads of the built-in
  // library (known-consumer-bugs/pocl_half_math.spvasm) and Oclgrind 21.10
  // stops on any 2-byte float (oclgrind_half.spvasm).
  f.fp16 = profile.fp16 && rng.Percent(30) &&
           (options.avoid_known_bugs &
            oracles::ConsumersOf({oracles::KnownBugId::kPoclHalfMath,
                                  oracles::KnownBugId::kOclgrindHalf})) == 0;
  f.fp64 = profile.fp64 && rng.Percent(35);
  f.vectors = rng.Percent(60);
  f.vector16 = f.vectors && rng.Percent(40);
  f.int64_atomics = profile.int64_atomics && rng.Percent(30);
  // Module-scope Workgroup arrays stop Oclgrind 21.10 ("Unsupported pointer
  // size: 0 bytes"; oclgrind_workgroup_variable.spvasm): a __local
  // argument instead.
  f.workgroup_variable =
      rng.Percent(50) &&
      (options.avoid_known_bugs &
       oracles::ConsumersOf(oracles::KnownBugId::kOclgrindWorkgroupVariable)) ==
          0;
  f.non_uniform = options.allow_non_uniform && rng.Percent(30);
  // Intel's CPU runtime cannot link get_global_linear_id
  // (known-consumer-bugs/intel_cpu_linear_id_builtins): computed instead.
  f.computed_linear_id =
      rng.Percent(50) ||
      (options.avoid_known_bugs &
       oracles::ConsumersOf(oracles::KnownBugId::kIntelCpuLinearIdBuiltins)) !=
          0;
  f.avoid_bugs = options.avoid_known_bugs;
  if (!f.fp16 && !f.fp32 && !f.fp64) {
    f.weights[kFamFloatArith] = f.weights[kFamFloatCompare] = 0;
    f.weights[kFamExtFloatExact] = f.weights[kFamExtFloatLoose] = 0;
  }
  const uint32_t max_statements = std::max<uint32_t>(options.max_statements, 4);
  f.statements = rng.Range(max_statements / 4, max_statements);
  f.helper_functions = f.weights[kFamCall] ? rng.Range(1, 3) : 0;
  f.max_depth = rng.Range(1, 3);
  // Drawn last, so that they do not shift the draws above.
  f.constant_input = rng.Percent(30);
  f.struct_arg = rng.Percent(30);
  f.unstructured = rng.Percent(30);
  // Images draw nothing when off, so cases without them keep their bytes.
  if (profile.images && options.images != ImageMode::kOff) {
    f.images = options.images == ImageMode::kOn || rng.Percent(25);
  }
  // Image reads that return floats store into the f32 result buffer.
  if (f.images) f.fp32 = true;
  // PoCL 3.1 loses the stores of switch arms before a barrier
  // (known-consumer-bugs/pocl_switch_store_before_barrier) and aborts on
  // other switch-and-barrier shapes (pocl_barrier_switch_phi_abort): no
  // switches in a case with barriers (exchanges, work-group collectives)
  // while PoCL is avoided.
  // An entry is avoided when one of its consumers is and it is not allowed
  // (GeneratorOptions::allowed_bugs: --allow_bug, or a campaign case none
  // of whose targets' releases has it).
  const auto avoided = [&](oracles::KnownBugId bug) {
    return !oracles::KnownBugsAllowed({&bug, 1}, options.avoid_known_bugs,
                                      options.allowed_bugs);
  };
  const bool barriers =
      f.weights[kFamExchange] != 0 || f.weights[kFamGroup] != 0;
  if (barriers &&
      (avoided(oracles::KnownBugId::kPoclSwitchStoreBeforeBarrier) ||
       avoided(oracles::KnownBugId::kPoclBarrierSwitchPhiAbort)))
    f.weights[kFamSwitch] = 0;
  // PoCL 3.1 keeps one copy of a loop's per-work-item counter across a
  // barrier (known-consumer-bugs/pocl_loop_phi_across_barrier): no loops
  // either in such cases.
  if (barriers && avoided(oracles::KnownBugId::kPoclLoopPhiAcrossBarrier))
    f.weights[kFamLoop] = 0;
  // Drawn after everything else so the draws above keep their values.
  const uint32_t low = options.min_spirv_version >> 8;
  const uint32_t high = SpirvVersionRange(profile, options).second >> 8;
  f.spirv_version = (low == high ? low : rng.Range(low, high)) << 8;
  f.non_uniform_subgroups =
      f.HasVersion(1, 3) &&
      profile.HasCapability(spv::Capability::GroupNonUniform);
  // Float atomics: llvm-spirv 14's round trip loses them
  // (known-consumer-bugs/llvm_spirv_atomic_float), Oclgrind 21.10 computes
  // them on the integer bits (oclgrind_atomic_float) and PoCL 3.1 lacks
  // min/max (pocl_float_atomic_min_max). Drawn only when allowed, so other
  // cases keep their bytes.
  // What the profile enables at a width, less what avoided consumers fail:
  // IGC 22.43 cannot link fp16 add (igc_atomic_fadd_f16), and Intel's CPU
  // runtime lacks its built-in (intel_cpu_atomic_fadd_half).
  const auto allowed = [&](uint8_t width) {
    FloatAtomicSupport s = FloatAtomicsOf(profile, width);
    if (avoided(oracles::KnownBugId::kPoclFloatAtomicMinMax)) s.min_max = false;
    if (width == 16 && (avoided(oracles::KnownBugId::kIgcAtomicFaddF16) ||
                        avoided(oracles::KnownBugId::kIntelCpuAtomicFaddHalf)))
      s.add = false;
    return s;
  };
  if (f.weights[kFamAtomic] != 0 &&
      !avoided(oracles::KnownBugId::kLlvmSpirvAtomicFloat) &&
      !avoided(oracles::KnownBugId::kOclgrindAtomicFloat)) {
    std::vector<uint8_t> widths;
    for (uint8_t width : {16, 32, 64}) {
      if ((width == 16 && !f.fp16) || (width == 64 && !f.fp64)) continue;
      if (allowed(width).add || allowed(width).min_max) widths.push_back(width);
    }
    if (!widths.empty() && rng.Percent(50)) {
      f.float_atomic_width = rng.Pick<uint8_t>(widths);
      f.float_atomic_add = allowed(f.float_atomic_width).add;
      f.float_atomic_min_max = allowed(f.float_atomic_width).min_max;
    }
  }
  // printf: drawn only when not off, so cases of --printf=off keep their
  // bytes.
  if (options.printf != PrintfMode::kOff &&
      (options.printf == PrintfMode::kOn || rng.Percent(30))) {
    f.printf_calls = static_cast<uint8_t>(rng.Range(1, 4));
    f.weights[kFamPrintf] = rng.Range(2, 8);
    // SPIR 1.2 §2.10.3: scalar float arguments are doubles, except on a
    // device without doubles.
    if (f.fp64)
      f.printf_float_width = 64;
    else if (!profile.fp64 && f.fp32)
      f.printf_float_width = 32;
  }
  // Drawn last, and only for cases that may have sub-groups, so every
  // other case keeps its bytes.
  if (f.non_uniform_subgroups &&
      !avoided(oracles::KnownBugId::kPoclSubgroups) && rng.Percent(50)) {
    f.subgroup_focus = true;
    f.weights[kFamGroup] = std::max<uint32_t>(f.weights[kFamGroup], 8);
  }
  return f;
}

}  // namespace l0spv::generators::kernel
