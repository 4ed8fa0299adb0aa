// oracles/targets/spirv_fuzz_adapter.h — SPIRV-Tools' spirv-fuzz, both as
// the `spirv-fuzz[:SEED[+fixup]]` target (a consumer that must keep
// what a module computes, like spirv-opt) and as the one place that runs the
// tool (the --mutate=spirv-fuzz engine, generators/spirv_fuzz/, calls
// RunSpirvFuzz).
//
// Contract:
//  - Debian ships no spirv-fuzz; ci/install-spirv-fuzz.sh builds one
//    (FindSpirvFuzz in consumer_probe.h finds it).
//  - RunSpirvFuzz writes the module to `dir`/in.spv and an empty donor list,
//    runs `spirv-fuzz in.spv -o out.spv --seed=SEED --donors=...` there
//    within `limits`, and returns how it ended with what it wrote: out.spv's
//    words and its transformation sequence (binary protobuf and JSON). A
//    harness failure (the directory, a fork) is an error status; a crash, a
//    hang or a non-zero exit is a result (the caller decides).
//  - The target fuzzes each module of the case with SEED (default 1), then
//    (with `+fixup`) applies spirv/kernel_fixup.h — the engine's view —
//    and runs the output on the reference like spirv-opt's: a crash or hang
//    of spirv-fuzz is kCrashed/kTimedOut, a non-zero exit kBuildFailed "...
//    rejected a valid module", an output that fails validation kBuildFailed
//    "... produced a module that fails validation", different results a
//    mismatch. Fix-up refusals are kUnsupported (the module is no input for
//    that view).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/target.h"

namespace l0spv::oracles {

struct SpirvFuzzRun {
  ChildResult child;
  std::vector<uint32_t> words;       // out.spv; empty if none/unreadable
  std::string transformations;       // out.transformations (protobuf)
  std::string transformations_json;  // out.transformations_json
};

absl::StatusOr<SpirvFuzzRun> RunSpirvFuzz(const std::string& program,
                                          std::span<const uint32_t> words,
                                          uint64_t seed, const std::string& dir,
                                          const ChildLimits& limits);

// "SEED" or "SEED+fixup" (empty = seed 1, raw).
struct SpirvFuzzTargetParam {
  uint64_t seed = 1;
  bool kernel_fixup = false;
};
absl::StatusOr<SpirvFuzzTargetParam> ParseSpirvFuzzParam(
    const std::string& param);

absl::StatusOr<std::unique_ptr<Target>> MakeSpirvFuzzTarget(
    const std::string& param, const TargetOptions& options);

}  // namespace l0spv::oracles
