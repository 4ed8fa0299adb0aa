// spirv/link.h — links several modules into one, as a Level Zero driver does
// for zeModuleDynamicLink: the reference interpreter's linker (a consumer's
// linker, spirv-link among them, is compared against it, so it is written
// here rather than borrowed from SPIRV-Tools).
//
// Contract:
//  - LinkModules(inputs) renumbers each module's ids past the previous ones,
//    merges the sections (capabilities, extensions and extended-instruction
//    imports once each; every entry point, execution mode, debug and
//    annotation instruction), unifies structurally identical types (same
//    opcode, same operands after unification, same decorations; OpTypeStruct
//    too, so a struct crossing a module boundary is one type), then resolves
//    linkage by name (SPIR-V §2.13, SPV_KHR_linkonce_odr):
//      * an Import (function declaration or variable) binds to the one
//        definition with that name: Export, or LinkOnceODR;
//      * several LinkOnceODR definitions of a name merge into the first (an
//        Export of the name, if any, wins): they are required to be
//        equivalent, so any one may be chosen;
//      * imports and the dropped LinkOnceODR copies are deleted, their uses
//        rewritten to the chosen definition, their decorations and names
//        deleted; Export and LinkOnceODR decorations of the chosen
//        definitions stay (a linked program may be linked again).
//    Declarations come before definitions in the result; SPIR-V 1.4
//    interfaces are completed (spirv/entry_interface.h). The header takes
//    the newest version of the inputs and a tight bound.
//  - Errors (InvalidArgument, naming the input and the symbol): an import
//    no input defines (unless LinkOptions::partial), LinkOnceODR copies
//    that differ (with LinkOptions::equivalent_linkonce), an import or
//    definition whose type differs from the chosen definition's, two Export
//    definitions of one name, two entry points of one name, different
//    addressing or memory models, an empty input list, and LinkageAttributes
//    applied through a decoration group (not modelled).
//  - One input is linked like several: its imports must resolve within it.
#pragma once

#include <span>
#include <string>

#include "absl/status/statusor.h"
#include "spirv/module.h"
#include "spirv/test_case.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {

struct LinkInput {
  std::string name;  // for messages: the file name, "module 1", ...
  const Module* module = nullptr;
};

struct LinkOptions {
  // A partial link (the reducer merging two modules of several): an import
  // no input defines stays an import — one declaration, keeping its name —
  // for a later link to bind, instead of an error.
  bool partial = false;
  // Refuse LinkOnceODR definitions of one name that differ (instruction by
  // instruction, own ids renumbered, types unified): SPV_KHR_linkonce_odr
  // requires them equivalent, so a case the project makes or reduces must
  // keep them identical (LintCase asks for this). A consumer's output is
  // linked without it: two copies it translated separately may differ in
  // form and still be equivalent.
  bool equivalent_linkonce = false;
};

absl::StatusOr<Module> LinkModules(std::span<const LinkInput> inputs,
                                   const LinkOptions& options = {});

// The LinkageAttributes decorations of a module: symbol name, linkage type
// (spv::LinkageType) and the decorated id.
struct LinkageSymbol {
  std::string name;
  uint32_t linkage_type = 0;
  uint32_t id = 0;
};
std::vector<LinkageSymbol> LinkageSymbols(const Module& module);

// OpDecorate %id LinkageAttributes "name" type.
Instruction LinkageDecoration(uint32_t id, const std::string& name,
                              spv::LinkageType type);

// Whether the module's words hold an OpDecorate LinkageAttributes ... Import
// of something other than a built-in variable (which the environment
// defines): whether linking would bind anything. A scan of the words,
// without parsing the module: cheap enough for every run. Malformed words:
// false.
bool HasImports(std::span<const uint32_t> words);

// `test_case` with its linked modules linked into module_words (named
// module.spv, module-1.spv, ... in errors); unchanged when it has none.
// An unreadable module is an InvalidArgument error too.
// A case no target can run — its module has no Kernel entry point of that
// name, the kernel takes another number of arguments than the case gives,
// or its modules do not link — is bad input (exit 2) for every command,
// whatever the target (a compile-only target would otherwise accept it):
// InvalidArgument naming `where` and the mismatch. Commands that read a
// case or a finding (run, check, reduce, report) all ask it.
absl::Status CheckCaseRunnable(const TestCase& test_case,
                               const std::string& where);

absl::StatusOr<TestCase> LinkTestCase(const TestCase& test_case,
                                      const LinkOptions& options = {});

}  // namespace l0spv::spirv
