// reducers/merge_modules.h — the merge-modules stage: a finding of several
// modules made of fewer ones while it reproduces.
//
// Contract: for a case with linked modules, and each step kept only when
// ctx.Try (the interestingness test) says it still reproduces:
//  - merge: the whole program linked into module.spv by the reference
//    linker (spirv::LinkTestCase), so a finding that does not depend on
//    linking continues as a one-module case through the usual stages;
//  - drop: each linked module, last first, that the rest no longer needs
//    (a reduction of module.spv may have removed every use of it);
//  - pair: of three or more modules, two merged into one by a partial link
//    (spirv::LinkOptions::partial: what neither defines stays imported),
//    module.spv's pair staying module.spv, until no pair merges — so a
//    linker finding ends as two modules when it needs two.
// A one-module case is left alone (no test run). The chunk stages after it
// reduce every module.
#pragma once

#include <memory>

#include "reducers/stage.h"

namespace l0spv::reducers {

std::unique_ptr<Stage> MakeMergeModulesStage();

}  // namespace l0spv::reducers
