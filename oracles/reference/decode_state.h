// oracles/reference/decode_state.h — the state one Decode call shares
// across the decoder's files (internal to oracles/reference/decode*.cc).
//
// Contract: a DecodeState lives for one Decode call and is used by one
// thread. It owns the Program being built and every map the decoder keeps
// (types, decorations, module-level values, per-function slots). Its
// methods are defined by instruction class, one file each, so a new
// SPIR-V instruction touches one file (see README.md, "Adding an
// instruction"):
//   decode.cc            entry point, module-level driver, Translate
//                        (dispatch on the grammar's instruction class)
//   decode_state.cc      slots, frame allocation, operand helpers
//   decode_types.cc      types (layout: spirv::TypeTable), value shapes
//   decode_constants.cc  OpConstant*, OpSpecConstant* (defaults)
//   decode_spec_constants.cc  OpSpecConstantOp folding (scalar_ops.h)
//   decode_memory.cc     module-scope variables; Memory instructions
//   decode_arith.cc      Arithmetic, Bit, Relational_and_Logical, Conversion
//   decode_composite.cc  Composite instructions
//   decode_control.cc    function bodies, CFG edges and phis; Control-Flow,
//                        Function, Debug, Miscellaneous instructions
//   decode_groups.cc     Barrier, Atomic, Group, Non-Uniform instructions
//   decode_ext_inst.cc   OpExtInst (OpenCL.std, printf)
//   decode_image.cc      image/sampler types, OpConstantSampler, image
//                        kernel parameters; Image instructions
// Every Translate* method either emits instructions for `inst`, or emits a
// trap (Unsupported) and returns OK, or returns InvalidArgument for a
// malformed module, or Unimplemented, which DecodeFunction turns into a
// trap: the contract of decode.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "oracles/reference/program.h"
#include "spirv/instruction.h"
#include "spirv/module.h"
#include "spirv/type_table.h"

namespace l0spv::oracles::reference::decoder {

// Frames and register values are kept well below 4 GiB so every offset
// computation in the executor fits comfortably in 32 bits.
inline constexpr uint64_t kMaxFrameBytes = uint64_t{1} << 28;
inline constexpr uint64_t kMaxObjectBytes = (uint64_t{1} << 32) - 1;

struct TypeDesc {
  enum Cls {
    kVoid,
    kBool,
    kInt,
    kFloat,
    kVector,
    kArray,
    kStruct,
    kPointer,
    kFunction,
    kOpaque
  } cls = kOpaque;
  uint32_t width = 0;  // int/float bits
  uint32_t lanes = 1;  // vector components
  uint32_t elem = 0;   // vector/array element, pointee
  uint64_t count = 0;  // array length
  // An array the interpreter cannot hold (kMaxObjectBytes or more): the
  // bytes it needs (UINT64_MAX: 2^64 or more), for the message naming it.
  uint64_t oversize_bytes = 0;
  bool sized = false;
  uint64_t size = 0;
  uint64_t align = 1;
  uint32_t storage = 0;       // pointers
  uint32_t array_stride = 0;  // pointers: ArrayStride decoration
  std::vector<uint32_t> members;
  std::vector<uint64_t> offsets;
  uint32_t return_type = 0;
  std::vector<uint32_t> params;
  // Images, samplers and sampled images are 8-byte handles (image_state.h);
  // images keep their Dim, Arrayed and access qualifier (sampled images
  // their image's, `elem` = the image type).
  enum class Handle : uint8_t { kNone, kImage, kSampler, kSampledImage };
  Handle handle = Handle::kNone;
  uint32_t image_dim = 0;
  bool image_arrayed = false;
  uint32_t image_access = 0;
};

struct Decorations {
  bool saturated = false;
  int rounding = -1;
  int builtin = -1;
  uint32_t array_stride = 0;
  bool byval = false;
  uint32_t alignment = 0;
  bool no_signed_wrap = false;    // NoSignedWrap (SPIR-V 1.4)
  bool no_unsigned_wrap = false;  // NoUnsignedWrap
};

// A module-level value: its type and its bytes in the OpenCL layout.
struct ModValue {
  uint32_t type = 0;
  std::vector<uint8_t> bytes;
};

// A value's shape in registers.
struct Shape {
  Kind k = kAgg;
  uint8_t n = 1;
  uint32_t bytes = 0;   // register bytes (layout size)
  uint32_t access = 0;  // bytes a load/store moves (vec3: 3 lanes)
};

// InvalidArgument "reference decoder: <what>" (a malformed module).
absl::Status Bad(absl::string_view what);
// Unimplemented <what> (a feature the interpreter lacks).
absl::Status Unimpl(absl::string_view what);
// "the Function variable %7 needs 8589934592 bytes (8 GiB) of memory; the
// reference holds objects below 4 GiB" when `t` is too large to hold, else
// OK.
absl::Status CheckObjectSize(const TypeDesc& t, absl::string_view what);
// "OpIAdd", or "opcode N" for opcodes the grammar does not know.
std::string OpName(uint32_t opcode);
// How a shape reads in messages: "uint", "float4", "bool", ...
std::string ShapeName(const Shape& s);

// Why an instruction the interpreter lacks traps (after its name).
inline constexpr absl::string_view kNotImplemented =
    "is not implemented by the reference interpreter";

// Early return of a StatusOr's error: `var` is the StatusOr.
#define L0SPV_DECODE_TRY(var, expr) \
  auto var = (expr);                \
  if (!var.ok()) return var.status()

class DecodeState {
 public:
  using Instruction = spirv::Instruction;
  using Op_ = reference::Op;

  explicit DecodeState(const spirv::Module& m)
      : m_(m), layout_(spirv::TypeTable::Incremental(m)) {}

  // decode.cc: decodes the whole module for one entry point (call once).
  absl::StatusOr<Program> Run(absl::string_view entry);
  // decode.cc: decodes everything but an entry point's own part (call
  // once), then ProgramFor gives each entry point's program: Run's result
  // for that entry, at the cost of its parameters and a copy.
  absl::Status DecodeShared();
  absl::StatusOr<Program> ProgramFor(absl::string_view entry);

 private:
  // ---- module level (decode.cc) ----
  absl::Status DecodeHeader();
  // The Kernel entry point named `entry`: entry_id_ and its LocalSize.
  absl::Status FindEntry(absl::string_view entry);
  // Decorations, types, values and every function body.
  absl::Status DecodeModule();
  // The entry function and its kernel parameters (after DecodeModule).
  absl::Status DecodeEntry();
  absl::Status DecodeDecorations();

  // ---- types (decode_types.cc) ----
  absl::Status DecodeType(const Instruction& inst);
  absl::StatusOr<Shape> ShapeOf(uint32_t type_id) const;
  // Byte offset and type of the member `indices` names inside `type`.
  std::optional<std::pair<uint64_t, uint32_t>> MemberAt(
      uint32_t type, const std::vector<uint32_t>& indices) const;
  const TypeDesc* Type(uint32_t id) const {
    auto it = types_.find(id);
    return it == types_.end() ? nullptr : &it->second;
  }
  const Decorations* Deco(uint32_t id) const {
    auto it = decorations_.find(id);
    return it == decorations_.end() ? nullptr : &it->second;
  }

  // ---- images and samplers (decode_image.cc) ----
  // OpTypeImage / OpTypeSampler / OpTypeSampledImage into `t`.
  absl::Status DecodeImageType(const Instruction& inst, TypeDesc* t);
  absl::Status DecodeConstantSampler(const Instruction& inst);
  // Kernel parameter of image or sampler type `t`.
  void ImageParam(const TypeDesc& t, KernelParam* kp);
  absl::Status ImageAccessOp(const Instruction& inst, ImageOpKind kind);
  absl::Status ImageQuery(const Instruction& inst, ImageOpKind kind);
  // Emits the kImage instruction running `call`.
  void EmitImageCall(const Instruction& inst, const ImageCall& call);

  // ---- constants (decode_constants.cc, decode_spec_constants.cc) ----
  absl::Status DecodeConstant(const Instruction& inst);
  std::optional<uint64_t> ConstantInt(uint32_t id) const;
  absl::Status DecodeSpecConstantOp(const Instruction& inst);
  // Composite, float, conversion and bitcast OpSpecConstantOp operations;
  // an empty string on success, else why the value cannot be computed.
  std::string EvaluateSpecOp(const Instruction& inst, const Shape& rshape,
                             ModValue* v);

  // ---- module-scope variables (decode_memory.cc) ----
  absl::Status DecodeGlobalVariable(const Instruction& inst);

  // ---- function bodies (decode_control.cc) ----
  absl::Status DecodeFunction(const spirv::Function& f, uint32_t index);
  absl::StatusOr<uint32_t> MakeEdge(uint32_t from_label, uint32_t to_label);

  // ---- translation, one entry per instruction class ----
  absl::Status Translate(const Instruction& inst);  // decode.cc
  absl::Status TranslateArith(const Instruction& inst);
  absl::Status TranslateLogic(const Instruction& inst);
  absl::Status TranslateConversion(const Instruction& inst);
  absl::Status TranslateComposite(const Instruction& inst);
  absl::Status TranslateMemory(const Instruction& inst);
  absl::Status TranslateControl(const Instruction& inst);
  absl::Status TranslateMisc(const Instruction& inst);
  absl::Status TranslateGroups(const Instruction& inst);
  absl::Status TranslateExtInst(const Instruction& inst);
  absl::Status TranslateImage(const Instruction& inst);

  // decode_arith.cc
  absl::Status IntFamily(const Instruction& inst, Op_ base8, bool binary);
  absl::Status IntCompare(const Instruction& inst, Op_ base8);
  absl::Status FloatFamily(const Instruction& inst, Op_ base16, int arity);
  absl::Status Convert(const Instruction& inst, bool from_signed,
                       bool to_signed, bool saturate);
  absl::Status ExtendedArith(const Instruction& inst);
  // OpBitcast, OpPtrCastToGeneric, OpCopyObject: a byte copy.
  absl::Status BitCopy(const Instruction& inst);
  // decode_composite.cc
  absl::Status CompositeConstruct(const Instruction& inst);
  absl::Status CompositeAccess(const Instruction& inst);
  absl::Status VectorShuffle(const Instruction& inst);
  absl::Status VectorDynamic(const Instruction& inst);
  // decode_memory.cc
  absl::Status Variable(const Instruction& inst);
  absl::Status LoadStore(const Instruction& inst);
  absl::Status CopyMemory(const Instruction& inst);
  absl::Status PointerCompare(const Instruction& inst);
  absl::Status AccessChain(const Instruction& inst, bool ptr_chain);
  // decode_control.cc
  absl::Status Switch(const Instruction& inst);
  absl::Status FunctionCall(const Instruction& inst);
  absl::Status SizeOf(const Instruction& inst);
  // decode_groups.cc
  absl::Status ControlBarrier(const Instruction& inst);
  absl::Status Atomic(const Instruction& inst, Op_ op);
  absl::Status Group(const Instruction& inst, GroupOp op, bool has_mode);
  absl::Status IntelSubgroup(const Instruction& inst, GroupOp op);
  absl::Status NonUniform(const Instruction& inst, GroupOp op);
  // Emits the kGroup instruction running `g`, whose result has `shape`.
  absl::Status EmitGroupCall(const Instruction& inst, GroupCall g,
                             const Shape& shape);
  absl::Status AsyncCopy(const Instruction& inst);
  absl::Status WaitEvents(const Instruction& inst);

  // ---- per-function helpers (decode_state.cc) ----
  absl::StatusOr<uint32_t> Slot(uint32_t id);
  // The slot of the id in operand `i` of `inst`.
  absl::StatusOr<uint32_t> SlotOf(const Instruction& inst, size_t i);
  absl::StatusOr<uint32_t> TypeOfValue(uint32_t id) const;
  absl::StatusOr<uint32_t> AllocSlot(uint64_t bytes);
  absl::StatusOr<uint32_t> ConstSlot(const std::vector<uint8_t>& bytes);
  absl::StatusOr<uint32_t> ScopeOf(const Instruction& inst, size_t i) const;
  absl::StatusOr<uint32_t> Id(const Instruction& inst, size_t i) const;
  // The value `id` occupies at least `bytes` bytes (guards byte copies on
  // modules that skipped validation).
  absl::Status NeedBytes(uint32_t id, uint64_t bytes) const;
  void Emit(const Inst& inst, const Instruction& origin);
  void EmitTrap(const Instruction& origin, std::string message);
  // Emits a trap: `inst` stops the run as unsupported when reached.
  absl::Status Unsupported(const Instruction& inst, absl::string_view why);

  const spirv::Module& m_;
  Program prog_;
  // Sizes, alignments and member offsets, declared type by type as
  // DecodeType meets them (TypeDesc caches what the decoder uses).
  spirv::TypeTable layout_;
  absl::flat_hash_map<uint32_t, TypeDesc> types_;
  absl::flat_hash_map<uint32_t, Decorations> decorations_;
  absl::flat_hash_map<uint32_t, ModValue> values_;
  absl::flat_hash_map<uint32_t, std::string> names_;
  // Module-level values the interpreter cannot compute (why, by id).
  absl::flat_hash_map<uint32_t, std::string> unsupported_values_;
  absl::flat_hash_map<uint32_t, uint32_t> function_index_;
  uint32_t opencl_std_ = 0;
  uint32_t sampler_params_ = 0;
  uint32_t entry_id_ = 0;

  // Per function being decoded.
  uint32_t current_function_ = 0;
  FunctionInfo* fn_ = nullptr;
  absl::flat_hash_map<uint32_t, uint32_t> slots_;
  absl::flat_hash_map<uint32_t, uint32_t> local_types_;
  absl::flat_hash_map<uint32_t, uint32_t> block_index_;
  std::vector<std::vector<const Instruction*>> block_phis_;
  std::vector<uint32_t> block_pc_;
  std::vector<std::pair<uint32_t, uint32_t>> pending_edges_;  // edge, block
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> template_writes_;
  uint32_t current_label_ = 0;
};

}  // namespace l0spv::oracles::reference::decoder
