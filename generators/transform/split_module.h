// generators/transform/split_module.h — splits a one-module case into
// several modules that link back into an equivalent program:
// the case-level transformation behind `generate --split` and the
// multi-module cases the linking targets (ref, spirv-link) consume.
//
// Contract:
//  - SplitModule(case, options) is deterministic in (case, options). It
//    moves a random non-empty subset of the movable functions of the case's
//    module into 1..3 further modules (options.modules - 1 when set), each
//    function into one of them, every further module holding at least one.
//    The kernel (every entry point) stays in module.spv.
//  - A function is movable when it has a body, is no entry point, has no
//    LinkageAttributes yet, is used only as an OpFunctionCall callee, and
//    its body references no Workgroup (or other unlinkable) variable, no
//    specialization constant (nor a constant built from one) and calls no
//    body-less function. Decoration groups are applied in each module to the
//    targets it has (the group copied where used); OpLine's strings are
//    copied.
//  - Variables: a built-in Input variable is copied into every further
//    module (the environment defines it in each); a UniformConstant or
//    CrossWorkgroup variable goes to the module of its first reading
//    function (module order), `LinkageAttributes "l0spv_var_<id>" Export`
//    when read elsewhere, and is declared there (no initializer, Import);
//    module.spv declares every one its entry points list.
//  - Every module declares the capabilities, extensions, extended-
//    instruction imports and memory model of the original (plus Linkage);
//    a further module holds the original's types and (non-specialization)
//    constants with their decorations and names, so every id keeps its
//    number. A moved function keeps its decorations and names and gets
//    `LinkageAttributes "l0spv_fn_<id>" Export`; every module that calls a
//    function it does not define declares it (its parameters and their
//    decorations copied) with the same name and Import. Declarations come
//    first. LinkOnceODR copies are another kind's (duplicate_linkonce.h).
//  - The result links (spirv::LinkTestCase) back into a program that
//    computes what the original computes. Errors: FailedPrecondition when
//    no function is movable (the message says why the first candidate is
//    not) or a known linker bug is to be avoided, InvalidArgument for a case
//    that already has linked modules or an unreadable module.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "spirv/test_case.h"

namespace l0spv::generators::transform {

struct SplitOptions {
  uint64_t seed = 0;
  // Modules in all (2..16); 0 = drawn from 2..4.
  uint32_t modules = 0;
  // The consumers whose registry entries to keep away from (a
  // oracles::ConsumerBit mask, as GeneratorOptions::avoid_known_bugs): a
  // case whose construct one of them cannot link stays whole
  // (FailedPrecondition saying which entry).
  uint32_t avoid_known_bugs = 0;
};

struct SplitResult {
  spirv::TestCase test_case;
  // Functions defined per module (module.spv first).
  std::vector<uint32_t> functions_per_module;
};

absl::StatusOr<SplitResult> SplitModule(const spirv::TestCase& test_case,
                                        const SplitOptions& options);

}  // namespace l0spv::generators::transform
