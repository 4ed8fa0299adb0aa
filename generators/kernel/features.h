// generators/kernel/features.h — the swarm: which features and how much of
// each one test case uses.
//
// Contract: DrawFeatures draws a random subset of the generator's features
// and weights (CLsmith / spirv-fuzz style swarm testing), restricted to what
// the device profile accepts, so rare combinations appear across seeds while
// each single case stays focused.
#pragma once

#include <cstdint>
#include <utility>

#include "generators/kernel/generator.h"
#include "generators/kernel/random.h"
#include "oracles/validity/device_profile.h"

namespace l0spv::generators::kernel {

// Statement families; a weight of 0 disables the family for the case.
enum Family : uint32_t {
  kFamIntArith,
  kFamIntDivision,
  kFamShift,
  kFamBitwise,
  kFamCompare,
  kFamSelect,
  kFamConvert,
  kFamComposite,
  kFamFloatArith,
  kFamFloatCompare,
  kFamExtInt,
  kFamExtFloatExact,
  kFamExtFloatLoose,
  kFamPrivateMemory,
  kFamBufferLoad,
  kFamPointerForms,
  kFamIf,
  kFamLoop,
  kFamSwitch,
  kFamCall,
  kFamAtomic,
  kFamExchange,
  kFamGroup,
  kFamSink,
  kFamExtMisc,
  // Drawn apart from the others (DrawFeatures): printf.h.
  kFamPrintf,
  kFamilyCount
};

struct Features {
  uint32_t weights[kFamilyCount] = {};
  bool int8 = false, int16 = false, int64 = false;
  bool fp16 = false, fp32 = false, fp64 = false;
  bool vectors = false, vector16 = false;
  bool int64_atomics = false;
  bool workgroup_variable = false;  // exchange via a Workgroup variable
                                    // (else a __local kernel argument)
  bool non_uniform = false;         // ND-range may have partial groups
  bool computed_linear_id = false;  // gid from components vs GlobalLinearId
  bool constant_input = false;      // the u32 input is a __constant buffer
                                    // (UniformConstant), else __global
  bool struct_arg = false;          // a struct kernel argument by value
                                    // (ByVal pointer, OpenCL layout)
  bool unstructured = false;        // ifs and loops may drop their merge
                                    // instruction; loops may exit to two
                                    // different blocks
  bool images = false;              // image and sampler arguments (images.h);
                                    // only for profiles with images
  // SPIR-V 1.3's OpGroupNonUniform* (subgroups.h): the version allows them
  // and the profile lists GroupNonUniform (the guide's extended subgroups).
  bool non_uniform_subgroups = false;
  // A case that leans on them (half of those whose consumers all have
  // sub-groups: the work-group family weighted up, most of its statements
  // sub-group ones, most of those OpGroupNonUniform*). Without it the 31
  // instructions spread over a few cases in a hundred and a target's share
  // of a campaign met only a handful.
  bool subgroup_focus = false;
  // Float atomics (float_atomics.h): the width of the case's float atomics
  // buffer (0 = none) and the operations it may use.
  uint8_t float_atomic_width = 0;
  bool float_atomic_add = false, float_atomic_min_max = false;
  // Header version word, drawn from the options' range (the version swarm):
  // what a version adds is used only at or above it (HasVersion).
  uint32_t spirv_version = 0x00010200;
  // printf (printf.h): the most calls the kernel makes (0 = none), and the
  // width of scalar float arguments (64: promoted to double, as clang does
  // for a device with doubles; 32: a profile without doubles; 0: none).
  uint8_t printf_calls = 0;
  uint8_t printf_float_width = 0;
  bool HasVersion(uint32_t major, uint32_t minor) const {
    return spirv_version >= ((major << 16) | (minor << 8));
  }
  uint32_t avoid_bugs =
      oracles::kAllConsumers;  // GeneratorOptions::avoid_known_bugs
  uint32_t statements = 20;
  uint32_t helper_functions = 0;
  uint32_t max_depth = 3;
};

// The versions a case may draw: [options.min_spirv_version, the lower of
// the profile's newest and options.max_spirv_version (0 = no bound)].
std::pair<uint32_t, uint32_t> SpirvVersionRange(
    const oracles::DeviceProfile& profile, const GeneratorOptions& options);

Features DrawFeatures(Rng& rng, const oracles::DeviceProfile& profile,
                      const GeneratorOptions& options);

}  // namespace l0spv::generators::kernel
