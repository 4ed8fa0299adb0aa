// generators/kernel/subgroups.h — subgroup operations whose results do not
// depend on how a device splits a work-group into subgroups.
//
// Contract (internal): devices pick their own subgroup size (Intel GPUs 8,
// 16 or 32; PoCL and the reference their own), so GenSubgroup emits only
// forms every subgroup size computes identically:
//  - SPV_INTEL_subgroups shuffles that return the work-item's own value:
//    shuffle(x, own subgroup-local id), shuffle_xor(x, 0),
//    shuffle_down(x, y, 0), shuffle_up(y, x, 0);
//  - OpGroup* at Subgroup scope on a value uniform across the whole ND-range
//    (read from the read-only input buffer at a constant index): broadcast
//    from lane 0, all/any of a comparison of it, min/max reductions and
//    inclusive scans of it.
// Like work-group collectives they are emitted only while ctx.uniform holds
// (every work-item of a subgroup must reach them) and only in kernels.
#pragma once

#include "generators/kernel/context.h"

namespace l0spv::generators::kernel {

bool GenSubgroup(GenContext& ctx);

}  // namespace l0spv::generators::kernel
