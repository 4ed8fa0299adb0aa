// generators/kernel/generator.h — random, valid, undefined-behaviour-free
// Level Zero kernels from a seed and a device profile.
//
// Contract:
//  - GenerateTestCase is a pure function of its options: the same seed,
//    options and profile give a byte-identical TestCase (module, ND-range,
//    arguments, tolerances) on every platform.
//  - The module passes spirv-val and `l0spv-fuzz lint` for the profile, by
//    construction (tests measure it over many seeds).
//  - Every result is fully defined: integer division/remainder and shifts are
//    guarded, indices are masked or reduced into bounds, float→int
//    conversions saturate, loops are bounded, barriers and work-group
//    collectives sit only in work-group-uniform control flow, work-items
//    write only their own result slots, and cross-work-item traffic goes
//    through barrier-separated exchanges or commutative atomics.
//  - Float results carry their tolerance in TestCase::tolerances: values
//    computed with correctly rounded operations only are exact (up to the
//    flush of denormals, covered by an absolute tolerance); results of
//    looser OpenCL.std functions are stored directly (never fed onwards)
//    with the ulps the OpenCL specification allows.
//  - Errors: an unknown profile, or SPIR-V version bounds that leave no
//    version, is InvalidArgument.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "oracles/known_bugs/registry.h"
#include "spirv/test_case.h"

namespace l0spv::generators::kernel {

// Guards the generator emits to keep results defined. Tests switch one off
// to prove that the reference interpreter catches the behaviour it prevents.
enum Guard : uint32_t {
  kGuardDivision = 1u << 0,    // divisor 0 and INT_MIN / -1
  kGuardShift = 1u << 1,       // shift amount < width
  kGuardIndex = 1u << 2,       // array and buffer indices in bounds
  kGuardFloatToInt = 1u << 3,  // SaturatedConversion on float→int
  kGuardBarrier = 1u << 4,     // barrier between exchange write and read
  // Image barrier between a read-write image's write and read phases.
  kGuardImageBarrier = 1u << 5,
  // No -0.0 into fmin, fmax, fclamp, maxmag or minmag (the sign of a zero
  // result is unspecified there; ext_inst.cc UnsignedZero).
  kGuardSignedZero = 1u << 6,
  // No NaN into OpSignBitSet: IEEE 754 §6.3 leaves the sign of a NaN result
  // open (x86 makes 0/0 negative, PoCL's remquo(0, 0) positive).
  kGuardNanSign = 1u << 7,
};

// Image kernels (images.h): never (the default, so existing seeds keep their
// bytes), as a swarm feature (a quarter of the cases), or in every case.
// Only device profiles with images ever get them.
enum class ImageMode : uint8_t { kOff, kSwarm, kOn };
// printf calls (printf.h): never (the library default, so existing seeds
// keep their bytes), in 30% of the cases (the command line's default), or
// in every case.
enum class PrintfMode : uint8_t { kOff, kSwarm, kOn };

struct GeneratorOptions {
  uint64_t seed = 0;
  std::string profile = "full";
  // Upper bound on the statements of the kernel body; each case draws its
  // own size below it (swarm testing).
  uint32_t max_statements = 60;
  // Bitmask of Guard values to leave out (tests only: output is then NOT
  // free of undefined behaviour).
  uint32_t disabled_guards = 0;
  // Constructs with known, filed consumer bugs (corpora/known-consumer-bugs/
  // registry.json; each gate names its entry) are left out for the consumers
  // in this mask (oracles::ConsumerBit; a campaign's targets give it through
  // oracles::ConsumersOfTarget), so campaigns find new bugs instead of the
  // same ones again. 0 = emit everything.
  uint32_t avoid_known_bugs = oracles::kAllConsumers;
  // Registry entries whose constructs are emitted even though their
  // consumers are in avoid_known_bugs (a test or a campaign aimed at one
  // known bug, with every other gate of that consumer kept).
  std::vector<oracles::KnownBugId> allowed_bugs;
  // Allow ND-ranges whose global size is not a multiple of the local size
  // (OpenCL 2.0 non-uniform work-groups; Level Zero cannot launch them).
  bool allow_non_uniform = false;
  ImageMode images = ImageMode::kOff;
  PrintfMode printf = PrintfMode::kOff;
  // SPIR-V versions (header words, 0x00010000 = 1.0) a case may be: each
  // case draws one in [min, max] (the version swarm) and uses what it adds
  // (features.h). max 0 = the profile's newest; a max above the profile's
  // is lowered to it. A campaign passes the newest its targets' consumers
  // read (oracles::NewestSpirvVersionOfTarget). min > max is InvalidArgument.
  uint32_t min_spirv_version = 0x00010000;
  uint32_t max_spirv_version = 0;
  // libFuzzer: the generator's decisions are read from these bytes first
  // and from the seeded stream once they run out (random.h describes the
  // encoding). Empty = seed only. The bytes must outlive the call.
  std::span<const uint8_t> decisions;
  // When set, every decision is appended here in that encoding, so
  // `decisions = *record_decisions` replays the same case.
  std::vector<uint8_t>* record_decisions = nullptr;
};

absl::StatusOr<spirv::TestCase> GenerateTestCase(
    const GeneratorOptions& options);

}  // namespace l0spv::generators::kernel
