// generators/transform/duplicate_linkonce.h — gives functions that one
// module exports and others import LinkOnceODR copies in the importing
// modules (SPV_KHR_linkonce_odr): the case-level kind behind
// `duplicate_linkonce` records, applied after split_module.
//
// Contract:
//  - DuplicateLinkOnce(case, options) is deterministic in (case, options).
//    A candidate is a function with a body and Export linkage in one module
//    of the case, imported (a declaration with Import, same id) by at least
//    one other, whose ids (parameters, body) no importer defines, every id
//    of which an importer has (types, constants, strings, imports), which
//    uses no decoration group and whose every callee has a linkage name
//    (and no known linker bug of an avoided consumer: DuplicateOptions).
//    Half the candidates (drawn, at least one) become LinkOnceODR: the
//    definition in its home and a copy of it (decorations and names of its
//    ids along) in place of each importer's declaration.
//  - A copy calls what the original calls: a module receiving a copy of f
//    receives a copy of each chosen callee of f too, and declares (Import)
//    the other callees it lacks. So every module that calls a LinkOnceODR
//    function defines it — what C++ compilers emit — and no module imports
//    a symbol that only LinkOnceODR definitions provide (an optimizer may
//    drop an unused LinkOnceODR definition: LLVM's linkonce_odr is
//    discardable; spirv-opt 2023.1 drops it).
//  - Every module holding a LinkOnceODR definition declares
//    OpExtension "SPV_KHR_linkonce_odr". The result links
//    (spirv::LinkTestCase) into a program computing what the input does.
//  - Errors: InvalidArgument for a case of one module or an unreadable
//    module; FailedPrecondition when no function is a candidate (the message
//    says why the first one is not).
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "spirv/test_case.h"

namespace l0spv::generators::transform {

struct DuplicateOptions {
  uint64_t seed = 0;
  // The consumers whose registry entries to keep away from (an
  // oracles::ConsumerBit mask): with IGC's, a function returning a struct
  // gets no copies (ocloc_link_linkonce_struct_return).
  uint32_t avoid_known_bugs = 0;
};

absl::StatusOr<spirv::TestCase> DuplicateLinkOnce(
    const spirv::TestCase& test_case, const DuplicateOptions& options);

}  // namespace l0spv::generators::transform
