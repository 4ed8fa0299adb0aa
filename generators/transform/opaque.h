// generators/transform/opaque.h — values known for the test case but not to
// a compiler: opaque predicates and obfuscated constants ("equivalence
// modulo inputs").
//
// Contract: a source is a JSON object recorded in the transformation's
// record:
//   {"source": "constant"}                      OpConstantTrue/False
//   {"source": "scalar", "param": id}           a by-value integer kernel
//                                               argument of known value
//   {"source": "buffer", "param": id, "word": k} the k-th 32-bit word of a
//                                               read-only input buffer
// Kernel-argument sources are only usable in the entry-point function.
// A literal is folded by every compiler, so it is no opaque value: it is
// only the fallback where no argument source exists (any function other
// than the kernel, or a kernel without a known scalar argument and without
// a read-only input buffer of at least one word). ProposeOpaqueSource
// never proposes it where an argument source exists and CheckOpaqueSource
// refuses it there (FailedPrecondition).
// Emit* inserts the needed instructions before `pos` (which is advanced past
// them) and returns the id of the value.
#pragma once

#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "generators/transform/context.h"
#include "generators/transform/transformation.h"

namespace l0spv::generators::transform {

// A source for an opaque boolean in `function`: a kernel argument when
// `function` is the kernel and it has one, else the constant fallback.
Record ProposeOpaqueSource(TransformContext& ctx, Rng& rng, size_t function);
absl::Status CheckOpaqueSource(TransformContext& ctx, const Record& source,
                               size_t function);
// A boolean equal to `value`.
uint32_t EmitOpaqueBool(TransformContext& ctx, const Record& source,
                        InstPos& pos, bool value);

// A read-only buffer word equal to `value` (32-bit), usable in `function`:
// {"source": "buffer", ...} or nullopt.
std::optional<Record> ProposeKnownWord(TransformContext& ctx, Rng& rng,
                                       size_t function, uint32_t value);
// The value the source reads (buffer and scalar sources).
std::optional<uint64_t> KnownValueOf(TransformContext& ctx,
                                     const Record& source);
// Emits a load of a buffer-word source or returns the scalar parameter; the
// result is a 32-bit integer for buffers, the parameter's type for scalars.
uint32_t EmitKnownValue(TransformContext& ctx, const Record& source,
                        InstPos& pos);

}  // namespace l0spv::generators::transform
