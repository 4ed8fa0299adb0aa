// oracles/reference/program.h — the pre-decoded, compact form of a module
// that the executor runs (internal to oracles/reference).
//
// Contract: a Program is immutable once decoded and holds no pointers into
// the Module it came from. Every value an instruction uses or defines lives
// in a per-call frame of bytes: an operand is a byte offset into that frame
// (kNoSlot when absent). Values are stored in their OpenCL memory layout
// (little-endian, vectors packed, 3-component vectors padded to 4, bool as
// one byte 0/1 per component), so loads, stores, extracts and bitcasts are
// plain byte copies. Constants and module-scope variable addresses are baked
// into each function's frame template. Every offset and index recorded here
// was range-checked by the decoder: the executor trusts them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace l0spv::oracles::reference {

inline constexpr uint32_t kNoSlot = 0xFFFFFFFFu;

// Scalar kind of a lane. Pointers are kI64 lanes.
enum Kind : uint8_t { kBool, kI8, kI16, kI32, kI64, kF16, kF32, kF64, kAgg };

inline constexpr uint32_t KindBytes(Kind k) {
  constexpr uint32_t kBytes[] = {1, 1, 2, 4, 8, 2, 4, 8, 0};
  return kBytes[k];
}

// Families of type-specialised operations: the internal opcode already
// encodes the lane type so the executor dispatches once per instruction.
#define L0SPV_REF_INT_BIN(X) \
  X(IAdd)                    \
  X(ISub)                    \
  X(IMul)                    \
  X(UDiv)                    \
  X(SDiv)                    \
  X(UMod)                    \
  X(SRem)                    \
  X(SMod)                    \
  X(Shl)                     \
  X(Shr)                     \
  X(Sar)                     \
  X(Or)                      \
  X(Xor)                     \
  X(And)
#define L0SPV_REF_INT_UN(X) X(SNeg) X(Not) X(BitReverse) X(BitCount)
#define L0SPV_REF_INT_CMP(X) \
  X(IEq) X(INe) X(UGt) X(SGt) X(UGe) X(SGe) X(ULt) X(SLt) X(ULe) X(SLe)
#define L0SPV_REF_F_BIN(X) X(FAdd) X(FSub) X(FMul) X(FDiv) X(FRem) X(FMod)
#define L0SPV_REF_F_CMP(X) \
  X(FOrdEq)                \
  X(FUnordEq)              \
  X(FOrdNe)                \
  X(FUnordNe)              \
  X(FOrdLt)                \
  X(FUnordLt)              \
  X(FOrdGt)                \
  X(FUnordGt)              \
  X(FOrdLe)                \
  X(FUnordLe)              \
  X(FOrdGe)                \
  X(FUnordGe)              \
  X(LessOrGreater)         \
  X(Ordered)               \
  X(Unordered)
#define L0SPV_REF_F_TEST(X) \
  X(IsNan) X(IsInf) X(IsFinite) X(IsNormal) X(SignBitSet)

enum class Op : uint16_t {
#define L0SPV_X(name) k##name##8, k##name##16, k##name##32, k##name##64,
  L0SPV_REF_INT_BIN(L0SPV_X) L0SPV_REF_INT_UN(L0SPV_X)
      L0SPV_REF_INT_CMP(L0SPV_X)
#undef L0SPV_X
#define L0SPV_X(name) k##name##16, k##name##32, k##name##64,
          L0SPV_REF_F_BIN(L0SPV_X) L0SPV_REF_F_CMP(L0SPV_X)
              L0SPV_REF_F_TEST(L0SPV_X) kFNeg16,
  kFNeg32,
  kFNeg64,
#undef L0SPV_X
  // r = copy of d bytes at a.
  kCopy,
  // r = d bytes of zero.
  kZero,
  // extra[b .. b+3c): (src slot, dst offset, bytes) triples.
  kConstruct,
  // r = a (d bytes), then part b copied to r + extra[c] (extra[c+1] bytes).
  kInsert,
  // r lanes from extra[b .. b+n): each a source offset or kNoSlot (zero);
  // lane bytes KindBytes(k).
  kShuffle,
  // r = lane b (index slot, int width in c bytes) of vector a; n lanes.
  kExtractDyn,
  // r = vector a with lane (index slot c, index bytes d) set to b.
  kInsertDyn,
  // Scalar condition a picks b or c (d bytes); vector condition: n lanes of
  // KindBytes(k) each.
  kSelectScalar,
  kSelectVector,
  kLogicalAnd,
  kLogicalOr,
  kLogicalEq,
  kLogicalNe,
  kLogicalNot,
  kAny,
  kAll,
  // Integer width changes: a (lanes of kind c) -> r (lanes of kind k).
  kUConvert,
  kSConvert,
  // Conversions through the exact converter: extra[d] = ConvertSpec index.
  kConvert,
  // Dot product of float vectors a, b (n lanes, kind k): r scalar.
  kDot,
  // r = vector a * scalar b (n lanes, kind k).
  kVecTimesScalar,
  // IAddCarry/ISubBorrow/UMulExtended/SMulExtended: struct of two lanes.
  kIAddCarry,
  kISubBorrow,
  kUMulExtended,
  kSMulExtended,
  // NoSignedWrap / NoUnsignedWrap of the next instruction (n lanes of kind
  // k, operands a and b; b = kNoSlot for OpSNegate): kUbDetected when it
  // wraps. d = the SPIR-V opcode | 1 << 16 signed | 1 << 17 unsigned.
  kNoWrapCheck,

  // Memory. Pointers are 64-bit (allocation id << 32 | offset).
  // r = new private allocation of d bytes (alignment c), initialised from
  // slot a when a != kNoSlot.
  kVariable,
  // r = d bytes loaded from pointer a; c = required alignment.
  kLoad,
  // d bytes of b stored through pointer a; c = required alignment.
  kStore,
  // r = a + constant offset (int64 in extra[b], extra[b+1], low word first)
  // + sum(index * stride) over c triples at extra[b+2 ..]: (index slot,
  // index bytes, stride).
  kAccessChain,
  // c bytes copied from pointer b to pointer a (c constant) / from size slot.
  kCopyMemory,
  kCopyMemorySized,
  // r = a when the allocation's storage class fits c (0: any); Explicit
  // yields null instead of UB.
  kGenericCastToPtr,
  kGenericCastToPtrExplicit,
  // r = (a - b) / c, both pointers into one allocation.
  kPtrDiff,
  kPtrEqual,
  kPtrNotEqual,
  // Atomics: a pointer, b value, c comparator (CompareExchange), k kind.
  kAtomicLoad,
  kAtomicStore,
  kAtomicExchange,
  kAtomicCompareExchange,
  kAtomicIIncrement,
  kAtomicIDecrement,
  kAtomicIAdd,
  kAtomicISub,
  kAtomicSMin,
  kAtomicUMin,
  kAtomicSMax,
  kAtomicUMax,
  kAtomicAnd,
  kAtomicOr,
  kAtomicXor,
  // Float atomics (SPV_EXT_shader_atomic_float_add / _min_max): k is the
  // float kind (16/32/64).
  kAtomicFAdd,
  kAtomicFMin,
  kAtomicFMax,
  // a = pointer to a 32-bit flag; TestAndSet writes the old value != 0 to
  // the bool r.
  kAtomicFlagTestAndSet,
  kAtomicFlagClear,

  // Control. Edges index Program::edges.
  kBranch,      // a = edge
  kBranchCond,  // a = cond, b = true edge, c = false edge
  // a = selector (KindBytes(k) bytes), extra[b .. b+3c): (lo, hi, edge),
  // d = default edge.
  kSwitch,
  kReturn,
  kReturnValue,  // a = value, d bytes
  kUnreachable,
  // d = callee function index; extra[b .. b+c): argument slots.
  kCall,
  // a = execution scope (2 workgroup, 3 subgroup).
  kBarrier,
  // Collective group operation; d = index into Program::groups.
  kGroup,
  // d = index into Program::ext_calls.
  kExtInst,
  // Images and samplers (executor_image.cc): d = index into
  // Program::image_calls.
  kImage,
  // OpMemoryBarrier with ImageMemory semantics: an image fence of this
  // work-item (orders its own image writes before its later reads).
  kImageFence,
  // Does nothing (OpLifetimeStart/Stop, OpMemoryBarrier, prefetch-like).
  kNop,
  // Stops with kUnsupported; d = index into Program::messages.
  kTrapUnsupported,
};

struct Inst {
  Op op;
  Kind k = kAgg;
  uint8_t n = 1;  // lanes
  uint32_t r = kNoSlot;
  uint32_t a = kNoSlot;
  uint32_t b = kNoSlot;
  uint32_t c = kNoSlot;
  uint32_t d = 0;
};

// Where to debug-name an instruction in messages.
struct InstOrigin {
  uint32_t spv_opcode = 0;
  uint32_t result_id = 0;
  uint32_t function = 0;  // index into Program::functions
};

struct PhiMove {
  uint32_t dst;
  uint32_t src;
  uint32_t bytes;
};

struct Edge {
  uint32_t pc;            // first instruction of the target block
  uint32_t moves = 0;     // first PhiMove
  uint32_t nmoves = 0;    // number of moves
  bool parallel = false;  // some move reads a slot another move writes
};

// Conversion request (decoded from opcode + decorations).
enum class RoundMode : uint8_t { kRte, kRtz, kRtp, kRtn };

struct ConvertSpec {
  Kind from;
  Kind to;
  bool from_signed = false;
  bool to_signed = false;
  bool saturate = false;
  bool default_rounding = true;  // no FPRoundingMode decoration
  RoundMode mode = RoundMode::kRte;
};

// Group (collective) operations.
enum class GroupOp : uint8_t {
  kAll,
  kAny,
  kBroadcast,
  kIAdd,
  kFAdd,
  kFMin,
  kUMin,
  kSMin,
  kFMax,
  kUMax,
  kSMax,
  // SPV_INTEL_subgroups (subgroup scope): shuffles read another active
  // invocation's operand; block reads/writes move consecutive elements
  // (lane j of invocation i at element j * SubgroupMaxSize + i).
  kShuffle,      // value = Data, index = InvocationId
  kShuffleDown,  // value = Current, value2 = Next, index = Delta
  kShuffleUp,    // value = Previous, value2 = Current, index = Delta
  kShuffleXor,   // value = Data, index = Value
  kBlockRead,    // value = Ptr
  kBlockWrite,   // value = Ptr, value2 = Data
  // OpGroupAsyncCopy (work-group scope): value = Destination, value2 =
  // Source, index = NumElements, local_id = Stride, event = Event; the
  // copy is recorded and done at the OpGroupWaitEvents naming its event.
  kAsyncCopy,
  // OpGroupWaitEvents: index = NumEvents, value = EventsList.
  kWaitEvents,
  // OpGroupNonUniform* (SPIR-V 1.3, Subgroup scope only): computed over the
  // active invocations, the ones of the subgroup that wait at the
  // instruction together (GroupCall::non_uniform). kAll, kAny, kBroadcast
  // and the arithmetic operations above are shared with OpGroup*; kIAdd ...
  // kSMax plus the ones below take GroupMode incl. kClusteredReduce.
  kIMul,
  kFMul,
  kBitwiseAnd,
  kBitwiseOr,
  kBitwiseXor,
  kLogicalAnd,
  kLogicalOr,
  kLogicalXor,
  kElect,             // r = the lowest active SubgroupLocalInvocationId
  kAllEqual,          // value = Value (int: bits, float: IEEE ==)
  kBroadcastFirst,    // value = Value of the lowest active invocation
  kBallot,            // value = Predicate; r = uvec4 of active lanes
  kInverseBallot,     // value = uvec4 (uniform); r = own bit
  kBallotBitExtract,  // value = uvec4, index = Index (index_bytes)
  kBallotBitCount,    // value = uvec4; mode Reduce/InclusiveScan/ExclusiveScan
  kBallotFindLSB,     // value = uvec4
  kBallotFindMSB,     // value = uvec4
  // Non-uniform shuffles: value = Value, index = Id / Mask / Delta
  // (index_bytes); reading an inactive or out-of-range lane is UB.
  kNuShuffle,
  kNuShuffleXor,
  kNuShuffleUp,
  kNuShuffleDown,
};
enum class GroupMode : uint8_t {
  kReduce,
  kInclusiveScan,
  kExclusiveScan,
  kClusteredReduce,  // GroupCall::cluster lanes per cluster
};

struct GroupCall {
  GroupOp op;
  GroupMode mode = GroupMode::kReduce;
  uint32_t scope = 2;  // 2 workgroup, 3 subgroup
  uint32_t value = kNoSlot;
  uint32_t local_id = kNoSlot;  // Broadcast: id operand
  uint32_t local_id_lanes = 1;
  uint32_t local_id_bytes = 4;
  uint32_t value2 = kNoSlot;
  uint32_t index = kNoSlot;  // shuffles: the 32-bit index operand
  // Async copies: byte sizes of the NumElements / Stride / NumEvents
  // integers, the element size, the event operand, and whether the
  // destination is Workgroup memory (the stride then applies to the
  // source).
  uint32_t index_bytes = 4;
  uint32_t stride_bytes = 8;
  uint32_t element_bytes = 0;
  uint32_t event = kNoSlot;
  bool gather = true;
  // OpGroupNonUniform*: runs over the active invocations only.
  bool non_uniform = false;
  // The Value operand's shape where it differs from the result's (ballot
  // operations: uvec4 in, bool / uint out; Ballot: bool in).
  Kind value_kind = kAgg;
  uint8_t value_lanes = 1;
  // ClusteredReduce: the ClusterSize constant (checked when run).
  uint64_t cluster = 0;
};

// Shuffles may run in non-uniform control flow: only the invocations that
// reach them take part.
inline bool IsShuffle(GroupOp op) {
  return op == GroupOp::kShuffle || op == GroupOp::kShuffleDown ||
         op == GroupOp::kShuffleUp || op == GroupOp::kShuffleXor;
}
// Group operations that run in non-uniform control flow: the Intel
// shuffles and every OpGroupNonUniform*.
inline bool RunsNonUniform(const GroupCall& g) {
  return g.non_uniform || IsShuffle(g.op);
}

// Image instructions (decode_image.cc, executor_image.cc). Handles are
// 8-byte values (image_state.h).
enum class ImageOpKind : uint8_t {
  kSampledImage,  // r = image a | sampler b << 32
  kImageOf,       // OpImage: r = the image of sampled image a
  kRead,          // r = texel at integer coordinates b of image a
  kWrite,         // texel c written at integer coordinates b of image a
  kSample,        // r = sampled image a at coordinates b, Lod lod
  kQuerySize,     // r = size lanes of image a (lod: level, must be 0)
  kQueryFormat,
  kQueryOrder,
  kQueryLevels,
  kQuerySamples,
};

struct ImageCall {
  ImageOpKind kind = ImageOpKind::kRead;
  uint32_t r = kNoSlot;
  uint32_t image = kNoSlot;
  uint32_t sampler = kNoSlot;  // kSampledImage
  uint32_t coord = kNoSlot;
  Kind coord_kind = kI32;  // kI32 / kI64 (integer) or kF32
  uint8_t coord_lanes = 1;
  // kRead/kSample: the result; kWrite: the texel (4 lanes of kF32, kF16 or
  // kI32); queries: the result's integer lanes.
  Kind value_kind = kF32;
  uint8_t value_lanes = 4;
  uint32_t texel = kNoSlot;  // kWrite
  uint32_t lod = kNoSlot;    // kSample, kQuerySize; kNoSlot: none
  Kind lod_kind = kI32;
};

struct ExtCall;
struct ExtContext;
// Returns false after reporting an error through the context.
using ExtHandler = bool (*)(ExtContext& ctx, const ExtCall& call);

struct ExtArg {
  uint32_t slot;
  Kind kind;
  uint8_t lanes;
  uint32_t bytes;  // value size (composites: layout size)
  uint32_t pointee_type = 0;
  uint32_t pointee_bytes = 0;
};

struct ExtCall {
  ExtHandler handler;
  uint32_t number;  // OpenCL.std instruction number
  uint32_t result;
  Kind kind;
  uint8_t lanes;
  uint32_t result_bytes;
  std::vector<ExtArg> args;
  uint32_t aux = 0;  // vloadn/vstoren component count etc.
  RoundMode mode = RoundMode::kRte;
};

struct FunctionInfo {
  uint32_t id = 0;
  std::string name;
  uint32_t entry_pc = 0;
  uint32_t frame_bytes = 0;
  std::vector<uint8_t> frame_template;  // constants baked in
  std::vector<uint32_t> param_slots;
  std::vector<uint32_t> param_bytes;
  uint32_t return_bytes = 0;
};

enum class AllocKind : uint8_t {
  kGlobalVariable,     // UniformConstant / CrossWorkgroup with contents
  kWorkgroupVariable,  // per work-group, zero-filled
  kBuiltin,            // per work-item input
  kBufferArg,
  kLocalArg,
  kDynamic,  // private variables, by-value copies
};

// MemorySemantics ImageMemory: a barrier or fence that orders image
// accesses (read-write images, executor_image.cc).
inline constexpr uint32_t kImageMemorySemantics = 0x800;

// Storage class tags kept on allocations (SPIR-V numbering).
inline constexpr uint32_t kScUniformConstant = 0;
inline constexpr uint32_t kScInput = 1;
inline constexpr uint32_t kScWorkgroup = 4;
inline constexpr uint32_t kScCrossWorkgroup = 5;
inline constexpr uint32_t kScFunction = 7;
inline constexpr uint32_t kScGeneric = 8;

enum class Builtin : uint8_t {
  kGlobalInvocationId,
  kLocalInvocationId,
  kWorkgroupId,
  kNumWorkgroups,
  kGlobalSize,
  kWorkgroupSize,
  kEnqueuedWorkgroupSize,
  kGlobalOffset,
  kWorkDim,
  kGlobalLinearId,
  kLocalInvocationIndex,
  kSubgroupSize,
  kSubgroupMaxSize,
  kNumSubgroups,
  kNumEnqueuedSubgroups,
  kSubgroupId,
  kSubgroupLocalInvocationId,
  // uvec4 masks of the subgroup's invocations (GroupNonUniformBallot).
  kSubgroupEqMask,
  kSubgroupGeMask,
  kSubgroupGtMask,
  kSubgroupLeMask,
  kSubgroupLtMask,
};

struct StaticAlloc {
  AllocKind kind;
  uint32_t storage_class;
  uint64_t bytes = 0;
  std::vector<uint8_t> init;  // empty: zero-filled
  bool read_only = false;
  // Builtins: which one, and how its value is laid out.
  Builtin builtin = Builtin::kGlobalInvocationId;
  uint8_t builtin_lanes = 1;
  uint8_t builtin_lane_bytes = 8;
  uint32_t builtin_offset = 0;  // within the per-work-item builtin block
};

struct KernelParam {
  enum class Kind {
    kBuffer,
    kLocal,
    kByValuePointer,
    kValue,
    kImage,    // index: into the run's images
    kSampler,  // index: into the run's samplers (after literal samplers)
  } kind;
  uint32_t storage_class = kScCrossWorkgroup;
  uint32_t bytes = 0;     // kValue: value size; kByValuePointer: pointee size
  uint32_t alloc_id = 0;  // kBuffer/kLocal: the static allocation id
  uint32_t index = 0;     // kImage/kSampler
  // kImage: the OpTypeImage's Dim, Arrayed and access qualifier (the
  // argument's descriptor must match).
  uint32_t image_dim = 0;
  bool image_arrayed = false;
  uint32_t image_access = 0;
};

struct Program {
  std::vector<Inst> insts;
  std::vector<InstOrigin> origins;  // parallel to insts
  std::vector<Edge> edges;
  std::vector<PhiMove> moves;
  std::vector<uint32_t> extra;
  std::vector<ConvertSpec> converts;
  std::vector<GroupCall> groups;
  std::vector<ExtCall> ext_calls;
  std::vector<ImageCall> image_calls;
  // OpConstantSampler values in declaration order: sampler handles 1..N.
  struct LiteralSampler {
    bool normalized;
    uint8_t addressing;  // spirv::AddressingMode value
    uint8_t filter;      // spirv::FilterMode value
  };
  std::vector<LiteralSampler> literal_samplers;
  uint32_t image_params = 0;
  std::vector<std::string> messages;
  std::vector<FunctionInfo> functions;
  uint32_t entry_function = 0;
  std::vector<KernelParam> params;
  // Allocation ids 1..static_allocs.size() (0 is the null pointer).
  std::vector<StaticAlloc> static_allocs;
  uint32_t builtin_block_bytes = 0;
  uint32_t max_call_depth = 64;
  // Work-group size hint from OpExecutionMode LocalSize (0 = none).
  uint32_t reqd_local_size[3] = {0, 0, 0};
};

}  // namespace l0spv::oracles::reference
