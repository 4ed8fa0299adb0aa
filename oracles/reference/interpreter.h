// oracles/reference/interpreter.h — the reference interpreter (target `ref`),
// the oracle of record for Level Zero flavoured SPIR-V kernels.
//
// Contract:
//  - RunReference never crashes, hangs or touches host memory out of bounds,
//    whatever the module words and arguments are. It validates the module
//    with spirv-val first (status kBuildFailed with the validator's message
//    when that fails, unless options.skip_validation), decodes it once into
//    a compact program and runs every work-group to completion.
//  - Status kOk: buffers[i] holds the final contents of every buffer argument
//    and printf_output the text printed, in work-item order of execution.
//  - kUbDetected: the first undefined behaviour met (out-of-bounds access,
//    division by zero, barrier divergence, ...); the message names the check,
//    the work-item (global id), the function, the instruction (opcode and
//    result id) and the address or operand at fault.
//  - kTimedOut: more than options.step_budget instructions were executed.
//  - kUnsupported: the module uses something not implemented yet; the message
//    names the opcode or OpenCL.std instruction. Never a silent zero.
//  - kBuildFailed: the module or the arguments do not fit (validation failed,
//    entry point missing, argument count/size mismatch, ...).
//  - Deterministic: the same inputs and options give the same Execution
//    (except wall_time). OpUndef reads as zero.
//  - When the TestCase has no local size, the interpreter picks, per
//    dimension, the largest divisor of the global size that is <= 64 in
//    dimension 0 and 1 in the other dimensions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "oracles/execution.h"
#include "spirv/test_case.h"

namespace l0spv::oracles::reference {

struct ReferenceOptions {
  // Total instructions executed over the whole ND-range; exceeded ->
  // kTimedOut.
  uint64_t step_budget = 100'000'000;
  // Work-items per subgroup (consecutive LocalInvocationIndex values; the
  // last subgroup of a work-group may be partial).
  uint32_t subgroup_size = 8;
  // When set, the order in which work-items resume after each barrier (and
  // the initial order) is a deterministic permutation drawn from this seed.
  std::optional<uint64_t> schedule_seed;
  // Shadow bytes for reads of uninitialised memory: private (Function)
  // variables without an initializer and Workgroup memory (variables and
  // __local arguments, fresh in every work-group) start uninitialised;
  // buffers, module-scope CrossWorkgroup/UniformConstant variables and
  // by-value arguments are initialised. A load of a scalar, vector or
  // pointer with any uninitialised byte is kUbDetected at the load; a load
  // of a struct or array only when all its bytes are (padding is never
  // written by member stores). OpCopyMemory* carries the shadow along
  // without a check; atomics check what they read. OpUndef is a value, not
  // memory: it is not tracked.
  bool check_uninitialized = false;
  // Data races (kUbDetected naming both work-items, the instruction and
  // the address): non-atomic accesses to the same byte of Workgroup or
  // CrossWorkgroup memory by two work-items of a group with at least one
  // write and no barrier fencing that memory (WorkgroupMemory /
  // CrossWorkgroupMemory semantics; a subgroup barrier orders items of its
  // subgroup) in between; and global bytes touched by two work-groups with
  // at least one write. Atomics are not checked. See race.h.
  bool check_races = true;
  // Flush float/half denormal inputs and results to (signed) zero.
  bool flush_denormals = false;
  // Bytes of interpreter memory (buffers, local and private allocations,
  // value frames); exceeding it stops the run with kUnsupported.
  uint64_t memory_limit_bytes = uint64_t{1} << 30;
  // Run a module even when spirv-val rejects it (used by fuzzers to reach
  // the decoder's own checks); the decoder still rejects what it cannot run.
  bool skip_validation = false;
};

Execution RunReference(const spirv::TestCase& test_case,
                       const ReferenceOptions& options);

// RunReference of each launch, in order. Launches of one module (a batch
// of kernels, spirv/kernel_batch.h: same words, no linked modules, no
// imports) are validated, parsed and decoded once, then each entry point
// runs on its own memory; the results are RunReference's, launch by launch
// (except wall_time).
std::vector<Execution> RunReferenceBatch(
    std::span<const spirv::TestCase> launches, const ReferenceOptions& options);

}  // namespace l0spv::oracles::reference
