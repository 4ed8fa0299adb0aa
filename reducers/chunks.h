// reducers/chunks.h — delta debugging over the reduction sites of a case.
//
// Contract: ReduceInChunks asks `enumerate` for the sites of the current
// case (stable keys: ids or ordinals), offers chunks of them to `apply`
// (which builds the candidate with every site of the chunk reduced, or
// nullopt when it cannot), and keeps a candidate only through ctx.Try().
// Chunks start at all sites and halve down to single sites; after a kept
// chunk the sites are enumerated again. Returns whether anything was kept.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "reducers/stage.h"

namespace l0spv::reducers {

using EnumerateSites =
    std::function<std::vector<uint64_t>(const spirv::TestCase&)>;
using ApplySites = std::function<std::optional<spirv::TestCase>(
    const spirv::TestCase&, std::span<const uint64_t>)>;

bool ReduceInChunks(ReductionContext& ctx, const EnumerateSites& enumerate,
                    const ApplySites& apply);

// A Stage named `name` whose Run() is ReduceInChunks over these functions,
// on every module of the case in turn: the kernel's, then each linked
// module (`enumerate` and `apply` see that module as the case's
// module_words — the others stay in linked_modules — so the module-editing
// functions need not know about linking; a linked module has no entry
// point, so the kernel-argument functions find nothing there). A linker
// finding thus shrinks in its library modules too.
std::unique_ptr<Stage> MakeChunkStage(std::string name,
                                      EnumerateSites enumerate,
                                      ApplySites apply);

}  // namespace l0spv::reducers
