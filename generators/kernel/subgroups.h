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
//    inclusive scans of it;
//  - from SPIR-V 1.3, with a profile that lists GroupNonUniform (the
//    guide's extended subgroups): OpGroupNonUniform votes, broadcasts,
//    min/max/and/or reductions and inclusive scans of such a value, identity
//    shuffles (Shuffle by own id, Xor/Up/Down by 0), ballots read back at the
//    work-item's own bit (InverseBallot, BitExtract), FindLSB of an all-true
//    ballot (0), and Elect compared with "own id == 0" (always equal);
//    sums, products, xors (IAdd/FAdd/IMul/FMul/BitwiseXor/LogicalXor) where
//    only lane 0 contributes a value and every other lane the identity, and
//    BitCount/FindMSB of the ballot of "own id == 0" (1 and 0).
// Like work-group collectives they are emitted only while ctx.uniform holds
// (every work-item of a subgroup must reach them) and only in kernels.
#pragma once

#include "generators/kernel/context.h"

namespace l0spv::generators::kernel {

bool GenSubgroup(GenContext& ctx);

}  // namespace l0spv::generators::kernel
