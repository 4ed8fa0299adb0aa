// oracles/reference/image_args.h — image and sampler kernel arguments of a
// run: checking them against the kernel's parameters and building the
// run's ImageTable (internal to oracles/reference).
//
// Contract: CheckImageArg says why argument `a` cannot bind to parameter
// `p` (empty when it can): an image parameter takes an image argument whose
// descriptor is valid, holds ImageBytes texels and has the parameter's
// dimensionality, arrayedness and access qualifier; a sampler parameter
// takes a valid sampler; neither binds to anything else, and image or
// sampler arguments bind only to them. BuildImageTable copies the texels
// (charging `memory` for them and for the write records of read-write
// images) after every argument passed CheckImageArg; false when the memory
// limit is exceeded.
#pragma once

#include <string>

#include "oracles/reference/image_state.h"
#include "oracles/reference/memory.h"
#include "oracles/reference/program.h"
#include "spirv/test_case.h"

namespace l0spv::oracles::reference {

std::string CheckImageArg(const KernelParam& p, const spirv::KernelArg& a);
bool BuildImageTable(const Program& prog, const spirv::TestCase& tc,
                     Memory& memory, ImageTable* table);

}  // namespace l0spv::oracles::reference
